"""Loads the statistics of the G-Scalar experiment: the stats.json of each point of its sweep
(`warpsim run --stats`, DIR/points/ID/stats.json), summed over the kernels of each run.

A run becomes a Run: flat sums over its kernels of every number under kernels[i]["timing"] and
kernels[i]["value_similarity"], keyed by dotted path without that prefix
("sm.register_file.array_reads", "energy.components.alu.nj", "register_writes.divergent.uniform").
Lists (per-SM breakdowns) and booleans are left out. A key that is absent reads as 0, so a
configuration that lacks a counter (the banked register file has no scalar counters) contributes 0.
One product is summed too, since a sum of its factors would mean nothing:
"occupancy.warp_slot_cycles", sm.active_cycles x occupancy.max_warps_per_sm of each kernel (the
denominator of the kernel's achieved occupancy, sm.resident_warp_cycles the numerator).
"""

from sweep_report import ReportError  # scripts/report, on the path of a template

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
            timing = kernel.get("timing") or {}
            active = (timing.get("sm") or {}).get("active_cycles")
            slots = (timing.get("occupancy") or {}).get("max_warps_per_sm")
            if isinstance(active, (int, float)) and isinstance(slots, (int, float)):
                _add_numbers(self._sums, "occupancy.warp_slot_cycles", active * slots)

    def get(self, key):
        """The sum over kernels of `key`; 0 when no kernel has it."""
        return self._sums.get(key, 0)

    def total(self, prefix, names):
        """Sum of get(prefix + "." + name) over `names`."""
        return sum(self.get(f"{prefix}.{name}") for name in names)


def load_runs(report):
    """{variant: {workload: Run or None}} for every variant and workload of the sweep, from the
    statistics of its points (a point that failed or has not run yet gives None). Raises
    ReportError when the sweep has more than one value of another axis (size, config, ...): the
    page compares variants of one run of the suite."""
    for axis in report.axes:
        if axis.name not in ("workload", "variant") and len(axis.values) != 1:
            raise ReportError(f"the G-Scalar page needs one value of axis {axis.name}; the sweep "
                             f"has {len(axis.values)}")
    for name in ("workload", "variant"):
        if report.axis(name) is None:
            raise ReportError(f"the G-Scalar page needs a {name} axis; the sweep has none")
    runs = {v: {w: None for w in report.axis("workload").values}
            for v in report.axis("variant").values}
    for point in report.points:
        document = report.stats(point) if point.status in ("pass", "verify-failed") else None
        if document is not None:
            if not isinstance(document, dict):
                raise ReportError(f"point {point.id}: its statistics are not a JSON object")
            runs[point.axes["variant"]][point.axes["workload"]] = Run(document)
    return runs
