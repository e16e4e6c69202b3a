"""The numbers and number-bearing sentences of the page's discussion: the $names that
discussion.md uses, every one computed from the runs (or, for $paper_*, the paper's figures in
regalloc_metrics.py). A sentence whose direction depends on the numbers is built here whole."""

import regalloc_metrics as rm
import regalloc_stats as rs

NA = "n/a"


def fmt(x, digits=1, suffix=""):
    return NA if x is None else f"{x:,.{digits}f}{suffix}"


def pct(x):
    return NA if x is None else f"{100 * x:.1f}%"


def count_phrase(n, singular, plural=None):
    return f"{n} {singular if n == 1 else plural or singular + 's'}"


def listing(items):
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def minimal_comparison(page):
    diffs = [page.get(w, "min.diff") for w in page.workloads]
    diffs = [d for d in diffs if d is not None]
    if not diffs:
        return "ptxas reported on none of the workloads, so there is nothing to compare"
    lower, equal, higher = (sum(d < 0 for d in diffs), sum(d == 0 for d in diffs),
                            sum(d > 0 for d in diffs))
    return (f"ours is lower on {lower}, equal on {equal} and higher on {higher} of the "
            f"{len(diffs)} workloads ptxas reported on, and ours minus ptxas's is "
            f"{fmt(page.mean('min.diff'))} registers on average")


def ptxas_floor_sentence(page):
    floors = [(w, r, page.get(w, f"{r}.ptxas_floor"), page.get(w, f"{r}.budget"))
              for w in page.workloads for r in rs.BUDGET_PERCENT]
    compiled = [f for f in floors if page.ptxas[f[1]][f[0]] is not None]
    raised = [f for f in compiled if f[2] is not None and f[3] is not None and f[2] > f[3]]
    if not compiled:
        return "ptxas did not compile at the budgets (no reports), so its spill columns read n/a."
    if not raised:
        return (f"ptxas took every limit as given in the {len(compiled)} budget compilations; "
                "none was below its lower bound.")
    return (f"ptxas has a lower bound on the limit: it raised `-maxrregcount` to "
            f"{listing(sorted({str(f[2]) for f in raised}))} in {len(raised)} of the "
            f"{len(compiled)} budget compilations, and spills there only what it would at that "
            "bound.")


def spill_sentence(page, run):
    label = run.upper()
    ours = sum(1 for w in page.workloads if (page.get(w, f"{run}.store_bytes") or 0) > 0)
    theirs = [page.get(w, f"{run}.ptxas_store_bytes") for w in page.workloads]
    with_ptxas = [t for t in theirs if t is not None]
    ptxas_part = (f", ptxas in {sum(t > 0 for t in with_ptxas)} of the {len(with_ptxas)} it "
                  "compiled" if with_ptxas else ", ptxas n/a")
    return (f"At {label} (mean budget {fmt(page.mean(f'{run}.budget'))} registers) our allocator "
            f"spills in {ours} of {len(page.workloads)} workloads{ptxas_part}. Spill stores take "
            f"{fmt(page.mean(f'{run}.store_bytes'))} bytes per thread per workload on average "
            f"against {fmt(page.mean(f'{run}.ptxas_store_bytes'))} for ptxas, spill loads "
            f"{fmt(page.mean(f'{run}.load_bytes'))} against "
            f"{fmt(page.mean(f'{run}.ptxas_load_bytes'))}.")


def clamp_sentence(page):
    clamped = [f"{w} at {r.upper()} ({page.get(w, f'{r}.asked')} → {page.get(w, f'{r}.budget')})"
               for r in rs.BUDGET_PERCENT for w in page.workloads
               if None not in (page.get(w, f"{r}.asked"), page.get(w, f"{r}.budget"))
               and page.get(w, f"{r}.budget") != page.get(w, f"{r}.asked")]
    if not clamped:
        return "No budget was below a kernel's feasible minimum."
    return ("Budgets below a kernel's feasible minimum (the most registers one of its "
            "instructions needs at once) were raised to it: " + listing(clamped) + ".")


def dynamic_sentence(page):
    heaviest = max(page.workloads, key=lambda w: page.get(w, "b50.loads_per_k") or -1)
    heavy = page.get(heaviest, "b50.loads_per_k")
    tail = (f"; the most is {heaviest}'s {fmt(heavy, 2)} loads at B50" if heavy else "")
    return (f"Executed spill code averages {fmt(page.mean('b75.loads_per_k'), 2)} loads and "
            f"{fmt(page.mean('b75.stores_per_k'), 2)} stores per 1000 warp instructions at B75, "
            f"{fmt(page.mean('b50.loads_per_k'), 2)} and {fmt(page.mean('b50.stores_per_k'), 2)} "
            f"at B50{tail}.")


def cycles_sentence(page):
    values = {w: page.get(w, "b50.cycles") for w in page.workloads}
    values = {w: v for w, v in values.items() if v is not None}
    text = (f"the geometric mean is {fmt(page.mean('b75.cycles'), 3)} at B75 and "
            f"{fmt(page.mean('b50.cycles'), 3)} at B50")
    if values:
        slowest = max(values, key=values.get)
        faster = sum(v < 1 for v in values.values())
        text += (f"; {count_phrase(faster, 'workload')} of {len(values)} run faster than the "
                 f"reference at B50, and {slowest} is slowest at {fmt(values[slowest], 3)}")
    return text


def off_source(page):
    sources = {}
    for w in page.workloads:
        source = page.get(w, "off.source")
        if source:
            sources[source] = sources.get(source, 0) + 1
    if not sources:
        return "register counts from an unknown source"
    text = "register counts from " + listing(f"{s} ({count_phrase(n, 'workload')})"
                                             for s, n in sources.items())
    if any("allocator" in s for s in sources):
        text += " (\"allocator\": a kernel over the GPU's per-thread register limit is " \
                "allocated even with `off`)"
    return text


def affine_sentence(page):
    spilled = {r: page.means.get(f"{r}.affine", (None, 0))[1] for r in rs.BUDGET_PERCENT}
    if not any(spilled.values()):
        return "No workload stored spills with the value profiler on, so there is no share " \
               "to put beside the paper's."
    return (f"Of the words our spill stores write, {pct(page.mean('b75.affine'))} are affine, "
            f"uniform included, at B75 and {pct(page.mean('b50.affine'))} at B50 (means over "
            f"the {spilled['b75']} and {spilled['b50']} workloads that stored spills; uniform "
            f"alone {pct(page.mean('b75.uniform'))} and {pct(page.mean('b50.uniform'))}).")


def variables(page):
    targets = sorted({r.target for by_w in page.ptxas.values() for r in by_w.values()
                      if r and r.target})
    any_run = next((r for by_w in page.runs.values() for r in by_w.values() if r), None)
    remat = page.mean("b50.remat")
    return {
        "n": str(len(page.workloads)),
        "size": any_run.size if any_run else NA,
        "min_ours": fmt(page.mean("min.ours")),
        "min_ptxas": fmt(page.mean("min.ptxas")),
        "min_comparison": minimal_comparison(page),
        "virtual": fmt(page.mean("min.virtual")),
        "ptxas_target": listing(targets) if targets else "the PTX's target",
        "ptxas_floor_sentence": ptxas_floor_sentence(page),
        "spill_sentence_b75": spill_sentence(page, "b75"),
        "spill_sentence_b50": spill_sentence(page, "b50"),
        "remat_sentence": (f", and at B50 re-computes {fmt(remat)} values per workload on "
                           "average instead of reloading them" if remat else ""),
        "clamp_sentence": clamp_sentence(page),
        "dynamic_sentence": dynamic_sentence(page),
        "cycles_sentence": cycles_sentence(page),
        "off_source": off_source(page),
        "l1_off": pct(page.mean("off.l1_hits")),
        "l1_b75": pct(page.mean("b75.l1_hits")),
        "l1_b50": pct(page.mean("b50.l1_hits")),
        "min_cycles": fmt(page.mean("min.cycles"), 3),
        "min_instructions": fmt(page.mean("min.instructions"), 3),
        "affine_sentence": affine_sentence(page),
        "paper_b75": rm.paper(rm.PAPER_AFFINE["b75"]),
        "paper_b50": rm.paper(rm.PAPER_AFFINE["b50"]),
        "paper_pow2": rm.paper(rm.PAPER_NON_POWER_OF_TWO),
    }
