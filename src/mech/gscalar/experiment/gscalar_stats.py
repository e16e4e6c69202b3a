"""Loads the statistics of the G-Scalar experiment: OUT/<config>/<workload>.json as written by
`warpsim run --stats`, summed over the kernels of each run.

A run becomes a Run: flat sums over its kernels of every number under kernels[i]["timing"] and
kernels[i]["value_similarity"], keyed by dotted path without that prefix
("sm.register_file.array_reads", "energy.components.alu.nj", "register_writes.divergent.uniform").
Lists (per-SM breakdowns) and booleans are left out. A key that is absent reads as 0, so a
configuration that lacks a counter (the banked register file has no scalar counters) contributes 0.
"""

import json
import os

_SUMMED_SECTIONS = ("timing", "value_similarity")


def _add_numbers(into, prefix, node):
    """Adds every number below `node` into the flat dict `into` under dotted keys."""
    if isinstance(node, dict):
        for key, value in node.items():
            _add_numbers(into, f"{prefix}.{key}" if prefix else key, value)
    elif isinstance(node, (int, float)) and not isinstance(node, bool):
        into[prefix] = into.get(prefix, 0) + node


class Run:
    """One workload in one configuration, summed over its kernels."""

    def __init__(self, document):
        self.verified = bool(document.get("verified", False))
        self.version = str(document.get("warpsim_version", ""))
        self.size = str(document.get("size", ""))
        self.kernels = 0
        self._sums = {}
        for kernel in document.get("kernels") or []:
            if not isinstance(kernel, dict):
                continue
            self.kernels += 1
            for section in _SUMMED_SECTIONS:
                _add_numbers(self._sums, "", kernel.get(section) or {})

    def get(self, key):
        """The sum over kernels of `key`; 0 when no kernel has it."""
        return self._sums.get(key, 0)

    def total(self, prefix, names):
        """Sum of get(prefix + "." + name) over `names`."""
        return sum(self.get(f"{prefix}.{name}") for name in names)


def load_run(path):
    """The Run stored at `path`, or None when the file does not exist. Raises ValueError naming
    the file when it is not valid JSON."""
    if not os.path.exists(path):
        return None
    try:
        with open(path, encoding="utf-8") as stream:
            document = json.load(stream)
    except json.JSONDecodeError as error:
        raise ValueError(f"{path}: not valid JSON ({error})") from error
    if not isinstance(document, dict):
        raise ValueError(f"{path}: expected a JSON object")
    return Run(document)


def load_all(out_dir, configs, workloads):
    """{config: {workload: Run or None}} for every pair."""
    return {
        config: {w: load_run(os.path.join(out_dir, config, f"{w}.json")) for w in workloads}
        for config in configs
    }


def read_configurations(path):
    """[(name, options, meaning)] from configurations.txt (name | options | meaning a line)."""
    configurations = []
    with open(path, encoding="utf-8") as stream:
        for line in stream:
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            name, options, meaning = (part.strip() for part in (line.split("|", 2) + ["", ""])[:3])
            configurations.append((name, options, meaning))
    return configurations


def find_workloads(out_dir, configs):
    """The workloads of the last run (OUT/workloads.txt), else every workload with a statistics
    file in some configuration, sorted."""
    listed = os.path.join(out_dir, "workloads.txt")
    if os.path.exists(listed):
        with open(listed, encoding="utf-8") as stream:
            return [line.strip() for line in stream if line.strip()]
    found = set()
    for config in configs:
        folder = os.path.join(out_dir, config)
        if os.path.isdir(folder):
            found.update(f[:-5] for f in os.listdir(folder) if f.endswith(".json"))
    return sorted(found)


def read_run_info(out_dir):
    """key=value lines of OUT/run-info.txt (written by run.sh after the runs); {} when absent."""
    path = os.path.join(out_dir, "run-info.txt")
    info = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as stream:
            for line in stream:
                key, sep, value = line.rstrip("\n").partition("=")
                if sep:
                    info[key] = value
    return info
