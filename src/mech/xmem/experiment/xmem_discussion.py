"""The values of the XMem page's discussion (discussion.md, a template filled by
placeholders.fill): every number of its prose, computed from the runs (xmem_page.Study) or taken
from the study's text (STUDY, digest s1.9-1.10)."""

import xmem_data as data
from page_text import NONE, pct, signed
from report_markdown import words

# The study's setup and observations, as its text gives them (digest s1.9, s1.10 X7).
# Our names of the study's low-headroom workloads.
STUDY_NAMES = {"streamcluster": "sc", "histogram": "histo"}
STUDY = {"kernels": 12, "tiles": "64 B to 8 MB", "caches": "2 MB, 1 MB and 512 KB", "placement_apps": 27,
         "headroom": 0.03, "low_headroom": "sc and histo", "random_access": "mcf, xalancbmk and bfsRod"}


def change(a, b):
    """a / b - 1, or None."""
    r = data.ratio(a, b)
    return None if r is None else r - 1


def kib(n):
    return f"{n // 1024} KB"


def value_range(pairs, fmt=signed):
    """'-3.0% (a) to +5.0% (b)' over (name, value) pairs, or NONE."""
    pairs = [(n, v) for n, v in pairs if v is not None]
    if not pairs:
        return NONE
    lo, hi = min(pairs, key=lambda p: p[1]), max(pairs, key=lambda p: p[1])
    if lo == hi:
        return f"{fmt(lo[1])} ({lo[0]})"
    return f"{fmt(lo[1])} ({lo[0]}) to {fmt(hi[1])} ({hi[0]})"


def number_range(values, fmt=str):
    values = [v for v in values if v is not None]
    if not values:
        return NONE
    lo, hi = min(values), max(values)
    return fmt(lo) if lo == hi else f"{fmt(lo)} to {fmt(hi)}"


def tiling_values(s):
    full = s.l2_sizes[0] if s.l2_sizes else None
    smallest, largest = (s.tiles[0], s.tiles[-1]) if s.tiles else (None, None)

    run = s.tile_run

    def ctas(kb):
        return [r.ctas_per_launch() for w in s.tiled for r in [run(w, full, kb)] if r]

    sms = number_range([r.sms for r in s.runs.values() if r.sms])
    small = [(w, kb, change(s.cycles(w, full, kb), s.cycles(w, full, s.best_tile(w, full))))
             for w in s.tiled if s.best_tile(w, full) for kb in s.tiles
             if kb < s.best_tile(w, full) and s.cycles(w, full, kb)]
    worst_small = max(small, key=lambda x: x[2]) if small else None
    smaller = s.l2_sizes[1:]
    pairs = [(w, l2) for w in s.tiled for l2 in smaller if s.best_tile(w, l2)]
    best_over = [(w, l2) for w, l2 in pairs if s.best_tile(w, l2) * 1024 > l2]
    fit = s.same_tile_slowdowns("")
    fit_x = s.same_tile_slowdowns("xmem")
    worst_fit = max(fit, key=lambda x: x[3]) if fit else None

    def mean_over(points, metric):
        values = [metric(w, l2, kb) for w, l2, kb, _ in points]
        return data.mean([v for v in values if v is not None])

    def per_workload(points):
        return words(f"{w} {signed(data.mean([x[3] for x in points if x[0] == w]))}"
                     for w in s.tiled if any(x[0] == w for x in points))

    def mode_change(mode):
        return [(w, l2, kb, change(s.cycles(w, l2, kb, mode), s.cycles(w, l2, kb)))
                for w, l2, kb, _ in fit if s.cycles(w, l2, kb, mode)]

    xruns = [run(w, l2, kb, "xmem") for w, l2, kb, _ in fit if run(w, l2, kb, "xmem")]
    pruns = [run(w, l2, kb, "pin") for w, l2, kb, _ in fit if run(w, l2, kb, "pin")]
    prefetches = sum(r.l2_prefetches for r in xruns)
    best_text = "; ".join(f"on {kib(l2)}, " + words(f"{w} {s.best_tile(w, l2)} KB" for w in s.tiled if s.best_tile(w, l2))
                          for l2 in s.l2_sizes)
    return {
        "tiled": words(s.tiled), "tile_range": f"{smallest} KB to {largest} KB" if s.tiles else NONE,
        "l2_sizes": words(kib(l2) for l2 in s.l2_sizes),
        "smallest_tile": f"{smallest} KB", "largest_tile": f"{largest} KB",
        "ctas_small": number_range(ctas(smallest), lambda x: f"{x:.0f}"),
        "ctas_large": number_range(ctas(largest), lambda x: f"{x:.0f}"), "sms": sms,
        "small_worst": f"{worst_small[0]}'s {worst_small[1]} KB tile" if worst_small else NONE,
        "best_tiles": best_text or NONE,
        "best_oversized": f"{len(best_over)} of the {len(pairs)}",
        "fit_worst": f"{worst_fit[0]}'s {worst_fit[2]} KB tile on {kib(worst_fit[1])}" if worst_fit else NONE,
        "fit_by_workload": per_workload(fit),
        "hit_fit": pct(mean_over(fit, lambda w, l2, kb: run(w, full, kb).l2_hit_rate)),
        "hit_over": pct(mean_over(fit, lambda w, l2, kb: run(w, l2, kb).l2_hit_rate)),
        "bursts_growth": signed(mean_over(fit, lambda w, l2, kb: change(
            run(w, l2, kb).dram_read_bursts, run(w, full, kb).dram_read_bursts))),
        "hit_x": pct(data.mean([r.l2_hit_rate for r in xruns])),
        "xmem_by_workload": per_workload(mode_change("xmem")),
        "pin_by_workload": per_workload(mode_change("pin")),
        "hit_pin": pct(data.mean([r.l2_hit_rate for r in pruns])),
        "bursts_xmem": signed(change(sum(r.dram_read_bursts for r in xruns), sum(r.dram_read_bursts for r in pruns))),
        "fit_x_count": str(len(fit_x)),
        "prefetches": f"{prefetches:,}",
        "prefetch_unused": pct(data.ratio(sum(r.l2_prefetch_unused for r in xruns), prefetches)),
        "pinned_runs": f"{sum(1 for r in xruns if r.pinned_lines)} of {len(xruns)}",
        "tuned_tiles": words(f"{w} {s.best_tile(w, full)} KB" for w in s.tiled if s.best_tile(w, full)),
        "port_by_workload": words(f"{w} {signed(s.portability(w, ''))} / {signed(s.portability(w, 'xmem'))} / "
                                  f"{signed(s.portability(w, 'pin'))}" for w in s.tiled),
    }


def slower_text(names):
    if not names:
        return "XMem's frames are slower than the baseline on no workload."
    return (f"XMem's frames are slower than the baseline on {words(names)}: the banks reserved for the "
            "isolated atoms leave the other structures fewer banks to spread over.")


def ideal_slower_text(s, ideal):
    slower = [w for w in s.placement if ideal.get(w) is not None and ideal[w] < 0]
    if not slower:
        return "The ideal row buffer is faster than the baseline on every workload."
    empty = []
    for w in slower:
        m = s.baseline_mapping(w)
        empty.append(f"{w} {signed(change(s.run(w, 'ideal', m).issue_empty, s.run(w, 'random', m).issue_empty))}")
    return (f"It is slower than the baseline on {words(slower)}: a short kernel's end is a tail of the last CTAs, "
            "and faster memory changes which SMs hold them, so some SMs stand idle longer (scheduler slots "
            f"without a warp: {words(empty)}).")


def placement_values(s):
    chosen = [s.baseline_mapping(w) for w in s.placement]
    counts = words(f"{m} on {chosen.count(m)}" for m in s.mappings if chosen.count(m))
    xmem, ideal = s.speedups("xmem"), s.speedups("ideal")

    def rates(design):
        return data.mean([r.row_hit_rate for w in s.placement for m in [s.baseline_mapping(w)] if m
                          for r in [s.run(w, design, m)] if r and r.row_hit_rate is not None])

    low = [w for w in s.placement if ideal.get(w) is not None and ideal[w] < STUDY["headroom"]]
    gains = [v for v in xmem.values() if v is not None]
    ideals = [v for v in ideal.values() if v is not None]
    captured = data.ratio(data.mean(gains), data.mean(ideals)) if gains and ideals else None
    return {
        "placement_apps": words(s.placement), "placement_count": str(len(s.placement)),
        "mappings": words(s.mappings), "mapping_counts": counts or NONE,
        "x5_range": value_range(xmem.items()), "ideal_range": value_range(ideal.items()),
        "rbh_base": pct(rates("random")), "rbh_xmem": pct(rates("xmem")), "rbh_ideal": pct(rates("ideal")),
        "low_headroom": words(low),
        "low_match": words([w for w in low if w in STUDY_NAMES], empty="neither"),
        "bfs_ideal": signed(ideal.get("bfs")), "bfs_xmem": signed(xmem.get("bfs")), "captured": pct(captured), "ideal_slower": ideal_slower_text(s, ideal),
        "xmem_slower": slower_text([w for w in s.placement if xmem.get(w) is not None and xmem[w] < 0]),
        "latency_range": value_range(s.latency_changes().items()),
        "latency_ideal": signed(data.mean([s.over_baseline(w, "ideal", lambda r: r.read_latency, invert=False)
                                           for w in s.placement])),
    }


def overhead_values(s):
    runs = [r for (w, l2, v), r in s.runs.items() if v.endswith("-xmem")]
    lookups = sum(r.alb_hits + r.alb_misses for r in runs)
    ops = [(r.atom_ops, r.thread_instructions) for r in s.runs.values() if r.atom_ops]
    misses = sum(r.alb_misses for r in runs)
    return {
        "alb_lookups": f"{lookups:,}",
        "lookups_per_miss": f"{lookups / misses:,.0f}" if misses else NONE,
        "ops_range": number_range([o for o, _ in ops], lambda x: f"{x:,}"),
        "instructions_range": number_range([t for _, t in ops], lambda x: f"{x:,}"),
    }


def discussion_values(s):
    v = {f"study_{k}": (v if isinstance(v, str) else str(v)) if k != "headroom" else pct(v, 0)
         for k, v in STUDY.items()}
    v.update(tiling_values(s))
    v.update(placement_values(s))
    v.update(overhead_values(s))
    return v
