"""For the results pages' unit tests, which build small sweeps by hand: the points a parsed spec
file keeps after its [[exclude]] tables, and a sweep directory's two tables written out as
`warpsim sweep` writes them."""

import json
import os


def spec_points(parsed):
    """(workload, size, variant) of each point of a parsed spec (tomllib) that no [[exclude]]
    leaves out, in the sweep's order (the first axis outermost)."""
    axes = parsed["axes"]
    out = []
    for w in axes["workload"]:
        for z in axes["size"]:
            for v in axes["variant"]:
                point = {"workload": w, "size": z, "variant": v}
                if not any(all(point[k] in (x if isinstance(x, list) else [x]) for k, x in e.items())
                           for e in parsed.get("exclude", [])):
                    out.append((w, z, v))
    return out


def write_tables(folder, points, table):
    """folder/points.jsonl and folder/table.jsonl: one JSON object a line."""
    for name, rows in (("points.jsonl", points), ("table.jsonl", table)):
        with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
            f.writelines(json.dumps(r) + "\n" for r in rows)
