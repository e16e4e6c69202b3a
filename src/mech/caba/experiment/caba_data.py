"""The CABA experiment's runs and the definitions of the numbers on its results page
(caba_page.py). A point of the sweep (spec.py) is one workload at one size in one variant: a
design (`base` or a compression overlay, caba_data.DESIGNS) at the configuration's DRAM bandwidth,
or at a multiple of it (variant DESIGN-bwP: the DRAM clock at P% of the configuration's). A
"case" is a workload at a size (normally each workload runs at one size); a run's totals over
every launch are used.

Definitions (the study's where it gives one; README.md records the choices):
  IPC                totals.timing.ipc: the program's warp instructions per core cycle; assist-warp
                     instructions are not the program's and are not counted, so a design's IPC
                     over Base's is Base's cycles over the design's.
  normalised         a design's value over Base's for the same case at the same bandwidth.
  DRAM utilisation   totals.timing.dram_bandwidth_utilisation: the DRAM data bus's busy cycles
                     over its cycles.
  burst ratio        the compression ratio in DRAM bursts: memory.compression dram_reads +
                     dram_writes, baseline_bursts (what the same transfers take uncompressed) over
                     bursts. The study's "bandwidth reduction".
  DRAM traffic       all DRAM bursts (memory.dram read_bursts + write_bursts: data, metadata
                     misses and write-backs, read-modify-writes) of Base over the design's.
  saving             1 - 1 / burst ratio: the share of DRAM data bursts compression saves. A case's
                     compressibility in memory bandwidth is the largest saving of its CABA runs
                     (BDI, FPC, C-Pack, BestOfAll); the study shows only the cases with at least
                     10% (caba_paper.SELECTION).
  data ratio         memory.compression line_bursts_uncompressed / line_bursts: how well the lines
                     the memory compressed (each line as first read from DRAM and at each
                     write-back) compress, whatever moved afterwards.
  L2 hit rate        totals.timing.l2_hit_rate (of Base's run: how much an uncompressed L2, variant
                     UNCOMPRESSED_L2, can spare decompressions).
  metadata hit rate  memory.compression.metadata_cache hits / (hits + misses).
  cache compression  the variants of CACHE_COMPRESSION (CABA-BDI with the L1 or the L2 holding
                     lines compressed, 2x or 4x the tags) and DIRECT_LOAD, each against CABA-BDI:
                     IPC over CABA-BDI's; form-hit share: memory.l1d form_hits / hits (the L1
                     hits on lines it holds compressed, each decompressed again, or read by a
                     Direct-Load routine); L2 misses: memory.l2.misses over CABA-BDI's;
                     decompressions per 1k instructions: sm.assist.decompressions (Direct-Load
                     routines, sm.assist.direct_loads, included) per 1,000 program warp
                     instructions.
  energy, EDP        totals.timing.energy.total_nj; EDP = energy x simulated time.
  DRAM power         energy.components.dram.nj / simulated time; system power: average_power_w.
  assist warps       sm.assist: decompressions; decompression_wait_cycles per decompression (from
                     a compressed reply's arrival to its release); routine share = sm.assist
                     .instructions / (the program's warp instructions + those).
  issue breakdown    timing.issue, one count per scheduler per cycle (stall.h): the shares of
                     ISSUE_GROUPS (the study's categories, mapped in ISSUE_GROUPS' comment).
  bandwidth-limited  Base at 2x the DRAM bandwidth (variant base-bw200) at least BANDWIDTH_LIMITED
                     faster in IPC than Base at 1x. The study enables compression only for
                     memory-bandwidth-limited applications, chosen by a static profile whose
                     criterion it does not state: the rule is ours.
  profiled           a design with compression enabled by that profile (profiled(design)): the
                     design's run on a bandwidth-limited case, Base's run on the others (with
                     compression off a program runs exactly as on Base).
  RF unallocated     per kernel, 1 - (regs_per_thread + assist registers) x 32 x warps_per_sm /
                     the SM's registers (occupancy.warps_per_sm: the resident warps the resources
                     allow); per case, kernels weighted by their cycles.
Means over cases: geometric for ratios (normalised IPC, energy, EDP, power, burst and data
ratios), arithmetic for shares and rates (utilisation, hit rates, stall shares).
"""

import os
import re
import tomllib

from run_stats import ratio, value_at  # scripts/report (the pages use data.ratio too)
from summary_stats import geomean, mean  # noqa: F401 (the pages use data.mean, data.geomean)
from sweep_report import ReportError  # scripts/report, on the path of a template

DESIGNS = ["base", "hw-bdi-mem", "hw-bdi", "ideal-bdi", "caba-bdi", "caba-fpc", "caba-cpack",
           "caba-best"]
LABELS = {"base": "Base", "hw-bdi-mem": "HW-BDI-Mem", "hw-bdi": "HW-BDI", "ideal-bdi": "Ideal-BDI",
          "caba-bdi": "CABA-BDI", "caba-fpc": "CABA-FPC", "caba-cpack": "CABA-C-Pack",
          "caba-best": "CABA-BestOfAll"}
UNCOMPRESSED_L2 = "caba-bdi-ul2"  # CABA-BDI with lines compressed in DRAM only (spec.py)
LABELS[UNCOMPRESSED_L2] = "CABA-BDI, uncompressed L2"
# The study's cache-compression designs (CABA-BDI with the L1 or the L2 compressed, 2x or 4x the
# tags) and Direct-Load (spec.py): variant -> (level, tag factor).
CACHE_COMPRESSION = {"caba-bdi-l1x2": ("L1", 2), "caba-bdi-l1x4": ("L1", 4),
                     "caba-bdi-l2x2": ("L2", 2), "caba-bdi-l2x4": ("L2", 4)}
for _variant, (_level, _factor) in CACHE_COMPRESSION.items():
    LABELS[_variant] = f"CABA-BDI, {_level} compressed, {_factor}x tags"
DIRECT_LOAD = "caba-bdi-dl"
LABELS[DIRECT_LOAD] = "CABA-BDI, Direct-Load"
ALGORITHMS = {"BDI": "caba-bdi", "FPC": "caba-fpc", "C-Pack": "caba-cpack", "BestOfAll": "caba-best"}
# Energy components of the compression designs' own structures, when the model has them.
ENERGY_EXTRAS = ("compression_logic", "metadata_cache", "assist_warps")
FULL = 100  # the configuration's DRAM bandwidth, in percent
BANDWIDTH_LIMITED = 0.05  # Base's IPC gain at 2x the DRAM bandwidth from which a case is limited
_PROFILED = "/profiled"  # no variant's name can hold it: a profiled design is never a variant

# The study's issue-cycle categories (B.1) from warpsim's (src/timing/sm/stall.h). warpsim tells
# why the warp that got furthest could not issue: `memory` waits for a load's result and
# `scoreboard` for another instruction's, the study's data-dependence stalls; `pipeline` (the
# unit of its class is busy) and `collector` (no free operand collector) are structural stalls,
# the study's compute and memory stalls together, since the counter does not say which unit was
# busy; `barrier`, `fetch` (no decoded instruction) and `empty` (no warp) are idle; `assist` (a
# parent warp held while its assist warp decompresses the line its load waits for) is a wait for
# a load's data.
ISSUE_GROUPS = [
    ("active", "Active", ("issued",)),
    ("structural", "Compute or memory stall", ("pipeline", "collector")),
    ("data_memory", "Data-dependence stall (load)", ("memory", "assist")),
    ("data_other", "Data-dependence stall (other)", ("scoreboard",)),
    ("idle", "Idle", ("barrier", "fetch", "empty")),
]
ISSUE_COUNTERS = ("issued", "scoreboard", "memory", "barrier", "pipeline", "collector", "fetch",
                  "empty", "assist")

_VARIANT = re.compile(r"(?P<design>.+?)(?:-bw(?P<percent>[1-9][0-9]*))?\Z")


def cache_variants(level):
    """The cache-compression variants of `level` ("L1" or "L2"), by tag factor."""
    return [v for v, (lv, _) in sorted(CACHE_COMPRESSION.items(), key=lambda kv: kv[1][1])
            if lv == level]


def split_variant(name):
    """'caba-bdi-bw50' -> ('caba-bdi', 50); 'base' -> ('base', 100)."""
    m = _VARIANT.match(name)
    return m.group("design"), int(m.group("percent") or FULL)


def variant_name(design, percent=FULL):
    return design if percent == FULL else f"{design}-bw{percent}"


def profiled(design):
    """The pseudo-design of `design` with compression enabled by the static profile (Study.run)."""
    return design + _PROFILED


def unprofiled(design):
    """(the design, True) for profiled(design); (design, False) for a design."""
    if design.endswith(_PROFILED):
        return design[:-len(_PROFILED)], True
    return design, False


def config_value(directory, name, key):
    """The value of a dotted `key` in the bundled configuration `name` (configs/NAME.toml in
    `directory`), following `base = "..."` to the configuration it extends; None when unset."""
    seen = set()
    while name and name not in seen:
        seen.add(name)
        path = os.path.join(directory, f"{name}.toml")
        if not os.path.isfile(path):
            return None
        with open(path, "rb") as f:
            node = tomllib.load(f)
        base = node.get("base")
        for part in key.split("."):
            node = node.get(part) if isinstance(node, dict) else None
        if node is not None:
            return node
        name = base
    return None


class Run:
    """One point's totals."""

    def __init__(self, stats):
        totals = stats.get("totals") or {}
        self.timing = totals.get("timing") or {}
        self.verified = bool(stats.get("verified", False))
        self.version = str(stats.get("warpsim_version", ""))
        self.warp_instructions = totals.get("warp_instructions") or 0
        self.kernels = []
        for k in stats.get("kernels") or []:
            t = k.get("timing") or {}
            self.kernels.append((k.get("regs_per_thread") or 0,
                                 value_at(t, "resources.assist_registers_per_thread") or 0,
                                 value_at(t, "occupancy.warps_per_sm"), k.get("cycles") or 0))

    def get(self, path):
        """A number of totals.timing by dotted path; None when absent."""
        value = value_at(self.timing, path)
        return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None

    def count(self, path):
        return self.get(path) or 0

    @property
    def cycles(self):
        return self.get("cycles")

    @property
    def ipc(self):
        return self.get("ipc")

    def compressed(self):
        """True when the run had a compressed memory (its memory.compression counters)."""
        return isinstance(value_at(self.timing, "memory.compression"), dict)

    def burst_ratio(self):
        if not self.compressed():
            return None
        def both(name):  # reads + writes
            return (self.count(f"memory.compression.dram_reads.{name}")
                    + self.count(f"memory.compression.dram_writes.{name}"))
        return ratio(both("baseline_bursts"), both("bursts"))

    def saving(self):
        r = self.burst_ratio()
        return None if r is None else 1 - 1 / r

    def data_ratio(self):
        if not self.compressed():
            return None
        return ratio(self.get("memory.compression.line_bursts_uncompressed"),
                     self.get("memory.compression.line_bursts"))

    def dram_bursts(self):
        return self.count("memory.dram.read_bursts") + self.count("memory.dram.write_bursts")

    def metadata_hit_rate(self):
        if not self.compressed():
            return None
        hits = self.count("memory.compression.metadata_cache.hits")
        return ratio(hits, hits + self.count("memory.compression.metadata_cache.misses"))

    def energy(self):
        return self.get("energy.total_nj")

    def edp(self):
        e, t = self.energy(), self.get("simulated_ns")
        return None if e is None or t is None else e * t

    def dram_power(self):
        return ratio(self.get("energy.components.dram.nj"), self.get("simulated_ns"))

    def power(self):
        return self.get("energy.average_power_w")

    def extras_share(self):
        """The share of the energy in ENERGY_EXTRAS; None when the run has none of them."""
        parts = [self.get(f"energy.components.{c}.nj") for c in ENERGY_EXTRAS]
        parts = [p for p in parts if p is not None]
        return ratio(sum(parts), self.energy()) if parts else None

    def assist_share(self):
        a = self.get("sm.assist.instructions")
        return None if a is None else ratio(a, self.warp_instructions + a)

    def decompressions_per_k(self):
        """Assist-warp decompressions (Direct-Load routines included) per 1,000 program warp
        instructions."""
        return ratio(1000 * self.count("sm.assist.decompressions"), self.warp_instructions)

    def form_hit_share(self):
        """The share of the L1's hits on lines it holds compressed."""
        return ratio(self.get("memory.l1d.form_hits"), self.get("memory.l1d.hits"))

    def wait_per_decompression(self):
        return ratio(self.get("sm.assist.decompression_wait_cycles"),
                     self.get("sm.assist.decompressions"))

    def issue_shares(self):
        """{group key: share of the scheduler cycles} (ISSUE_GROUPS), or None."""
        issue = self.timing.get("issue") or {}
        total = sum(issue.get(c, 0) for c in ISSUE_COUNTERS)
        if not total:
            return None
        return {key: sum(issue.get(c, 0) for c in counters) / total
                for key, _, counters in ISSUE_GROUPS}

    def rf_unallocated(self, sm_registers):
        parts = [(1 - (r + a) * 32 * w / sm_registers, c) for r, a, w, c in self.kernels
                 if w is not None and c]
        weight = sum(c for _, c in parts)
        return sum(u * c for u, c in parts) / weight if weight and sm_registers else None


class Case:
    """A workload at a size: a row of the page."""

    def __init__(self, workload, size):
        self.workload, self.size = str(workload), size
        self.label = self.workload

    def key(self):
        return (self.workload, str(self.size))


def load(report):
    """(cases in grid order, {(case key, variant): Run} of the points that passed, [points that
    did not verify]: their results are wrong, so their statistics are not used either). The sweep
    must have one value of every axis but workload, size and variant."""
    for axis in report.axes:
        if axis.name not in ("workload", "size", "variant") and len(axis.values) != 1:
            raise ReportError(f"the CABA page needs one value of axis {axis.name}; the sweep has "
                              f"{len(axis.values)}")
    for name in ("workload", "variant"):
        if report.axis(name) is None:
            raise ReportError(f"the CABA page needs a {name} axis; the sweep has none")
    cases, runs, failures = {}, {}, []
    for point in report.points:
        a = point.axes
        case = Case(a["workload"], a.get("size", ""))
        cases.setdefault(case.key(), case)
        stats = report.stats(point) if point.status == "pass" else None
        if point.status == "verify-failed":
            failures.append(f"{case.workload} size={case.size} {a['variant']}")
        if stats is not None:
            runs[(case.key(), a["variant"])] = Run(stats)
    out = list(cases.values())
    sizes = {}
    for c in out:
        sizes.setdefault(c.workload, []).append(c)
    for c in out:  # a workload at several sizes: one row per size
        if len(sizes[c.workload]) > 1:
            c.label = f"{c.workload} ({c.size})"
    return out, runs, failures
