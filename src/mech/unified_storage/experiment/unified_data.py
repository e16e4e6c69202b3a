"""The unified-storage experiment's definitions (spec.py writes the sweep with them, unified_page.py
reads it): the applications, the designs, how a variant names a run, and what the page takes from
each run's statistics.

A variant is one of:
  DESIGN[-tN]              a design of s7.5 (an overlay on fermi-unified), threads per block N
  DESIGN_MOD[-tN]          the same with a modification for the bank study (MODS)
  sens-rB-nT-lK[-tN]       the sensitivity study's unified pool (s7.2): register budget B
                           ("minimal" or a number), at most T threads per SM, an L1 of exactly
                           K KB, unbounded shared memory
Every workload runs in one size and configuration, so (workload, variant) names a point. The
performance of a run is 1 / its total cycles (all its launches): the variants of a workload do
the same work, so cycles compare directly, and performance per watt is 1 / energy.
"""

import re

from run_stats import ratio, value_at  # scripts/report
from sweep_report import ReportError

CONFIG = "fermi-unified"
APPS = ["nw", "mummer", "bfs", "dgemm-tiled", "pcr", "hotspot"]
# Threads per block of the workloads that take several (nw: the blocking factor, its tile edge;
# dgemm-tiled: the 256-thread kernel with 64 registers and two shared tiles, the study's DGEMM).
THREADS_PER_BLOCK = {"nw": [16, 32, 64], "dgemm-tiled": [256]}

BASELINE = "partition-256-64-64"
UNIFIED = "unified-384"
DESIGNS = ["partition-128-32-32", "partition-128-64-64", BASELINE, "partition-256-256-256",
           "partition-512-512-512", "limited-16-48", "limited-48-16", "unified-128", "unified-256",
           UNIFIED, "unified-512"]
LIMITED = ["limited-16-48", "limited-48-16"]
LIMITED_RF_KB = 256  # s7.5: Fermi's split keeps the baseline's 256 KB register file
# Modifications of a design for the bank study (s7.3, s7.6): {mod: (the design it applies to,
# None for those in ORF_LRF_DESIGNS; what it changes, in words)}.
MODS = {
    "noarb": (UNIFIED, "the register and memory accesses do not meet in the banks "
                       "(sm.storage_banks.shared_with_registers=false)"),
    "orflrf": (None, "the software register-file hierarchy in front (overlay orf-lrf)"),
    "aggr": (UNIFIED, "the aggressive variant: several banks of a cluster supply a pass "
                      "(overlay unified-aggressive)"),
}
ORF_LRF_DESIGNS = [BASELINE, UNIFIED]
AGGRESSIVE_OVERLAY = "unified-aggressive"
ARBITRATION_KEY = "sm.storage_banks.shared_with_registers"
BUDGET_KEY = "compiler.registers"

# The sensitivity study (s7.2) on one unified pool (overlay UNIFIED with these knobs): shared
# memory unbounded (a pool far beyond any kernel's need), the L1 fixed at exactly K KB
# (min_l1_bytes = max_l1_bytes), threads per SM capped by max_threads. Fig 7.1: register budget
# x threads per SM at a 64 KB cache, normalised to the spill-free count ("minimal") at 1,024
# threads; Fig 7.2: Needle's blockings at a 64 KB cache, normalised to the largest; Fig 7.3: the
# cache size at 1,024 threads (GPU-Mummer also at 768), normalised to 512 KB at 1,024 threads.
SENS_POOL_BYTES = 4 * 1024 * 1024
SENS_THREADS = [256, 512, 768, 1024]
FULL_THREADS = 1024
SENS_CACHE_KB = 64
SENS_L1_KB = [16, 32, 64, 128, 256, 512]
REFERENCE_L1_KB = 512
CACHE_THREADS = {"mummer": [1024, 768]}
# Register budgets below each application's spill-free count (its largest kernel at "minimal" on
# fermi-unified: bfs 21, mummer 28, dgemm-tiled 64, pcr 28, hotspot 30): the study's 24/32/40
# where they are below it, 16 for bfs (below 24 already).
SENS_BUDGETS = {"mummer": ["24"], "bfs": ["16"], "dgemm-tiled": ["40", "32", "24"], "pcr": ["24"],
                "hotspot": ["24"]}
SENS_APPS = list(SENS_BUDGETS)  # Figs 7.1 and 7.3; Needle has Fig 7.2
NEEDLE = "nw"

# The bank study's statistics (totals of the run; the register file's object is the model's in
# front, orf-lrf's with the hierarchy): operand reads that waited for a bank, shared accesses
# with at least one conflict replay, memory passes that waited for a register access and the
# cycles they waited, and the warp instructions issued.
CONFLICTED_COLLECTORS = "totals.timing.sm.register_file.conflicted_collectors"
CONFLICTED_ACCESSES = "totals.timing.memory.shared.conflicted_accesses"
ARBITRATION_ACCESSES = "totals.timing.memory.storage_banks.arbitration_accesses"
ARBITRATION_STALLS = "totals.timing.memory.storage_banks.arbitration_stalls"
WARP_INSTRUCTIONS = "totals.timing.warp_instructions"

_VARIANT = re.compile(r"^(?:sens-r(?P<budget>minimal|\d+)-n(?P<threads>\d+)-l(?P<l1>\d+)"
                      r"|(?P<design>[a-z]+(?:-\d+)+)(?:_(?P<mod>[a-z]+))?)(?:-t(?P<tpb>\d+))?$")
# The message of a kernel that no division of the design can hold (the core's check before a
# launch): "kernel 'K' cannot run on CONFIG: a CTA needs ...".
_DOES_NOT_FIT = re.compile(r"error: kernel '[^']+' cannot run on ")


class Variant:
    """A variant's parts: design and mod (a design run), or budget, threads and l1_kb (the
    sensitivity study); tpb (threads per block) or None."""

    def __init__(self, design=None, mod=None, budget=None, threads=None, l1_kb=None, tpb=None):
        self.design, self.mod = design, mod
        self.budget, self.threads, self.l1_kb = budget, threads, l1_kb
        self.tpb = tpb

    @property
    def sensitivity(self):
        return self.design is None

    @property
    def name(self):
        if self.sensitivity:
            base = f"sens-r{self.budget}-n{self.threads}-l{self.l1_kb}"
        else:
            base = self.design + (f"_{self.mod}" if self.mod else "")
        return base + ("" if self.tpb is None else f"-t{self.tpb}")

    def key(self):
        return (self.design, self.mod, self.budget, self.threads, self.l1_kb, self.tpb)

    def __eq__(self, other):
        return isinstance(other, Variant) and self.key() == other.key()

    def __hash__(self):
        return hash(self.key())


def parse_variant(name):
    """The Variant a name stands for, or None for a name of another form."""
    m = _VARIANT.match(name)
    if not m:
        return None
    tpb = None if m.group("tpb") is None else int(m.group("tpb"))
    if m.group("design"):
        return Variant(design=m.group("design"), mod=m.group("mod"), tpb=tpb)
    return Variant(budget=m.group("budget"), threads=int(m.group("threads")), l1_kb=int(m.group("l1")), tpb=tpb)


def does_not_fit(result):
    """True when a point's result.json says a kernel fit in no division of its design (the
    design has less shared memory, or pool, than one CTA needs)."""
    return bool(result) and any(_DOES_NOT_FIT.search(line) for line in result.get("stderr_tail", []))


def capacities(design):
    """(register file, L1, shared) KB of a fixed design, or (pool KB,) of a unified one."""
    parts = design.split("-")
    numbers = tuple(int(p) for p in parts[1:])
    if parts[0] == "limited":
        return (LIMITED_RF_KB,) + numbers
    return numbers


def design_words(design):
    c = capacities(design)
    if design.startswith("unified"):
        return f"{c[0]} KB pool divided per kernel"
    return f"{c[0]} KB RF / {c[1]} KB L1 / {c[2]} KB shared"


def budget_order(budget):
    """"minimal" first, then numbers from the largest down (fewer registers, more spills)."""
    return (0, 0) if budget == "minimal" else (1, -int(budget))


class Run:
    """What the page takes from one run's statistics; `where` names the point in messages."""

    def __init__(self, stats, where):
        self.stats, self.where = stats, where
        totals = stats.get("totals", {})
        timing = totals.get("timing", {})
        energy = timing.get("energy", {})
        components = energy.get("components", {})
        self.cycles = totals.get("cycles")
        memory = timing.get("memory", {})
        dram = memory.get("dram", {})
        self.dram_accesses = None if "read_bursts" not in dram else dram["read_bursts"] + dram.get("write_bursts", 0)
        # The requests the L1 sends on (line and sector misses; writes, as it writes through):
        # the study had no L2 (digest s1.1, s2.2), so its DRAM accesses were these.
        l1 = memory.get("l1d", {})
        self.l1_misses = None if "misses" not in l1 else l1["misses"] + l1.get("sector_misses", 0)
        self.l1_accesses = l1.get("accesses")  # 0: the division left no L1 (every access to the L2)
        self.l1_hit_rate = timing.get("l1d_hit_rate")
        self.l2_hit_rate = timing.get("l2_hit_rate")
        shared = memory.get("shared", {})
        self.shared_replays = ratio(shared.get("bank_conflict_replays"), shared.get("accesses"))
        self.dram_utilisation = timing.get("dram_bandwidth_utilisation")
        self.energy = energy.get("total_nj")
        self.dynamic = energy.get("dynamic_nj")
        self.sram_leakage = components.get("sram_leakage", {}).get("nj", 0.0)
        self.core_leakage = components.get("static", {}).get("nj", 0.0)
        self.dram_energy = components.get("dram", {}).get("nj", 0.0)
        self.warp_instructions = timing.get("warp_instructions")
        self.kernels = stats.get("kernels", [])
        self.version = stats.get("warpsim_version")

    def required(self, path):
        """The statistic at `path` (dots, from the document's root); a ReportError naming it
        when the run lacks it (a simulator without the statistic must not give a page)."""
        value = value_at(self.stats, path)
        if value is None:
            raise ReportError(f"statistic {path} is missing in the run {self.where} (the bank study needs "
                              "it: a simulator without bank arbitration cannot give this page)")
        return value

    def value(self, path, default):
        """The statistic at `path`, or `default` when the run lacks it."""
        value = value_at(self.stats, path)
        return default if value is None else value

    def main_launch(self):
        """The kernel entry with the most cycles (ties: the first): the study reports one division
        per application, the one of the kernel that dominates its time."""
        return max(self.kernels, key=lambda k: k.get("cycles") or 0) if self.kernels else None

    def division(self):
        """The main launch's division: {regs, spills, threads, ctas, carveout, limited_by}."""
        k = self.main_launch()
        if k is None:
            return None
        occupancy = k.get("timing", {}).get("occupancy", {})
        block = 1
        for b in k.get("block") or [1]:
            block *= b
        ctas = occupancy.get("ctas_per_sm")
        return {"regs": k.get("regs_per_thread"), "spills": k.get("register_allocation", {}).get("spill_slots"),
                "threads": None if ctas is None else ctas * block, "ctas": ctas,
                "carveout": occupancy.get("carveout"), "limited_by": occupancy.get("limited_by")}


class Sweep:
    """The sweep's points by (workload, Variant): the passed runs, the points whose kernel fit in
    no division of their design, and the points that failed otherwise."""

    def __init__(self, report):
        self.runs = {}
        self.no_fit = set()
        self.failed = []  # points that did not pass, kernels that do not fit left out
        self.apps, self.variants = [], {}
        self.sizes = {}
        for p in report.points:
            v = parse_variant(str(p.axes.get("variant", "")))
            app = p.axes.get("workload")
            if v is None:
                continue
            if app not in self.apps:
                self.apps.append(app)
            self.variants.setdefault(app, []).append(v)
            self.sizes.setdefault(app, str(p.axes.get("size")))
            if p.status == "pass":
                stats = report.stats(p)
                if stats:
                    self.runs[(app, v)] = Run(stats, f"{app} {v.name} (point {p.id})")
            elif p.status == "fail" and does_not_fit(report.result(p)):
                self.no_fit.add((app, v))
            else:
                self.failed.append(p)
        self.apps.sort(key=lambda a: APPS.index(a) if a in APPS else len(APPS))

    def run(self, app, variant):
        return self.runs.get((app, variant))

    def has(self, app, variant):
        return variant in self.variants.get(app, [])

    def designs(self):
        """The designs of the sweep, in DESIGNS's order."""
        found = {v.design for vs in self.variants.values() for v in vs if v.design and not v.mod}
        return [d for d in DESIGNS if d in found]

    def mods(self):
        return [m for m in MODS if any(v.mod == m for vs in self.variants.values() for v in vs)]

    def blockings(self, app):
        """The threads per block the app's design runs use ([None] for none)."""
        return sorted({v.tpb for v in self.variants.get(app, []) if v.design and not v.mod},
                      key=lambda t: -1 if t is None else t) or [None]

    def does_not_fit(self, app, design):
        """True when every blocking of the app that was run on the plain design did not fit it."""
        tried = [Variant(design=design, tpb=t) for t in self.blockings(app)]
        tried = [v for v in tried if self.has(app, v)]
        return bool(tried) and all((app, v) in self.no_fit for v in tried)

    def chosen(self, app, design):
        """The app's Variant on a design: of its blockings that ran there, the fastest (the
        study's Needle takes the best blocking that fits each design); None when none ran."""
        runs = [(self.run(app, Variant(design=design, tpb=t)), Variant(design=design, tpb=t))
                for t in self.blockings(app)]
        runs = [(r.cycles, v) for r, v in runs if r is not None and r.cycles]
        if not runs:
            return None
        return min(runs, key=lambda x: (x[0], -(x[1].tpb or 0)))[1]

    def design_run(self, app, design, mod=None):
        """The app's run on a design (with a modification) at the blocking chosen on the plain
        design, or None."""
        v = self.chosen(app, design)
        return None if v is None else self.run(app, Variant(design=design, mod=mod, tpb=v.tpb))

    def sensitivity_run(self, app, budget, threads, l1_kb, tpb=None):
        """A run of the sensitivity study; tpb defaults to the app's only blocking, if it has one."""
        if tpb is None and len(THREADS_PER_BLOCK.get(app, [])) == 1:
            tpb = THREADS_PER_BLOCK[app][0]
        return self.run(app, Variant(budget=budget, threads=threads, l1_kb=l1_kb, tpb=tpb))

    @property
    def size(self):
        """The sizes as words: "nw 1024, mummer 4096, ..."."""
        return ", ".join(f"{a} {self.sizes[a]}" for a in self.apps) or None

    def version(self):
        return next((r.version for r in self.runs.values() if r.version), None)
