"""The XMem experiment's runs (spec.py writes the sweep, xmem_page.py reads it) and the
definitions of the results page's metrics.

A point is one workload at one L2 size in one variant: `tile<K>k` / `tile<K>k-xmem` /
`tile<K>k-pin` (use case 1: tiles of K KB, LRU, the L2 following the atoms, or the same without
its prefetcher) or `<design>-<mapping>` (use case 2: `random`
frames, `xmem` frames, `ideal` row buffer, under an address mapping). Its totals over every
launch are used: every tile size of a workload does the same work, so cycles compare directly.

Definitions (the paper's where it gives one; README.md "Decisions" has the rest):
  best tile (X1, X2)     the tile of the fewest baseline cycles on the same L2 size.
  small tiles (X1)       tiles smaller than the best on the configured L2: cycles / best - 1, the
                         mean and the largest over workloads and such tiles.
  oversized tiles (X2)   tiles larger than the L2 (tile bytes > l2.size), at each L2 size:
                         cycles / best tile's cycles at that size - 1; X3 the same with XMem.
  portability (X4)       the tile best on the configured L2, run on every L2 size: the largest
                         cycles over the sizes / its cycles on the configured L2 - 1, per workload,
                         the mean over workloads (Baseline, and with XMem).
  strengthened baseline  random frames under the mapping of the fewest cycles, per workload (X5).
  placement speedup (X5) baseline cycles / XMem frames' cycles under the same mapping - 1.
  ideal (X6)             baseline cycles / the ideal row buffer's under the same mapping - 1.
  read latency (X8)      timing.dram_read_latency_l2_cycles (the mean L2 cycles from a DRAM
                         read's request to its data at the L2), XMem / baseline - 1.
  ALB coverage (X9)      alb_hits / (alb_hits + alb_misses) of the L2's atom management units,
                         over every XMem tiling run.
  operation overhead (X10)  atom operations (host and device) / thread instructions, per run.
Means over workloads weight every workload equally.
"""

import math
import re

from run_stats import ratio, value_at  # noqa: F401 (scripts/report; the page uses data.ratio)
from summary_stats import mean  # noqa: F401 (the page uses data.mean)

L2_AXIS = "set:l2.size"
_TILE = re.compile(r"^tile(\d+)k(?:-(xmem|pin))?$")
_PLACEMENT = re.compile(r"^(random|xmem|ideal)-(.+)$")


def parse_variant(name):
    """("tile", kb, mode) or ("placement", design, mapping), or None. A tile's mode is "" (LRU),
    "xmem" (the L2 following the atoms) or "pin" (the same without the prefetcher)."""
    m = _TILE.match(name)
    if m:
        return "tile", int(m.group(1)), m.group(2) or ""
    m = _PLACEMENT.match(name)
    if m:
        return "placement", m.group(1), m.group(2)
    return None


class Run:
    """What the page takes from one point's statistics."""

    def __init__(self, stats):
        totals = stats.get("totals") or {}
        timing = totals.get("timing") or {}
        memory = timing.get("memory") or {}
        self.verified = bool(stats.get("verified", False))
        self.cycles = totals.get("cycles") or timing.get("cycles")
        self.thread_instructions = totals.get("thread_instructions", 0)
        self.row_hit_rate = timing.get("dram_row_buffer_hit_rate")
        self.read_latency = timing.get("dram_read_latency_l2_cycles")
        self.l2_hit_rate = timing.get("l2_hit_rate")
        amu = value_at(memory, "l2_policy.amu") or {}
        self.alb_hits = amu.get("alb_hits", 0)
        self.alb_misses = amu.get("alb_misses", 0)
        self.sms = len(timing.get("issue_per_sm") or [])
        self.issue_empty = (timing.get("issue") or {}).get("empty", 0)  # scheduler slots without a warp
        kernels = stats.get("kernels") or []
        self.launches = len(kernels)
        self.ctas = sum(math.prod(k.get("grid") or [1]) for k in kernels)
        dram, l2 = memory.get("dram") or {}, memory.get("l2") or {}
        self.dram_read_bursts = dram.get("read_bursts", 0)
        self.l2_prefetches = l2.get("prefetches", 0)
        self.l2_prefetch_unused = l2.get("prefetch_unused", 0)
        atoms = value_at(memory, "l2_policy.atoms") or []
        self.pinned_lines = sum(a.get("pinned_lines", 0) for a in atoms)
        self.bypassed = sum(a.get("bypassed", 0) for a in atoms)
        self.atom_ops = sum((k.get("xmem") or {}).get("host_ops", 0) + (k.get("xmem") or {}).get("device_ops", 0)
                            for k in stats.get("kernels") or [])

    def ctas_per_launch(self):
        return ratio(self.ctas, self.launches)

    def op_overhead(self):
        return ratio(self.atom_ops, self.thread_instructions)


def load(report):
    """({(workload, l2 bytes, variant): Run}, [points that did not verify])."""
    runs, failures = {}, []
    for point in report.points:
        stats = report.stats(point)
        if stats is None:
            continue
        a = point.axes
        run = Run(stats)
        if not run.verified:
            failures.append(f"{a['workload']} {a['variant']} l2.size={a.get(L2_AXIS)}")
        runs[(a["workload"], int(a.get(L2_AXIS) or 0), a["variant"])] = run
    return runs, failures
