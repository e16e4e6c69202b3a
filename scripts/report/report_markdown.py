"""Markdown helpers of the report pages: tables and the text of a cell."""

import json
import math

NONE = "–"  # an empty cell: no value, or a point that wrote none


def value(v):
    """A cell's text: integers as they are, other numbers rounded to 4 significant digits
    (written out from 0.001 to 10^15, in exponent form outside), strings as they are, objects and
    arrays as compact JSON, NONE for None."""
    if v is None:
        return NONE
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if v == 0 or not math.isfinite(v):
            return str(v) if v != 0 else "0"
        if not 1e-3 <= abs(v) < 1e15:
            return format(v, ".4g")
        return f"{v:.{max(0, 3 - math.floor(math.log10(abs(v))))}f}"
    if isinstance(v, str):
        return v
    return json.dumps(v, separators=(",", ":"), sort_keys=True)


def table(header, rows):
    def cell(text):
        return str(text).replace("|", "\\|").replace("\n", " ")
    lines = ["| " + " | ".join(cell(h) for h in header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def words(names, empty="none"):
    """['a', 'b', 'c'] -> 'a, b and c' (`empty` for none)."""
    names = list(names)
    if not names:
        return empty
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
