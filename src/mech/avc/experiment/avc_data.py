"""The AVC experiment's runs and the metrics of its results page (avc_page.py).

A point of the budget sweep (budget_spec.py) is one workload in one configuration ("variant") at
one register budget. Its statistics (warpsim run --stats) are summed per kernel name over the
kernel's launches: warp instructions, cycles, energy and every counter of the local-memory path
(memory.local_path, src/mech/avc/README.md "Statistics").

Definitions (the paper's, with the choices its text leaves open; README.md records them):
  rbase    a kernel's register count at the budget "minimal" (the fewest registers without
           spill code; at a larger budget the allocator may use more, still without spilling).
  traffic  private-memory transactions with the level below (128-byte block fills and
           write-backs of the AVC and the L1) per warp instruction of the kernel.
  rcache   the smallest budget r <= rbase such that traffic stays below THRESHOLD at r and at
           every budget from r up to rbase; marked as a floor ("*") when r is the smallest
           budget the allocator accepts; None when even rbase is above the threshold.
  half     r = 0.5 rbase: ceil(rbase / 2), no lower than the smallest accepted budget.
Kernels with rbase < 8 are left out, as in the paper. Application means weight every
application equally (its kernels averaged first).
"""

from summary_stats import geomean, mean  # noqa: F401 (the page uses data.mean, data.geomean)

THRESHOLD = 1e-4  # one access every 10 000 (warp) instructions
MIN_RBASE = 8
CONFIGS = ["baseline", "avc-1", "avc-2", "avc-3"]
BELOW = ("fills_avc", "fills_l1", "writebacks_avc", "writebacks_l1")


def _add(into, prefix, node):
    if isinstance(node, dict):
        for key, value in node.items():
            _add(into, f"{prefix}.{key}" if prefix else key, value)
    elif isinstance(node, (int, float)) and not isinstance(node, bool):
        into[prefix] = into.get(prefix, 0) + node


class KernelRun:
    """One kernel (all its launches) in one point."""

    def __init__(self, name):
        self.name = name
        self.registers = 0
        self.sums = {}

    def add(self, kernel):
        self.registers = int(kernel.get("regs_per_thread", 0))
        timing = kernel.get("timing") or {}
        _add(self.sums, "", {
            "warp_instructions": kernel.get("warp_instructions", 0),
            "cycles": kernel.get("cycles", 0),
            "energy": (timing.get("energy") or {}),
            "lp": ((timing.get("memory") or {}).get("local_path") or {}),
        })

    def get(self, key):
        return self.sums.get(key, 0)

    def below(self):
        return sum(self.get(f"lp.below.{k}") for k in BELOW)

    def traffic(self):
        w = self.get("warp_instructions")
        return self.below() / w if w else None


def load(report):
    """{variant: {workload: {budget: {kernel: KernelRun}}}} and the verification failures."""
    runs, failures = {}, []
    for point in report.points:
        stats = report.stats(point)
        if stats is None:
            continue
        a = point.axes
        if not stats.get("verified", False):
            failures.append(f"{a['workload']} {a['variant']} r={a['registers']}")
        kernels = {}
        for k in stats.get("kernels") or []:
            kernels.setdefault(k["name"], KernelRun(k["name"])).add(k)
        budget = a["registers"] if a["registers"] == "minimal" else int(a["registers"])
        runs.setdefault(a["variant"], {}).setdefault(a["workload"], {})[budget] = kernels
    return runs, failures


class Kernel:
    """A kernel of the study: its workload, rbase, smallest budget and 0.5 rbase."""

    def __init__(self, workload, name, rbase, floor):
        self.workload, self.name, self.rbase, self.floor = workload, name, rbase, floor
        self.half = max((rbase + 1) // 2, floor)

    def run(self, runs, variant, budget):
        return (runs.get(variant, {}).get(self.workload, {}).get(budget) or {}).get(self.name)


def kernels(runs, workloads):
    """The kernels of the study (rbase >= MIN_RBASE), from the baseline's runs."""
    out = []
    for w in workloads:
        budgets = runs.get("baseline", {}).get(w, {})
        numbers = [b for b in budgets if b != "minimal"]
        if "minimal" not in budgets or not numbers:
            continue
        floor = min(numbers)
        for name, k in budgets["minimal"].items():
            if k.registers >= MIN_RBASE:
                out.append(Kernel(w, name, k.registers, floor))
    return out


def rcache(runs, kernel, variant):
    """(rcache, is_floor) or (None, False)."""
    best = None
    for b in range(kernel.rbase, kernel.floor - 1, -1):
        k = kernel.run(runs, variant, b)
        t = None if k is None else k.traffic()
        if t is None or t >= THRESHOLD:
            break
        best = b
    return best, best is not None and best == kernel.floor


def classes(run):
    """Shares of the private transactions (loads and stores) by class, or None."""
    names = ("zero", "uniform", "affine", "generic")
    counts = {n: run.get(f"lp.transactions.loads.{n}") + run.get(f"lp.transactions.stores.{n}")
              for n in names}
    total = sum(counts.values()) + run.get("lp.transactions.sub_word_loads") + \
        run.get("lp.transactions.sub_word_stores")
    if total == 0:
        return None
    shares = {n: counts[n] / total for n in names}
    shares["transactions"] = total
    shares["unrepresentable"] = run.get("lp.transactions.affine_unrepresentable") / total
    shares["any_affine"] = shares["zero"] + shares["uniform"] + shares["affine"]
    shares["storable"] = shares["any_affine"] - shares["unrepresentable"]
    return shares


def by_application(kernel_list, value, combine=mean):
    """combine over applications of (combine over each application's kernels of value(k))."""
    apps = {}
    for k in kernel_list:
        apps.setdefault(k.workload, []).append(value(k))
    return combine([combine(v) for v in apps.values()])
