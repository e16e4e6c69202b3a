"""The unified-storage results page, a `warpsim report` template: render(report) returns
docs/results/unified-storage.md and draws its plots beside it, from the sweep spec.py writes
(run.sh):

  warpsim report build/experiments/unified-storage-small/sweep \\
      --template src/mech/unified_storage/experiment/unified_page.py --out docs/results/unified-storage.md

Definitions: unified_data.py; metrics: unified_metrics.py (on numbers) and unified_study.py (on
the sweep); the headline rules: unified_headlines.py; the study's numbers: unified_paper.py. The
discussion (discussion.md) is a template whose {name} placeholders are filled from the same
metrics (placeholders.fill), so no number on the page is typed by hand. Missing runs show as "–";
a kernel that fits in no division of a design shows as "does not fit"; a bank-study run without
the bank statistics stops the page with an error naming the statistic.
"""

import os

import placeholders  # scripts/report, on the path of a template
import unified_data as data
import unified_headlines as hl
import unified_paper as paper
import unified_plot as plot
from page_text import (NONE, failure_lines, generated_note, not_met_text, page_command,  # scripts/report
                       page_stem, pct, points, runs_text, signed)
from report_markdown import table, words  # scripts/report
from unified_metrics import minus_one as m_minus_one
from unified_study import PARTS, Study

FOLDER = "src/mech/unified_storage/experiment"
DISCUSSION = f"{FOLDER}/discussion.md"
HERE = os.path.dirname(os.path.abspath(__file__))
BREAKDOWN_APP = "pcr"  # Fig 7.9


def num(x, digits=3):
    return NONE if x is None else f"{x:.{digits}f}"


def kb(x):
    return NONE if x is None else f"{x / 1024:g}"


def count(x):
    return NONE if x is None else f"{x:,}"


def app_label(app):
    name = paper.name_of(app)
    return app if name == app else f"{name} (`{app}`)"


def common_sets(report, s):
    """The `--set`s and options every design run adds (the baseline's, from the spec)."""
    for vs in s.sweep.variants.values():
        for v in vs:
            if v.design == data.BASELINE and not v.mod:
                spec = report.spec.get("variants", {}).get(v.name, {})
                options = list(spec.get("options", []))
                if "--threads-per-block" in options:  # the application's own, not the design's
                    options = options[:options.index("--threads-per-block")]
                return " ".join([f"--set {x}" for x in spec.get("sets", [])] + options)
    return NONE


# Sections.

def designs_section(report, s):
    rows = [(d, f"`--overlay {d}`", data.design_words(d), str(sum(data.capacities(d))))
            for d in s.designs]
    return ("## Designs\n\nThe study's designs (digest s7.5) as overlays on `fermi-unified`; "
            f"{data.BASELINE} is the baseline every number is normalised to, {data.UNIFIED} the unified "
            "design of equal area. Every run also has "
            f"`{common_sets(report, s)}`: the fewest registers without spills on every design (s7.4 "
            "step 1), and one SM's share of the chip's static power and DRAM bandwidth (spec.py).\n\n"
            + table(("design", "options", "storage per SM", "SRAM KB per SM"), rows))


def applications_section(s):
    rows = []
    for app in s.apps:
        desc = next((d for n, w, d in paper.APPLICATIONS if w == app), "")
        blockings = [t for t in s.sweep.blockings(app) if t is not None]
        rows.append((app_label(app), s.sweep.sizes.get(app, NONE),
                     ", ".join(map(str, blockings)) or "the workload's own", desc))
    return ("## Applications\n\nThe study's six applications (digest s2.1, s7) and the workloads that stand "
            "for them, each at one size. Needle's blocking factor is its threads per block; on each design the "
            "page takes the fastest blocking that fits (the study's Needle is one application tuned per "
            "design).\n\n" + table(("application", "size", "threads per block", "what it is"), rows))


def headline_section(h):
    rows = [(r.result, r.study, r.ours, r.verdict, r.reason or NONE) for r in h.rows]
    return ("## Headline numbers\n\nUnified-384 against 256/64/64 unless the row says otherwise, marked by the "
            "rules of `unified_headlines.py`: a change the study reports is met when ours has its sign and at "
            "least half its size; a range when every application lies in it; a count over the six applications "
            f"when ours reaches it; \"matches\" is within {pct(hl.MATCH, 0)}; \"nothing slower or higher in "
            f"energy\" allows the study's own noise of {pct(hl.NOISE)}.\n\n"
            + table(("result", "study", "ours", "", "why"), rows))


def cell(s, f, app, design):
    """f(app, design) as a number, or "does not fit" when no blocking of the app fits the design."""
    if s.sweep.does_not_fit(app, design):
        return "does not fit"
    return num(f(app, design))


def per_design_table(s, f):
    rows = [[app_label(a)] + [cell(s, f, a, d) for d in s.designs] for a in s.apps]
    return table(["application"] + s.designs, rows)


def performance_section(s, image):
    out = ("## Performance\n\nCycles of 256/64/64 over the design's (higher is faster), the study's Fig 7.7; "
           "Needle at each design's fastest blocking that fits (next section).\n\n")
    if image:
        out += f"![Performance per design]({image})\n\n"
    return out + per_design_table(s, s.perf)


def needle_section(s):
    app = data.NEEDLE
    if app not in s.apps:
        return "## Needle's blocking per design\n\nNot run."
    blockings = [t for t in s.sweep.blockings(app) if t is not None]
    rows = []
    for d in s.designs:
        chosen = s.sweep.chosen(app, d)
        cells = [d]
        for t in blockings:
            v = data.Variant(design=d, tpb=t)
            r = s.sweep.run(app, v)
            if r is not None:
                text = count(r.cycles)
                cells.append(f"**{text}**" if chosen == v else text)
            elif (app, v) in s.sweep.no_fit:
                cells.append("does not fit")
            else:
                cells.append("did not pass" if s.sweep.has(app, v) else NONE)
        rows.append(cells)
    return ("## Needle's blocking per design\n\nCycles of `nw` at each blocking factor (threads per block; its "
            "CTA's shared memory grows with the square of it), the fastest in bold: the one the other tables use. "
            "\"does not fit\": one CTA needs more shared memory than the design has (the launch is refused).\n\n"
            + table(["design"] + [f"blocking {t}" for t in blockings], rows))


def dram_section(s, image):
    base = {a: s.run(a, data.BASELINE) for a in s.apps}
    out = ("## DRAM accesses\n\nDRAM read and write bursts of each design over 256/64/64's "
           "(`totals.timing.memory.dram.read_bursts + write_bursts`); 256/64/64's own count in the last column.\n\n")
    if image:
        out += f"![DRAM accesses per design]({image})\n\n"
    rows = [[app_label(a)] + [cell(s, s.dram, a, d) for d in s.designs]
            + [count(None if base[a] is None else base[a].dram_accesses)] for a in s.apps]
    out += table(["application"] + s.designs + ["256/64/64 bursts"], rows)
    out += ("\n\nThe study's simulator had no L2 (digest s1.1, s2.2): its DRAM accesses were the L1's misses. "
            "Ours pass an L2 first, so the L1's misses (line and sector misses and, as it writes through, its "
            "writes: `memory.l1d.misses + sector_misses`) over 256/64/64's are the closer comparison:\n\n")
    rows = [[app_label(a)] + ["no L1" if s.no_l1(a, d) else cell(s, s.l1_misses, a, d) for d in s.designs]
            + [count(None if base[a] is None else base[a].l1_misses)] for a in s.apps]
    return (out + table(["application"] + s.designs + ["256/64/64 L1 misses"], rows)
            + "\n\n\"no L1\": the pool's registers and shared memory left the kernel no L1 (`memory.l1d.accesses` is 0): "
            "every global access went to the L2.")


def energy_section(s, image, breakdown_image):
    out = ("## Energy\n\nThe whole run's energy (`totals.timing.energy.total_nj`: core dynamic, DRAM, SRAM leakage "
           "per KB of the SM's storage, core leakage) over 256/64/64's, the study's Fig 7.8.\n\n")
    if image:
        out += f"![Energy per design]({image})\n\n"
    out += per_design_table(s, s.energy)
    out += (f"\n\n### {paper.name_of(BREAKDOWN_APP)}'s energy by part\n\nEach part over 256/64/64's total "
            "(the study's Fig 7.9): SRAM leakage (`components.sram_leakage`, per KB of storage), core leakage "
            "(`components.static`), DRAM (`components.dram`) and the rest of the dynamic energy (the core's, "
            "the storage banks' accesses included).\n\n")
    if breakdown_image:
        out += f"![Energy by part]({breakdown_image})\n\n"
    rows = []
    for d in s.designs:
        parts = s.breakdown(BREAKDOWN_APP, d)
        rows.append([d] + ([num(parts[p]) for p in PARTS] + [num(sum(parts.values()))] if parts
                           else [NONE] * (len(PARTS) + 1)))
    return out + table(["design"] + [plot.PART_LABELS[p] for p in PARTS] + ["total"], rows)


def per_watt_section(s, image):
    out = ("## Performance per watt\n\nWork per joule over 256/64/64's: the same work, so 256/64/64's energy over "
           "the design's.\n\n")
    if image:
        out += f"![Performance per watt per design]({image})\n\n"
    return out + per_design_table(s, s.per_watt)


def partitions_section(s):
    rows = []
    for a in s.apps:
        d = s.division(a)
        regs, spills, threads = paper.TABLE_7_2.get(a, (None, None, None))
        if d is None:
            rows.append([app_label(a)] + [NONE] * 8 + [f"{regs} / {spills} / {threads}"])
            continue
        c = d["carveout"] or {}
        chosen = s.sweep.chosen(a, data.UNIFIED)
        label = app_label(a) + ("" if chosen is None or chosen.tpb is None or a != data.NEEDLE
                                else f", blocking {chosen.tpb}")
        rows.append([label, str(d["regs"]), str(d["spills"]), str(d["threads"]), str(d["ctas"]),
                     kb(c.get("register_bytes")), kb(c.get("shared_bytes")), kb(c.get("l1_bytes")),
                     kb(c.get("unused_bytes")) + f" ({d['limited_by']})", f"{regs} / {spills} / {threads}"])
    return ("## The chosen divisions of unified-384\n\nThe division of the launch with the most cycles "
            "(`kernels[i].timing.occupancy`: `ctas_per_sm`, `carveout`, `limited_by`; registers per thread "
            "`regs_per_thread`, spilled registers `register_allocation.spill_slots`), beside the study's Table 7.2 "
            "(registers / spills / threads per SM). KB per SM; what bounded the CTAs per SM in brackets.\n\n"
            + table(("application", "registers per thread", "spills", "threads per SM", "CTAs per SM",
                     "registers KB", "shared KB", "L1 KB", "unused KB (bound)", "study (Table 7.2)"), rows))


def sensitivity_section(s, images):
    if not any(v.sensitivity for vs in s.sweep.variants.values() for v in vs):
        return "## Sensitivity (one SM, unbounded pool)\n\nNot run (`run.sh --quick`)."
    out = [("## Sensitivity (one SM, unbounded pool)\n\nThe study's s7.2 on unified-384's resource manager with "
            f"a pool of {data.SENS_POOL_BYTES // 1024} KB (shared memory and registers never bound), the L1 fixed "
            "at one size (`min_l1_bytes = max_l1_bytes`) and threads per SM capped by `max_threads`.")]
    out.append(f"### Registers per thread (Fig 7.1)\n\nPerformance at each register budget (the registers per "
               f"thread it gives the main kernel in brackets; budgets below the spill-free count spill) and "
               f"threads per SM, with a {data.SENS_CACHE_KB} KB L1, over the spill-free budget at "
               f"{data.FULL_THREADS} threads.")
    if images.get("registers"):
        out.append(f"![Performance against registers and threads]({images['registers']})")
    rows = []
    for a in data.SENS_APPS:
        perf = s.registers(a)
        for b in s.budgets(a):
            rows.append([app_label(a), f"{b} ({s.budget_registers(a, b) or NONE})"]
                        + [num(perf.get((b, t))) for t in data.SENS_THREADS])
    out.append(table(["application", "budget (registers)"] + [f"{t} threads" for t in data.SENS_THREADS], rows))
    perf, shared = s.blocking()
    out.append(f"### Needle's blocking (Fig 7.2)\n\nPerformance of `nw` at each blocking with a "
               f"{data.SENS_CACHE_KB} KB L1, over the largest blocking's (which holds {num(shared, 1)} KB of "
               f"shared memory per SM here; the study: over {paper.NEEDLE_BLOCKING_GAIN:g}x from "
               f"{paper.NEEDLE_BLOCKINGS[0]} to {paper.NEEDLE_BLOCKINGS[1]}, "
               f"{paper.NEEDLE_BLOCKING_SHARED_KB} KB).")
    out.append(table(("blocking", "performance"), [(str(t), num(v)) for t, v in perf.items()]))
    out.append(f"### Cache size (Fig 7.3)\n\nPerformance at each L1 size with {data.FULL_THREADS} threads per SM "
               f"(GPU-Mummer also at {data.CACHE_THREADS['mummer'][-1]}), over {data.REFERENCE_L1_KB} KB at "
               f"{data.FULL_THREADS} threads.")
    if images.get("cache"):
        out.append(f"![Performance against the L1 size]({images['cache']})")
    rows = []
    for a in data.SENS_APPS:
        perf = s.cache(a)
        for t in data.CACHE_THREADS.get(a, [data.FULL_THREADS]):
            rows.append([app_label(a), str(t)] + [num(perf.get((t, k))) for k in data.SENS_L1_KB])
    out.append(table(["application", "threads"] + [f"{k} KB" for k in data.SENS_L1_KB], rows))
    return "\n\n".join(out)


def banks_section(s):
    configs = [(data.BASELINE, None), (data.BASELINE, "orflrf"), (data.UNIFIED, None), (data.UNIFIED, "orflrf")]
    rows = []
    for a in s.apps:
        stalls = s.arbitration_stalls(a)
        rows.append([app_label(a)] + [pct(s.conflicts(a, d, mod)) for d, mod in configs]
                    + [NONE if stalls is None else f"{stalls[0]:,} / {stalls[1]:,}",
                       signed(s.arbitration_loss(a), 2), signed(s.aggressive_gain(a), 2)])
    rows.append(["**mean**"] + [pct(s.over_apps(lambda a, d=d, mod=mod: s.conflicts(a, d, mod)))
                                for d, mod in configs]
                + [NONE, signed(s.over_apps(s.arbitration_loss), 2), signed(s.over_apps(s.aggressive_gain), 2)])
    rows.append(["study (s7.6)", NONE, NONE, f"{points(paper.CONFLICT_POINTS_ADDED, 0)} over 256/64/64",
                 "below 256/64/64", NONE, signed(paper.ARBITRATION_LOSS, 2), signed(paper.AGGRESSIVE_GAIN, 1)])
    aggressive = ("" if "aggr" in s.mods else
                  f" The aggressive variant was not built: configs/overlays/{data.AGGRESSIVE_OVERLAY}.toml did "
                  "not exist when the sweep was written.")
    hierarchy = [[app_label(a), signed(m_minus_one(s.hierarchy_perf(a))), signed(m_minus_one(s.hierarchy_energy(a)))]
                 for a in s.apps]
    hierarchy.append(["**mean**", signed(m_minus_one(s.over_apps(s.hierarchy_perf))),
                      signed(m_minus_one(s.over_apps(s.hierarchy_energy)))])
    hierarchy_text = ("\n\n### With the register-file hierarchy in front\n\nThe study calls the hierarchy the unified "
                      "design's enabler (its operands come mostly from the ORF and LRF, so the main register banks "
                      "are left to memory passes). Unified-384 over 256/64/64, both with the overlay orf-lrf after "
                      "the design's (the same runs as the conflict columns above): performance change and energy "
                      "change.\n\n"
                      + table(("application", "performance, unified-384 over 256/64/64", "energy"), hierarchy))
    return ("## Bank conflicts and arbitration\n\nInstructions with at least one bank conflict, as a share of the "
            "warp instructions issued (the study's Fig 7.10): (operand reads that waited for a register bank "
            "`sm.register_file.conflicted_collectors` + shared accesses with a conflict replay "
            "`memory.shared.conflicted_accesses` + memory accesses that waited for a register access "
            "`memory.storage_banks.arbitration_accesses`) / `warp_instructions`. It is an upper bound: an "
            "instruction counted in two of them is counted twice. The partitioned designs have no shared "
            "banks: they count no arbitration. With the hierarchy: the overlay orf-lrf after the design's. "
            "Arbitration on unified-384: accesses that waited / cycles they waited "
            "(`memory.storage_banks.arbitration_stalls`); its loss: cycles with it over cycles with "
            "`--set sm.storage_banks.shared_with_registers=false`, − 1. Aggressive: unified-384 with the overlay "
            f"{data.AGGRESSIVE_OVERLAY}, its gain over unified-384.{aggressive}\n\n"
            + table(("application", "256/64/64", "256/64/64 + hierarchy", "unified-384", "unified-384 + hierarchy",
                     "arbitration accesses / stall cycles", "arbitration loss", "aggressive gain"), rows)
            + hierarchy_text)


def failures_section(s, report):
    lines = failure_lines(report, s.sweep.failed)
    if not lines:
        return None
    return ("## Points that did not pass\n\nBesides the blockings that do not fit (Needle's table); every "
            "comparison that needs one of them shows \"–\".\n\n" + "\n".join(lines))


def extreme(values, pick):
    """"+3.1% (BFS)" of the largest (pick=max) or smallest value of {app: value}."""
    if not values:
        return NONE
    app = pick(values, key=values.get)
    return f"{signed(values[app])} ({paper.name_of(app)})"


def names(apps, empty="none"):
    return words((paper.name_of(a) for a in apps), empty)


def spread_over_l1(s):
    """"GPU-Mummer 23.2%, BFS 5.9%": per application, best / worst performance over the L1
    sizes at full threads, - 1."""
    parts = []
    for a in data.SENS_APPS:
        values = [v for (t, _), v in s.cache(a).items() if t == data.FULL_THREADS and v]
        if values:
            parts.append(f"{paper.name_of(a)} {pct(max(values) / min(values) - 1)}")
    return ", ".join(parts) or NONE


def discussion_values(s, h):
    gains = h.changes(s.perf)
    others = {a: g for a, g in gains.items() if a != data.NEEDLE}
    utilisation = [r.dram_utilisation for r in s.sweep.runs.values() if r.dram_utilisation is not None]
    divisions = {a: s.division(a) for a in s.apps}
    needle = divisions.get(data.NEEDLE) or {}
    blocking, _ = s.blocking()
    replays = [None if r is None else r.shared_replays
               for r in (s.run(data.NEEDLE, data.BASELINE), s.run(data.NEEDLE, data.UNIFIED))]
    dgemm = (divisions.get("dgemm-tiled") or {}).get("carveout") or {}
    pcr = [s.breakdown("pcr", d) for d in (data.BASELINE, data.UNIFIED)]
    smallest = {}
    for a in data.SENS_APPS:
        budgets = s.budgets(a)
        value = s.registers(a).get((budgets[-1], data.FULL_THREADS)) if len(budgets) > 1 else None
        if value is not None:
            smallest[a] = value
    sensitive = min(smallest, key=smallest.get) if smallest else None
    configs = ((data.BASELINE, None, "256/64/64"), (data.BASELINE, "orflrf", "256/64/64 with the hierarchy"),
               (data.UNIFIED, None, "unified-384"), (data.UNIFIED, "orflrf", "unified-384 with the hierarchy"))
    mummer = s.registers("mummer")
    mummer_cache = s.cache("mummer")
    fewer = data.CACHE_THREADS["mummer"][-1]
    pcr_run = s.run("pcr", data.UNIFIED)
    no_fit = sorted({(data.APPS.index(a), f"{paper.name_of(a)} at {v.tpb} threads per block on {v.design}")
                     for a, v in s.sweep.no_fit})
    v = {
        "apps": words(app_label(a) for a in s.apps),
        "sizes": s.sweep.size or NONE,
        "designs": str(len(s.designs)),
        "dram_utilisation": pct(max(utilisation), 1) if utilisation else NONE,
        "l2_hits": ", ".join(f"{paper.name_of(a)} {pct(r.l2_hit_rate)}" for a, r in
                             ((a, s.run(a, data.BASELINE)) for a in s.apps) if r and r.l2_hit_rate is not None)
        or NONE,
        "match": pct(hl.MATCH, 0),
        "needle_gain": signed(gains.get(data.NEEDLE)),
        "needle_blocking_gain": NONE if not blocking or not blocking.get(min(blocking)) else
        f"{blocking[max(blocking)] / blocking[min(blocking)]:.2f}x",
        "needle_bound": str(needle.get("limited_by") or NONE),
        "needle_threads": str(needle.get("threads") or NONE),
        "needle_shared_kb": kb((needle.get("carveout") or {}).get("shared_bytes")),
        "needle_replays": " and ".join(num(x, 1) for x in replays),
        "gaining": names([a for a, g in others.items() if g >= hl.MATCH]),
        "flat": names([a for a, g in others.items() if abs(g) < hl.MATCH]),
        "slower": names([a for a, g in others.items() if g <= -hl.MATCH]),
        "dgemm_division": NONE if not dgemm else
        f"registers {kb(dgemm.get('register_bytes'))} KB, shared {kb(dgemm.get('shared_bytes'))} KB, "
        f"L1 {kb(dgemm.get('l1_bytes'))} KB",
        "dram_range": f"{extreme(h.changes(s.dram), min)} to {extreme(h.changes(s.dram), max)}",
        "l1_miss_range": f"{extreme(h.changes(s.l1_misses), min)} to {extreme(h.changes(s.l1_misses), max)}",
        "energy_range": f"{extreme(h.changes(s.energy), min)} to {extreme(h.changes(s.energy), max)}",
        "pcr_dynamic": NONE if None in pcr else f"{num(pcr[0]['core_dynamic'])} to {num(pcr[1]['core_dynamic'])}",
        "per_watt_best": extreme(h.changes(s.per_watt), max),
        "unified_256_not_faster": names([a for a, g in h.changes(s.perf, "unified-256").items() if g <= 0]),
        "limited_not_faster": names([a for a in s.apps if s.limited(a) and s.perf(a, "partition-128-32-32")
                                     and s.perf(a, s.limited(a)) <= s.perf(a, "partition-128-32-32")]),
        "no_fit": words((text for _, text in no_fit), "none"),
        "division_registers": ", ".join(f"{paper.name_of(a)} {d['regs']}" for a, d in divisions.items() if d) or NONE,
        "division_threads": ", ".join(f"{paper.name_of(a)} {d['threads']}" for a, d in divisions.items() if d)
        or NONE,
        "register_sensitive": NONE if sensitive is None else
        f"{paper.name_of(sensitive)}, {num(smallest[sensitive], 2)}",
        "conflict_means": ", ".join(f"{label} {pct(s.over_apps(lambda a, d=d, mod=mod: s.conflicts(a, d, mod)))}"
                                    for d, mod, label in configs),
        "arbitration_loss": signed(s.over_apps(s.arbitration_loss), 2),
        "study_needle_gain": signed(paper.NEEDLE_GAIN),
        "study_register_sensitive": paper.name_of(paper.REGISTER_SENSITIVE),
        "study_mummer_threads": str(paper.MUMMER_BEST_THREADS),
        "baseline_l1_kb": str(data.capacities(data.BASELINE)[1]),
        "mummer_threads": f"{num(mummer.get(('minimal', fewer)))} of its {data.FULL_THREADS}-thread performance "
                          f"at {fewer} threads with a {data.SENS_CACHE_KB} KB L1, "
                          f"{num(mummer_cache.get((fewer, data.REFERENCE_L1_KB)))} with a {data.REFERENCE_L1_KB} KB L1",
        "cache_spread": spread_over_l1(s),
        "pcr_hit": pct(None if pcr_run is None else pcr_run.l1_hit_rate),
        "aggressive_best": extreme(s.values(s.aggressive_gain), max),
        "aggressive_others": extreme(s.values(s.aggressive_gain, [a for a in s.apps if a != data.NEEDLE]),
                                     lambda vs, key: max(vs, key=lambda x: abs(key(x)))),
        "needle_replays_aggressive": " and ".join(
            num(s.shared_replays(data.NEEDLE, data.UNIFIED, mod), 1) for mod in (None, "aggr")),
        "hierarchy_perf": extreme(s.values(lambda a: m_minus_one(s.hierarchy_perf(a))), max),
        "hierarchy_energy": f"{extreme(s.values(lambda a: m_minus_one(s.hierarchy_energy(a))), min)} to "
                            f"{extreme(s.values(lambda a: m_minus_one(s.hierarchy_energy(a))), max)}",
    }
    for group in ("performance", "dram", "designs", "banks"):
        v[f"not_met_{group}"] = not_met_text(h, group)
    v["not_met_energy"] = not_met_text(h, "energy", "per_watt")
    return v


def render(report):
    sweep = data.Sweep(report)
    s = Study(sweep)
    h = hl.Headlines(s).build()
    stem = page_stem(report)
    images = {
        "performance": plot.designs(report, stem, s, "performance", s.perf, "performance, 256/64/64 = 1"),
        "dram": plot.designs(report, stem, s, "dram", s.dram, "DRAM accesses, 256/64/64 = 1"),
        "energy": plot.designs(report, stem, s, "energy", s.energy, "energy, 256/64/64 = 1"),
        "per_watt": plot.designs(report, stem, s, "perf-per-watt", s.per_watt, "performance per watt, 256/64/64 = 1"),
        "breakdown": plot.breakdown(report, stem, s, BREAKDOWN_APP),
        "registers": plot.registers(report, stem, s),
        "cache": plot.cache(report, stem, s),
    }
    discussion = placeholders.fill_file(os.path.join(HERE, "discussion.md"), discussion_values(s, h),
                                        DISCUSSION)
    parts = [
        "# Unified on-chip storage: registers, shared memory and L1 in one pool: results",
        generated_note(f"{FOLDER}/unified_page.py", DISCUSSION),
        runs_text(report, FOLDER) + ".  \n"
        f"Statistics: warpsim {sweep.version() or NONE}, configuration {data.CONFIG}, one SM, sizes: "
        f"{sweep.size or NONE}.  \n"
        + page_command(f"{FOLDER}/unified_page.py", f"{FOLDER}/run.sh", "all three steps"),
        "Source: the unified-storage study (Gebhart's thesis, chapter 7; digest "
        "`../shared/digests/rf-hierarchy-and-unified-memory.md` s1.3, s2.3, s7). What is modelled and every "
        "assumption: `src/mech/unified_storage/README.md`. Performance is 1 / the run's total cycles (all its "
        "launches), performance per watt 1 / its energy; definitions: `unified_data.py`, `unified_metrics.py`.",
        designs_section(report, s), applications_section(s), headline_section(h),
        performance_section(s, images["performance"]), needle_section(s), dram_section(s, images["dram"]),
        energy_section(s, images["energy"], images["breakdown"]), per_watt_section(s, images["per_watt"]),
        partitions_section(s), sensitivity_section(s, images), banks_section(s),
        "## Discussion\n\n" + discussion,
    ]
    failures = failures_section(s, report)
    if failures:
        parts.append(failures)
    return "\n\n".join(parts) + "\n"
