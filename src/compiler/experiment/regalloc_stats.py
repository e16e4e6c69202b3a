"""Loads what the register-allocation experiment stores (see run.sh): OUT/<run>/<workload>.json
(`warpsim run --stats`, one per budget run) and OUT/ptxas/<run>/<workload>.txt (`ptxas -v`
output), and the arithmetic both the driver and the page need (budgets, the allocator's "smallest
feasible budget" message).

Runs: off (--max-registers off, the unconstrained reference), minimal, b75 and b50 (at
ceil(0.75 x) and ceil(0.5 x) the workload's minimal count, raised to a kernel's feasible minimum
where the allocator refuses the budget).
"""

import json
import os
import re

RUNS = ("off", "minimal", "b75", "b50")
BUDGET_PERCENT = {"b75": 75, "b50": 50}
PTXAS_RUNS = ("minimal", "b75", "b50")  # the ptxas report beside each; minimal: no -maxrregcount
FEASIBLE = re.compile(r"smallest feasible budget is (\d+)")


def budget_for(minimal, percent):
    """ceil(percent% of minimal), at least 1; None without a minimal count."""
    if not minimal:
        return None
    return max(1, -(-minimal * percent // 100))


def feasible_minimum(text):
    """F from the allocator's "... the smallest feasible budget is F" error, else None."""
    found = FEASIBLE.search(text or "")
    return int(found.group(1)) if found else None


def _number(value):
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


class Run:
    """One `warpsim run --stats` document: its kernel launches and sums over them."""

    def __init__(self, document):
        self.verified = bool(document.get("verified", False))
        self.version = str(document.get("warpsim_version", ""))
        self.size = str(document.get("size", ""))
        self.launches = [k for k in document.get("kernels") or [] if isinstance(k, dict)]

    def kernel_names(self):
        """Distinct kernel names in launch order."""
        return list(dict.fromkeys(str(k.get("name", "")) for k in self.launches))

    def _first_per_kernel(self):
        return {name: next(k for k in self.launches if str(k.get("name", "")) == name)
                for name in self.kernel_names()}

    def registers(self):
        """Most registers per thread over the allocated launches (register_allocation.registers:
        the most any function the kernel reaches uses); None when none was allocated."""
        return self.allocation_max("registers")

    def launch_max(self, key):
        values = [_number(k.get(key)) for k in self.launches]
        values = [v for v in values if v is not None]
        return max(values) if values else None

    def allocation_max(self, key):
        values = [_number((k.get("register_allocation") or {}).get(key)) for k in self.launches]
        values = [v for v in values if v is not None]
        return max(values) if values else None

    def static(self, key):
        """Sum over the distinct kernels of register_allocation[key] (a property of the code, the
        same in every launch); None when no kernel was allocated."""
        values = [_number((k.get("register_allocation") or {}).get(key))
                  for k in self._first_per_kernel().values()]
        values = [v for v in values if v is not None]
        return sum(values) if values else None

    def dynamic(self, key):
        """Sum over the launches of register_allocation[key]; None when no kernel was allocated."""
        values = [_number((k.get("register_allocation") or {}).get(key)) for k in self.launches]
        values = [v for v in values if v is not None]
        return sum(values) if values else None

    def total(self, key):
        """Sum over the launches of a top-level number of the kernel entry (cycles,
        warp_instructions); None when no launch has it."""
        values = [_number(k.get(key)) for k in self.launches]
        values = [v for v in values if v is not None]
        return sum(values) if values else None

    def timing_total(self, *path):
        """Sum over the launches of timing[path[0]][path[1]]...; None when no launch has it."""
        values = []
        for k in self.launches:
            node = k.get("timing")
            for key in path:
                node = node.get(key) if isinstance(node, dict) else None
            values.append(_number(node))
        values = [v for v in values if v is not None]
        return sum(values) if values else None

    def budget(self):
        """register_allocation.budget of the run ("minimal" or a whole number), or None."""
        for k in self.launches:
            budget = (k.get("register_allocation") or {}).get("budget")
            if budget is not None:
                return int(budget) if str(budget).isdigit() else str(budget)
        return None

    def sources(self):
        """The resource_source values of the launches, distinct, comma-separated."""
        return ", ".join(dict.fromkeys(str(k.get("resource_source")) for k in self.launches
                                       if k.get("resource_source")))

    def spill_store_words(self):
        """{class: words} of value_similarity.spill_stores, divergent and non-divergent together
        and summed over the launches; None when no launch has the block."""
        words, seen = {}, False
        for k in self.launches:
            block = (k.get("value_similarity") or {}).get("spill_stores")
            if not isinstance(block, dict):
                continue
            seen = True
            for by_class in block.values():
                for name, count in (by_class or {}).items():
                    if _number(count) is not None:
                        words[name] = words.get(name, 0) + count
        return words if seen else None


def load_json(path):
    """The document at `path`, or None when there is no file. Raises ValueError naming the file
    when it is not a JSON object."""
    if not os.path.exists(path):
        return None
    try:
        with open(path, encoding="utf-8") as stream:
            document = json.load(stream)
    except json.JSONDecodeError as error:
        raise ValueError(f"{path}: not valid JSON ({error})") from error
    if not isinstance(document, dict):
        raise ValueError(f"{path}: expected a JSON object")
    return document


class PtxasReport:
    """What `ptxas -v` printed for a workload's PTX files, as run.sh stores it: "# " lines with
    the command (and "# exit status N" when it failed), then ptxas's own lines."""

    def __init__(self, text):
        self.kernels = {}  # entry name -> {"registers", "spill_store_bytes", "spill_load_bytes"}
        self.limit = None  # the -maxrregcount asked for
        self.floor = None  # the lower bound ptxas raised the limit to, if it did
        self.failed = False
        self.target = None
        current, properties_of = None, None
        for line in text.splitlines():
            if line.startswith("#"):
                self.failed |= line.startswith("# exit status")
                found = re.search(r"-maxrregcount (\d+)", line)
                self.limit = int(found.group(1)) if found else self.limit
                continue
            found = re.search(r"lower bound of (\d+)", line)
            if found:
                self.floor = max(self.floor or 0, int(found.group(1)))
            found = re.search(r"Compiling entry function '([^']+)' for '([^']+)'", line)
            if found:
                current = found.group(1)
                self.target = found.group(2)
                self.kernels[current] = {"registers": None, "spill_store_bytes": 0,
                                         "spill_load_bytes": 0}
                continue
            found = re.search(r"Function properties for (\S+)", line)
            if found:
                properties_of = found.group(1)
                continue
            found = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", line)
            if found and properties_of == current and current is not None:
                self.kernels[current]["spill_store_bytes"] = int(found.group(1))
                self.kernels[current]["spill_load_bytes"] = int(found.group(2))
                continue
            found = re.search(r"Used (\d+) registers", line)
            if found and current is not None:
                self.kernels[current]["registers"] = int(found.group(1))

    def select(self, names):
        """The kernels among `names` that ptxas reported (all of them when names is None)."""
        if names is None:
            return list(self.kernels.values())
        return [self.kernels[n] for n in names if n in self.kernels]

    def registers(self, names=None):
        counts = [k["registers"] for k in self.select(names) if k["registers"] is not None]
        return max(counts) if counts else None

    def bytes(self, key, names=None):
        chosen = self.select(names)
        return sum(k[key] for k in chosen) if chosen else None


def load_ptxas(path):
    """The PtxasReport at `path`, or None when there is none or ptxas failed."""
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as stream:
        report = PtxasReport(stream.read())
    return None if report.failed or not report.kernels else report


def load_all(out_dir, workloads):
    """({run: {workload: Run or None}}, {ptxas run: {workload: PtxasReport or None}})."""
    runs = {}
    for run in RUNS:
        runs[run] = {}
        for w in workloads:
            document = load_json(os.path.join(out_dir, run, f"{w}.json"))
            runs[run][w] = Run(document) if document is not None else None
    ptxas = {run: {w: load_ptxas(os.path.join(out_dir, "ptxas", run, f"{w}.txt"))
                   for w in workloads} for run in PTXAS_RUNS}
    return runs, ptxas


def find_workloads(out_dir):
    """The workloads of the last run (OUT/workloads.txt), else every workload with statistics
    in some run, sorted."""
    listed = os.path.join(out_dir, "workloads.txt")
    if os.path.exists(listed):
        with open(listed, encoding="utf-8") as stream:
            return [line.strip() for line in stream if line.strip()]
    found = set()
    for run in RUNS:
        folder = os.path.join(out_dir, run)
        if os.path.isdir(folder):
            found.update(f[:-5] for f in os.listdir(folder) if f.endswith(".json"))
    return sorted(found)


def read_run_info(out_dir):
    """key=value lines of OUT/run-info.txt (written after the runs); {} when absent."""
    info = {}
    path = os.path.join(out_dir, "run-info.txt")
    if os.path.exists(path):
        with open(path, encoding="utf-8") as stream:
            for line in stream:
                key, sep, value = line.rstrip("\n").partition("=")
                if sep:
                    info[key] = value
    return info
