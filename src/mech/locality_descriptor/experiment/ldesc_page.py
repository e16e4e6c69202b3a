"""The Locality Descriptor results page (single chip and NUMA), a `warpsim report` template: render(report)
returns docs/results/locality-descriptor.md and draws its plots beside it, from the sweep spec.py
writes (run.sh):

  warpsim report build/experiments/locality-descriptor-small/sweep \\
      --template src/mech/locality_descriptor/experiment/ldesc_page.py --out docs/results/locality-descriptor.md

Definitions: ldesc_data.py; metrics: ldesc_metrics.py (on numbers) and ldesc_study.py (on the
sweep); the headline rules: ldesc_headlines.py; the study's numbers: ldesc_paper.py. The
discussion (discussion.md) is a template whose {name} placeholders are filled from the same
metrics (placeholders.fill), so no number on the page is typed by hand. Missing runs show as "–".
The configuration section reads the resolved configuration run.sh writes beside the sweep
(ldesc-chip.toml, `warpsim config show gtx480 --overlay ldesc-chip`); without it the section says so.
The NUMA study's section is ldesc_numa_page.py's (with mcm-4gpm.toml, `warpsim config show mcm-4gpm`).
"""

import os

import ldesc_data as data
import ldesc_headlines as hl
import ldesc_numa_page as numa_page
import ldesc_paper as paper
from ldesc_cells import count, label, num, resolved_config
import ldesc_plot as plot
import placeholders  # scripts/report, on the path of a template
from ldesc_study import SENSITIVE_WS, Study
from page_text import (NONE, failure_lines, generated_note, not_met_text, page_command,  # scripts/report
                       page_stem, pct, points, runs_text, signed)
from report_markdown import table, words  # scripts/report
from run_stats import value_at  # scripts/report

FOLDER = "src/mech/locality_descriptor/experiment"
DISCUSSION = f"{FOLDER}/discussion.md"
HERE = os.path.dirname(os.path.abspath(__file__))
CHIP_FILE = "ldesc-chip.toml"

# Table 3 (digest s2.5) against the resolved configuration: (parameter, the study's value, the
# key, its value in the study's terms).
TABLE3 = [("SMs", 15, "gpu.num_sms"), ("shader clock, MHz", 1400, "clocks.core"),
          ("warp scheduler", "gto", "sm.warp_scheduler.impl"), ("schedulers per SM", 2, "sm.schedulers"),
          ("registers per SM", 32768, "sm.registers"), ("scratchpad bytes per SM", 49152, "sm.shared_bytes"),
          ("L1 bytes", 32768, "l1.size"), ("L1 ways", 4, "l1.assoc"),
          ("CTA scheduler (Baseline)", "round-robin", "cta_scheduler.impl"),
          ("memory scheduling", "fr-fcfs", "dram.scheduler"), ("banks per channel", 16, "dram.banks"),
          ("memory channels", 6, "dram.channels"), ("L2 bytes", 786432, "l2.size"), ("L2 ways", 16, "l2.assoc")]

# Table 4's descriptor types per application (digest s2.6).
TABLE4_TYPES = {"syrk": "INTER (COACCESSED, REGULAR), NO-REUSE", "doitgen": "INTER (COACCESSED, REGULAR), NO-REUSE",
                "dwt2d": "INTER (NEARBY, REGULAR)", "conv2d": "INTER (NEARBY)",
                "spmv": "INTRA, INTER (COACCESSED, IRREGULAR)", "libor": "INTRA",
                "lavamd": "INTRA, INTER (COACCESSED, REGULAR)", "histogram": "INTER (COACCESSED, REGULAR)",
                "atax": "NO-REUSE, INTER (COACCESSED, REGULAR)", "mvt": "NO-REUSE, INTER (COACCESSED, REGULAR)",
                "particlefilter": "NO-REUSE", "streamcluster": "NO-REUSE, INTER (NEARBY)",
                "transpose": "NO-REUSE", "scalar-prod": "NO-REUSE", "laplace3d": "NO-REUSE, INTRA",
                "pathfinder": "NO-REUSE"}

LINE_BYTES = 128  # the L1's line (gtx480's; Table 3 implies it)
COUNTERS = ["prefetches", "prefetch_hits", "prefetch_late", "prefetch_unused", "pinned_evictions"]
POLICY_COUNTERS = ["bypassed", "hard_pins", "soft_pins"]


def shape_text(shape):
    return NONE if shape is None else "{}x{}x{}".format(*shape)


def yes_no(x):
    return NONE if x is None else ("yes" if x else "no")


def chip_config(report):
    """The resolved ldesc-chip configuration run.sh wrote beside the sweep, or None."""
    return resolved_config(report, CHIP_FILE)


# Sections.

def configuration_section(report, s):
    config = chip_config(report)
    out = ("## Configuration\n\nEvery run is `gtx480` with the overlay `ldesc-chip` (the study's single-chip GPU, "
           "its Table 3; `configs/overlays/ldesc-chip.toml`) and `--set l1.count_footprint=true` (the per-SM "
           "working set; it changes no timing). ")
    sms = {r.config.get("sms") for r in s.sweep.chip_runs() if r.config.get("sms")}
    if sms:
        out += f"The runs' statistics name {words(sorted(str(x) for x in sms))} SMs. "
    if config is None:
        out += (f"\n\nThe resolved configuration ({CHIP_FILE} beside the sweep, which run.sh writes) is missing, so "
                "Table 3 is not compared here.")
    else:
        rows = []
        for name, study, key in TABLE3:
            ours = value_at(config, key)
            rows.append((name, str(study), f"`{key}` = {ours}", "same" if ours == study else "differs"))
        out += ("Table 3 against the resolved configuration (`warpsim config show gtx480 --overlay ldesc-chip`); the "
                "table's unstated values (line size, MSHRs, latencies, DRAM timing) are gtx480's, "
                "`configs/gtx480.toml`:\n\n" + table(("parameter", "study (Table 3)", "ours", ""), rows))
    rows = []
    for v, name, overlay in [(data.FILTER, f"{data.FILTER_FACTOR}x L1 (the filter)", None)] + data.CONFIGS:
        spec = report.spec.get("variants", {}).get(v)
        if spec is None:
            continue
        options = " ".join([f"--overlay {o}" for o in spec.get("overlays", [])] +
                           [f"--set {x}" for x in spec.get("sets", [])])
        rows.append((name, f"`{options}`"))
    shape = report.spec.get("variants", {}).get(data.shape_name((2, 4, 1)))
    if shape is not None:
        rows.append(("motivation strategy X x Y x Z", "`" + " ".join(
            [f"--overlay {o}" for o in shape.get("overlays", [])]
            + [f"--set {x}" for x in data.FOOTPRINT.split()]
            + [f"--set {x}" for x in data.shape_sets(("X", "Y", "Z"))]) + "`"))
    return out + "\n\nThe runs:\n\n" + table(("configuration", "options of `warpsim run`"), rows)


def filter_section(s, image):
    rows = []
    for a in s.apps:
        base = s.base(a)
        big = s.sweep.run(a, data.FILTER)
        rows.append((label(a), s.sweep.sizes.get(a, NONE), count(None if base is None else base.max_ctas()),
                     TABLE4_TYPES.get(a, NONE), count(None if base is None else base.cycles),
                     count(None if big is None else big.cycles), num(s.filter_speedup(a)),
                     yes_no(s.in_cache_set(a)), "yes" if a in data.FIG20 else "no"))
    missing = "; ".join(f"{name} ({abbr}, {suite}: {types})" for name, abbr, suite, types in data.MISSING)
    missing = f" Not in the suite yet: {missing}." if missing else ""
    out = (f"## Applications and the selection filter\n\nTable 4's applications the suite has, each at one size "
           f"(the CTAs of its largest launch beside it). The study's filter (s2.6): an application whose run with a "
           f"{data.FILTER_FACTOR}x L1 (`--set l1.size={data.L1_BYTES * data.FILTER_FACTOR}`, the same 4 ways) is "
           f"more than {pct(data.FILTER_GAIN, 0)} faster is cache-sensitive, in the reuse-locality set. The "
           "six configurations run on the Fig. 20 set (the digest's reading of which applications that figure "
           "shows), whatever our filter says; the table shows both." + missing + "\n\n")
    if image:
        out += f"![The selection filter]({image})\n\n"
    return out + table(("application", "size", "CTAs (largest launch)", "descriptors (Table 4)", "Baseline cycles",
                        f"{data.FILTER_FACTOR}x L1 cycles", "speedup", "cache-sensitive", "Fig. 20 set"), rows)


def headline_section(h):
    rows = [(r.ref, r.result, r.study, r.ours, r.verdict, r.reason or NONE) for r in h.rows]
    return ("## Headline numbers\n\nThe study's numbers (digest s2.7) beside ours, marked by the rules of "
            "`ldesc_headlines.py`: a change the study reports as a mechanism's effect is met when ours has its "
            f"sign and at least half its size; one it reports as small (\"only\") when ours is at most twice its "
            f"size; \"helps\", \"hurts\" and \"no gain\" are decided at {pct(hl.NOISE, 0)}. Hit rates are "
            "hits / accesses of the L1 and their changes percentage points (pp). The NUMA study's rows (L-N, "
            "speedups over the NUMA Baseline) add: an access efficiency the study reports is met when ours is at "
            "least half and at most twice it; a zone distribution \"close to 25% per zone\" when the largest "
            f"zone's share averages at most {pct(hl.EVEN_MAX_SHARE)}, \"heavily skewed\" when it is above that; "
            "\"low\" and \"less effective\" mean below the configuration's own mean access efficiency.\n\n"
            + table(("", "result", "study", "ours", "", "why"), rows))


def motivation_section(s, image):
    apps = s.motivation_apps
    if not apps:
        return "## Motivation: 48 CTA-clustering strategies\n\nNot run (`run.sh --quick`)."
    rows = []
    for a in apps:
        base, small, fast = s.base(a), s.smallest_ws(a), s.fastest(a)
        rows.append((label(a), str(len(data.app_shapes(a))), num(None if base is None else base.working_set, 0),
                     shape_text(None if small is None else small[0]), pct(s.ws_reduction(a)),
                     signed(None if s.smallest_ws_speedup(a) is None else s.smallest_ws_speedup(a) - 1.0),
                     points(s.motivation_hit_change(a)), points(s.motivation_inflight_change(a)),
                     shape_text(None if fast is None else fast[0]),
                     signed(None if s.best_speedup(a) is None else s.best_speedup(a) - 1.0), yes_no(s.sensitive(a))))
    out = ("## Motivation: 48 CTA-clustering strategies\n\nThe study's case study 1 (s2.2, Figs. 9 and 10) "
           f"evaluated {paper.STRATEGIES} strategies clustering CTAs along X, Y, Z or several of them, but does not "
           f"list them. Ours are the {len(data.SHAPES)} fixed cluster shapes X x Y x Z with X and Y in "
           f"{{{', '.join(map(str, data.SHAPE_X))}}} and Z in {{{', '.join(map(str, data.SHAPE_Z))}}} "
           "(`cta_scheduler.clusters = \"fixed\"`): each cluster's CTAs run on one SM, clusters dealt to SMs in "
           "turn, an idle SM taking work from others; a shape is clipped to each launch's grid. A shape's extent "
           "along a dimension none of an application's grids use changes nothing, so each distinct shape is run "
           "once (2-D grids: 16, 1-D: 4; every run's grids are checked against this) and stands for all the "
           "shapes it equals. The per-SM working set is the distinct lines each SM's L1 saw per launch "
           "(`memory.l1d_footprint`: lines / SMs, over all launches); the in-flight hit rate is the accesses "
           "merged into another's outstanding miss (`mshr_merges`) over accesses. The smallest-working-set "
           f"strategy and the fastest (best) one per application; scheduling-sensitive: the first cuts the working "
           f"set by {pct(SENSITIVE_WS, 0)} or more (the thesis names no threshold).")
    if not any("z" in data.GRID_DIMS.get(a, "x") for a in apps):
        out += (" No application's grids span z, so every shape with Z > 1 equals its Z = 1 shape; the plot "
                "draws Z = 1.")
    out += "\n\n"
    if image:
        out += f"![Working set per strategy]({image})\n\n"
    return out + table(("application", "shapes run", "Baseline working set (lines per SM)", "smallest-WS shape",
                        "WS reduction", "its speedup", "its hit-rate change", "its in-flight change",
                        "fastest shape", "best speedup", "sensitive"), rows)


def config_table(s, apps, f, fmt, mean_row=True):
    rows = [[label(a)] + [fmt(f(a, v)) for v, _, _ in data.CONFIGS] for a in apps]
    if mean_row and apps:
        rows.append(["**mean**"] + [fmt(s.over(lambda a, v=v: f(a, v), apps)) for v, _, _ in data.CONFIGS])
    return table(["application"] + [n for _, n, _ in data.CONFIGS], rows)


def configurations_section(s, images):
    apps = [a for a in data.FIG20 if a in s.config_apps]
    if not apps:
        return "## The six configurations\n\nNot run."
    cache_set = [a for a in apps if s.in_cache_set(a)]
    out = [("## The six configurations\n\nThe study's single-chip configurations (s2.6) on the Fig. 20 set: Baseline "
            "(round-robin CTAs, LRU L1), BCS (two consecutive CTAs on one SM), LDesc-Sched (Algorithm 1's "
            "clusters), LDesc-Pref (the guided prefetcher), LDesc-Cache (bypass and pinning) and LDesc (all, "
            "per descriptor). Of these applications, the cache filter above passes "
            f"{words([data.abbreviation(a) for a in cache_set], 'none')}.")]
    out.append("### Speedup (Fig. 20a)\n\nBaseline's cycles over the configuration's (higher is faster).")
    if images.get("speedup"):
        out.append(f"![Speedup per configuration]({images['speedup']})")
    out.append(config_table(s, apps, s.speedup, num))
    out.append("### L1 hit rate (Fig. 20b)\n\nHits / accesses of the L1 (`memory.l1d`), each configuration's; "
               "the study reports LDesc's change over Baseline (the last table of this section).")
    if images.get("hit_rate"):
        out.append(f"![L1 hit rate per configuration]({images['hit_rate']})")

    def rate(a, v):
        r = s.run(a, v)
        return None if r is None else r.hit_rate

    out.append(config_table(s, apps, rate, lambda x: pct(x)))
    out.append("### Working set and in-flight hits\n\nPer-SM working set of each configuration over Baseline's "
               "(as a reduction), and the in-flight hit-rate change (pp): the study's L-R3 on the INTER-THREAD "
               f"applications ({words(data.abbreviation(a) for a in data.INTER_THREAD)}).")
    rows = []
    for a in apps:
        rows.append([label(a)] + [pct(s.ws_change(a, v)) for v in ("bcs", data.SCHED, data.LDESC)]
                    + [points(s.inflight_change(a, v)) for v in ("bcs", data.SCHED, data.LDESC)]
                    + [points(s.hit_change(a, data.LDESC))])
    inter = [a for a in data.INTER_THREAD if a in apps]
    rows.append(["**mean, INTER-THREAD**"] + [pct(s.over(lambda a, v=v: s.ws_change(a, v), inter))
                                              for v in ("bcs", data.SCHED, data.LDESC)]
                + [points(s.over(lambda a, v=v: s.inflight_change(a, v), inter))
                   for v in ("bcs", data.SCHED, data.LDESC)]
                + [points(s.over(lambda a: s.hit_change(a, data.LDESC), inter))])
    out.append(table(("application", "WS reduction, BCS", "WS reduction, LDesc-Sched", "WS reduction, LDesc",
                      "in-flight, BCS", "in-flight, LDesc-Sched", "in-flight, LDesc", "hit-rate change, LDesc"), rows))
    out.append("### LDesc-Sched's clusters\n\nWhat Algorithm 1 chose for each kernel of the Fig. 20 set (the first "
               "launch's `timing.cta_scheduler`: CTAs per cluster along x, y, z, clusters, queued clusters an idle SM "
               "took from another / single CTAs taken from another's current cluster), and the kernel's speedup "
               "under LDesc-Sched (Baseline's cycles over LDesc-Sched's, summed over its launches). A kernel "
               "without INTER-THREAD descriptors gets clusters of one CTA.")
    rows = []
    for a in apps:
        for k in s.clusters(a):
            sched = k["scheduler"] or {}
            dims = sched.get("cluster_dims")
            rows.append((label(a), f"`{k['name']}`", "x".join(map(str, k["grid"])), str(k["launches"]),
                         NONE if not dims else "x".join(map(str, dims)), count(sched.get("clusters")),
                         f"{count(sched.get('clusters_stolen'))} / {count(sched.get('ctas_stolen'))}",
                         num(k["speedup"])))
    out.append(table(("application", "kernel", "grid", "launches", "cluster", "clusters", "stolen (clusters / CTAs)",
                      "kernel speedup"), rows))
    out.append("### The policies' counters\n\nWhat the L1 policy did under LDesc-Pref, LDesc-Cache and LDesc "
               "(`memory.l1d`: `prefetches` issued, `prefetch_hits` read later with their data there, "
               "`prefetch_late` read while still on the way, `prefetch_unused` evicted unread, `pinned_evictions` "
               "of pinned lines; `memory.l1d_policy.descriptors[*]`: `bypassed` accesses sent around the L1, "
               "`hard_pins` and `soft_pins` lines inserted pinned), summed over the run's launches and descriptors.")
    rows = []
    for a in apps:
        for v in ("ldesc-pref", "ldesc-cache", data.LDESC):
            r = s.run(a, v)
            if r is None:
                rows.append([label(a), data.CONFIG_NAMES[v]] + [NONE] * (len(COUNTERS) + len(POLICY_COUNTERS)))
                continue
            rows.append([label(a), data.CONFIG_NAMES[v]] + [count(r.counter(c)) for c in COUNTERS]
                        + [count(r.policy_count(c)) for c in POLICY_COUNTERS])
    out.append(table(["application", "configuration"] + COUNTERS + POLICY_COUNTERS, rows))
    return "\n\n".join(out)


def not_yet_section(s):
    items = []
    if not s.numa_config_apps:
        items.append(f"- **The NUMA study's four configurations** (L-N1 .. L-N5: LDesc {signed(paper.NUMA_SPEEDUP)} "
                     "on average over the XOR-hashed Baseline on the 4-module GPU) are not in this sweep "
                     "(`run.sh` runs them on `mcm-4gpm`).")
    items.append("- **Scheduling plus prefetching alone** (L-R4's synergy) is none of the study's six configurations "
                 "(LDesc adds cache management), so it is not measured.")
    if data.MISSING:
        missing = words(f"{name} ({abbr})" for name, abbr, _, _ in data.MISSING)
        items.append(f"- **{missing}** of Table 4 are not in the suite yet; they are in neither the filter nor the "
                     "studies.")
    return "## Not yet\n\n" + "\n".join(items)


def failures_section(s, report):
    lines = failure_lines(report, s.sweep.failed)
    if not lines:
        return None
    return ("## Points that did not pass\n\nEvery comparison that needs one of them shows \"–\".\n\n"
            + "\n".join(lines))


def extreme(values, pick, fmt=signed):
    if not values:
        return NONE
    app = pick(values, key=values.get)
    return f"{fmt(values[app])} ({data.abbreviation(app)})"


def discussion_values(s, h):
    apps = [a for a in data.FIG20 if a in s.config_apps]
    cache_set = s.cache_set()
    fig20_out = [a for a in data.FIG20 if a in s.apps and s.in_cache_set(a) is False]
    others_in = [a for a in cache_set if a not in data.FIG20]
    motivation = s.motivation_apps
    pref = s.values(lambda a: s.gain(a, "ldesc-pref"), apps)
    cache = s.values(lambda a: s.gain(a, "ldesc-cache"), apps)
    sched = s.values(lambda a: s.gain(a, data.SCHED), apps)
    ldesc = s.values(lambda a: s.gain(a, data.LDESC), apps)
    unused = {}
    for a in apps:
        r = s.run(a, data.LDESC)
        if r is not None and r.counter("prefetches"):
            unused[a] = r.counter("prefetch_unused") / r.counter("prefetches")
    sms = next((r.config.get("sms") for r in s.sweep.chip_runs() if r.config.get("sms")), None)
    few = [a for a in s.apps if sms and s.base(a) is not None and (s.base(a).max_ctas() or 0) < sms]
    line_kb = LINE_BYTES / 1024

    def ws_kb(a):
        base = s.base(a)
        return None if base is None or base.working_set is None else base.working_set * line_kb

    relative = s.values(lambda a: None if s.smallest_ws(a) is None or s.base(a) is None
                        or not s.base(a).inflight_rate
                        else s.smallest_ws(a)[1].inflight_rate / s.base(a).inflight_rate - 1.0, motivation)
    worst = None
    for a in apps:
        for k in s.clusters(a):
            if k["speedup"] is not None and (worst is None or k["speedup"] < worst[1]["speedup"]):
                worst = (a, k)
    if worst is None:
        worst_text = NONE
    else:
        a, k = worst
        sched_stats = k["scheduler"] or {}
        dims = sched_stats.get("cluster_dims")
        worst_text = (f"{data.abbreviation(a)}'s `{k['name']}` (grid {'x'.join(map(str, k['grid']))}, clusters of "
                      f"{'x'.join(map(str, dims)) if dims else NONE} CTAs, {count(sched_stats.get('clusters'))} of "
                      f"them on {sms} SMs, kernel speedup {num(k['speedup'])})")
    best_gain = s.values(lambda a: None if s.best_speedup(a) is None else s.best_speedup(a) - 1.0, motivation)
    smallest_gain = s.values(lambda a: None if s.smallest_ws_speedup(a) is None else s.smallest_ws_speedup(a) - 1.0,
                             motivation)
    inflight = s.values(s.motivation_inflight_change, motivation)
    single = [a for a in apps if s.clusters(a) and all(
        ((k["scheduler"] or {}).get("cluster_dims") or [1, 1, 1]) == [1, 1, 1] for k in s.clusters(a))]
    pins = []
    for a in data.CACHE_HELPS:
        r = s.run(a, "ldesc-cache")
        if r is not None and a in apps:
            base = s.base(a)
            pins.append(f"{data.abbreviation(a)} (Baseline hit rate {pct(None if base is None else base.hit_rate)}) "
                        f"{count(r.policy_count('hard_pins'))} lines hard-pinned, "
                        f"{count(r.counter('pinned_evictions'))} pinned lines evicted, "
                        f"{signed(s.gain(a, 'ldesc-cache'))}")
    no_prefetch = [a for a in apps if s.run(a, "ldesc-pref") is not None
                   and s.run(a, "ldesc-pref").counter("prefetches") == 0]
    v = {
        "no_prefetch": words([data.abbreviation(a) for a in no_prefetch], "none"),
        "single_cta": words([data.abbreviation(a) for a in single], "none"),
        "cache_pins": "; ".join(pins) or NONE,
        "apps": words(label(a) for a in s.apps),
        "sizes": s.sweep.size or NONE,
        "cache_set": words([data.abbreviation(a) for a in cache_set], "none"),
        "fig20_out": words([data.abbreviation(a) for a in fig20_out], "none"),
        "fig20_out_ws": ", ".join(f"{data.abbreviation(a)} {num(ws_kb(a), 1)} KB" for a in fig20_out) or NONE,
        "l1_kb": f"{data.L1_BYTES / 1024:g}",
        "l1x4_kb": f"{data.L1_BYTES * data.FILTER_FACTOR / 1024:g}",
        "others_in": words([data.abbreviation(a) for a in others_in], "none"),
        "few_ctas": (f"{words([data.abbreviation(a) for a in few])} launch fewer CTAs than the GPU has SMs, so no "
                     "CTA schedule can change where their data is reused" if few else
                     "every application launches at least as many CTAs as the GPU has SMs"),
        "sensitive": words([data.abbreviation(a) for a in motivation if s.sensitive(a)], "none"),
        "ws_range": f"{extreme(s.values(s.ws_reduction, motivation), min, pct)} to "
                    f"{extreme(s.values(s.ws_reduction, motivation), max, pct)}",
        "best_range": f"{extreme(best_gain, min)} to {extreme(best_gain, max)}",
        "smallest_ws_slowest": extreme(smallest_gain, min),
        "inflight_range": f"{extreme(inflight, min, points)} to {extreme(inflight, max, points)}",
        "inflight_relative": signed(None if not relative else sum(relative.values()) / len(relative)),
        "ldesc_range": f"{extreme(ldesc, min)} to {extreme(ldesc, max)}",
        "sched_range": f"{extreme(sched, min)} to {extreme(sched, max)}",
        "sched_worst": worst_text,
        "pref_range": f"{extreme(pref, min)} to {extreme(pref, max)}",
        "cache_range": f"{extreme(cache, min)} to {extreme(cache, max)}",
        "prefetch_unused": f"{extreme(unused, min, pct)} to {extreme(unused, max, pct)}",
    }
    for group in ("filter", "motivation", "configs", "observations"):
        v[f"not_met_{group}"] = not_met_text(h, group)
    v.update(numa_page.discussion_values(s, h))
    return v


def render(report):
    sweep = data.Sweep(report)
    s = Study(sweep)
    h = hl.Headlines(s).build()
    stem = page_stem(report)
    apps = [a for a in data.FIG20 if a in s.config_apps]
    numa_apps = numa_page.apps_run(s)
    images = {
        "filter": plot.filter_bars(report, stem, s),
        "speedup": plot.speedup_bars(report, stem, s, apps),
        "hit_rate": plot.hit_rate_bars(report, stem, s, apps),
        "working_set": plot.working_set(report, stem, s),
        "numa_filter": plot.numa_filter_bars(report, stem, s),
        "numa_speedup": plot.numa_speedup_bars(report, stem, s, numa_apps),
        "efficiency": plot.efficiency_bars(report, stem, s, numa_apps),
    }
    discussion = placeholders.fill_file(os.path.join(HERE, "discussion.md"), discussion_values(s, h),
                                        DISCUSSION)
    parts = [
        "# Locality Descriptor: results",
        generated_note(f"{FOLDER}/ldesc_page.py", DISCUSSION),
        runs_text(report, FOLDER) + " (a point passes when its output verified against the CPU reference: the hints "
        f"never change results).  \n"
        f"Statistics: warpsim {sweep.version() or NONE}, configuration {data.CONFIG} + {data.CHIP}, sizes: "
        f"{sweep.size or NONE}.  \n"
        f"NUMA study: configuration {data.NUMA_CONFIG}, sizes: {sweep.numa_size or NONE}.  \n"
        + page_command(f"{FOLDER}/ldesc_page.py", f"{FOLDER}/run.sh", "every step"),
        "Source: the Locality Descriptor (seed 001, chapter 3; digest "
        "`../shared/digests/xmem-and-locality-descriptor.md` s2.2, s2.4 to s2.7). What is modelled and every "
        "assumption: `src/mech/locality_descriptor/README.md`; the descriptors each workload gives: "
        "`workloads/<name>/driver.cpp`. Performance is 1 / the run's total cycles (all its launches); "
        "definitions: `ldesc_data.py`, `ldesc_metrics.py`, `ldesc_study.py`. The study's two parts: the "
        "single-chip (reuse-locality) study on a GTX 480-like GPU, then the NUMA study on a GPU of four modules "
        "(its own section, after the six configurations); the headline table has both.",
        configuration_section(report, s), filter_section(s, images["filter"]), headline_section(h),
        motivation_section(s, images["working_set"]), configurations_section(s, images),
        numa_page.section(report, s, images), not_yet_section(s),
        "## Discussion\n\n" + discussion,
    ]
    failures = failures_section(s, report)
    if failures:
        parts.append(failures)
    return "\n\n".join(parts) + "\n"
