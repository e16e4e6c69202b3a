"""The register-allocation experiment's metrics: per workload from its runs (regalloc_stats.Run)
and ptxas reports, and suite means. A metric is a number, or None when what it needs is missing
or a denominator is 0.

  min.ours          most registers per thread over the kernels, --max-registers minimal run
  min.ptxas         most "Used N registers" of ptxas -v (no -maxrregcount) over the same kernels
  B.budget          the budget the B75 / B50 run used; B.asked: ceil(75% / 50% of min.ours)
  B.store_bytes     static spill-store bytes per thread, summed over the distinct kernels
                    (ptxas: "bytes spill stores" at -maxrregcount = B.budget); loads alike
  B.loads_per_k     dynamic spill loads per 1000 warp instructions of the same run; stores alike
  B.remat           re-computations inserted instead of spill loads (static, distinct kernels)
  B.cycles          cycles / cycles of the --max-registers off run (sums over the launches)
  B.l1_hits         L1 data-cache hit rate (timing.memory.l1d hits / accesses); off.l1_hits alike
  B.uniform         uniform words / all words of value_similarity.spill_stores
  B.affine          (uniform + affine) words / all words: uniform is affine with stride 0
"""

import math

import regalloc_stats as rs

# The Affine Vector Cache paper's affine share of private-memory transactions (uniform included),
# at 0.75 and 0.5 x rbase, rbase being nvcc's smallest register count without spills.
PAPER_AFFINE = {"b75": 0.66, "b50": 0.67}
PAPER_NON_POWER_OF_TWO = 0.03  # affine vectors whose stride is not a power of two: fewer than
PAPER_SOURCE = ("S. Collange, A. Kouyoumdjian, \"Affine Vector Cache for memory bandwidth "
                "savings\", HAL ensl-00649200 (2011), §3.2")
GEOMETRIC = ("cycles",)


def paper(share):
    """A figure of the paper as it states it: 0.67 -> 67%."""
    return f"{100 * share:.0f}%"  # keys ending so are averaged geometrically


def ratio(numerator, denominator):
    if numerator is None or denominator is None or denominator == 0:
        return None
    return numerator / denominator


def per_thousand(count, instructions):
    value = ratio(count, instructions)
    return None if value is None else 1000 * value


def l1_hit_rate(run):
    """L1 data-cache hits / accesses over the launches (timing.memory.l1d)."""
    return ratio(run.timing_total("memory", "l1d", "hits"),
                 run.timing_total("memory", "l1d", "accesses"))


def workload_metrics(runs, ptxas):
    """runs: {run: Run or None} for rs.RUNS; ptxas: {run: PtxasReport or None} for rs.PTXAS_RUNS."""
    off, minimal = runs.get("off"), runs.get("minimal")
    names = (minimal or off).kernel_names() if (minimal or off) else None
    m = {"kernels": len(names) if names is not None else None}
    m["min.ours"] = minimal.registers() if minimal else None
    m["min.virtual"] = minimal.allocation_max("virtual_registers") if minimal else None
    m["min.ptxas"] = ptxas["minimal"].registers(names) if ptxas.get("minimal") else None
    m["min.diff"] = (None if m["min.ours"] is None or m["min.ptxas"] is None
                     else m["min.ours"] - m["min.ptxas"])
    m["off.registers"] = off.launch_max("regs_per_thread") if off else None
    m["off.source"] = off.sources() if off else None
    off_cycles = off.total("cycles") if off else None
    m["off.l1_hits"] = l1_hit_rate(off) if off else None
    m["min.cycles"] = ratio(minimal.total("cycles"), off_cycles) if minimal else None
    m["min.instructions"] = (ratio(minimal.total("warp_instructions"),
                                   off.total("warp_instructions")) if minimal and off else None)
    for run, percent in rs.BUDGET_PERCENT.items():
        r, report = runs.get(run), ptxas.get(run)
        m[f"{run}.asked"] = rs.budget_for(m["min.ours"], percent)
        budget = r.budget() if r else None
        m[f"{run}.budget"] = budget if isinstance(budget, int) else (
            m[f"{run}.asked"] if r else None)
        m[f"{run}.ptxas_floor"] = report.floor if report else None
        for key in ("store", "load"):
            m[f"{run}.{key}_bytes"] = r.static(f"static_spill_{key}_bytes") if r else None
            m[f"{run}.ptxas_{key}_bytes"] = (report.bytes(f"spill_{key}_bytes", names)
                                            if report else None)
            m[f"{run}.{key}s_per_k"] = (per_thousand(r.dynamic(f"dynamic_spill_{key}s"),
                                                     r.total("warp_instructions")) if r else None)
        m[f"{run}.remat"] = r.static("rematerialised") if r else None
        m[f"{run}.cycles"] = ratio(r.total("cycles"), off_cycles) if r else None
        m[f"{run}.l1_hits"] = l1_hit_rate(r) if r else None
        words = r.spill_store_words() if r else None
        total = sum(words.values()) if words else None
        m[f"{run}.spill_words"] = total if words is not None else None
        m[f"{run}.uniform"] = ratio(words.get("uniform", 0), total) if words else None
        m[f"{run}.affine"] = (ratio(words.get("uniform", 0) + words.get("affine", 0), total)
                              if words else None)
    return m


def mean(values, geometric=False):
    """(mean, count) over the values that are not None (geometric: over the positive ones);
    (None, 0) when there are none."""
    values = [v for v in values if v is not None and (v > 0 or not geometric)]
    if not values:
        return None, 0
    if geometric:
        return math.exp(sum(math.log(v) for v in values) / len(values)), len(values)
    return sum(values) / len(values), len(values)


def suite_means(per_workload):
    """{metric: (mean over workloads, workloads counted)} of the numeric metrics."""
    keys = []
    for metrics in per_workload.values():
        keys.extend(k for k, v in metrics.items() if k not in keys and not isinstance(v, str))
    return {key: mean((m.get(key) for m in per_workload.values()), key.endswith(GEOMETRIC))
            for key in keys}


def pooled_share(runs_by_workload, run, classes):
    """Share of `classes` in the spill-store words of `run`, all workloads' words pooled."""
    chosen = total = 0
    for r in runs_by_workload.get(run, {}).values():
        words = r.spill_store_words() if r else None
        if words:
            chosen += sum(words.get(c, 0) for c in classes)
            total += sum(words.values())
    return ratio(chosen, total)
