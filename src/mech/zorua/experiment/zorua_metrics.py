"""The Zorua study's metrics (digest A.10, "Metric definitions"), on plain tables: each takes
{specification: value} dictionaries of one application (and one design, one GPU generation
unless it says otherwise) and returns a number, or None when the table cannot give one. The
page averages them over the applications (zorua_data.Sweep.mean_over_apps).

Performance is 1 / cycles (zorua_data.Run.performance); a specification is any hashable key.
"""

from summary_stats import mean

# A.10, porting loss step 3: the specifications within this fraction of the source's best.
PORTING_WINDOW = 0.05


def performance_range(perf):
    """1 - perf(worst spec) / perf(best spec)."""
    values = [v for v in perf.values() if v is not None and v > 0]
    if not values:
        return None
    return 1.0 - min(values) / max(values)


def best_gain(base, design):
    """The design's best specification over the baseline's best, minus 1 (each over its own
    specifications)."""
    b = [v for v in base.values() if v]
    d = [v for v in design.values() if v]
    if not b or not d:
        return None
    return max(d) / max(b) - 1.0


def average_change(base, design):
    """The mean over the specifications both have of design / base - 1 (performance: the gain;
    energy: the change in energy; schedulable warps: the change in warps)."""
    ratios = [design[s] / base[s] for s in base if s in design and base[s] and design[s] is not None]
    return None if not ratios else mean(ratios) - 1.0


def normalised(perf):
    """Each specification's performance over the best's (A.10 porting loss, step 1)."""
    best = max((v for v in perf.values() if v), default=None)
    return {} if not best else {s: v / best for s, v in perf.items() if v is not None}


def porting_loss(by_generation, window=PORTING_WINDOW):
    """The maximum porting performance loss (A.10): by_generation = {generation: {spec: perf}}.
    For every ordered pair (source S, target T) of different generations and every specification
    p with perf_S(p) >= (1 - window) x S's best, loss = 1 - perf_T(p) / T's best; the maximum
    over p and pairs. Only specifications every generation has count (each generation's best is
    over those). Returns (loss, (S, T, p)) or (None, None)."""
    generations = list(by_generation)
    if len(generations) < 2:
        return None, None
    common = [s for s in by_generation[generations[0]]
              if all(by_generation[g].get(s) for g in generations)]
    if not common:
        return None, None
    norm = {g: normalised({s: by_generation[g][s] for s in common}) for g in generations}
    worst, where = None, None
    for source in generations:
        good = [s for s in common if norm[source][s] >= 1.0 - window - 1e-12]
        for target in generations:
            if target == source:
                continue
            for s in good:
                loss = 1.0 - norm[target][s]
                if worst is None or loss > worst:
                    worst, where = loss, (source, target, s)
    return worst, where


def hit_rate(accesses, off_chip):
    """The share of accesses to a virtual resource served on chip: 1 - off_chip / accesses."""
    if not accesses or off_chip is None:
        return None
    return 1.0 - off_chip / accesses
