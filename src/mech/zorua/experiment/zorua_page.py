"""The Zorua results page, a `warpsim report` template: render(report) returns docs/results/zorua.md
and draws its plots beside it, from the sweep spec.py writes (run.sh):

  warpsim report build/experiments/zorua/sweep --template src/mech/zorua/experiment/zorua_page.py \\
      --out docs/results/zorua.md

Definitions: zorua_data.py; metrics: zorua_metrics.py (on tables) and zorua_study.py (on the
sweep); the headline rules: zorua_headlines.py; the study's numbers: zorua_paper.py. The
discussion (discussion.md) is a template whose {name} placeholders are filled from the same
metrics (placeholders.fill), so no number on the page is typed by hand. Missing runs do not stop
it: what cannot be computed shows as "–".
"""

import os

import placeholders  # scripts/report, on the path of a template
import zorua_data as data
import zorua_headlines as hl
import zorua_paper as paper
import zorua_plot as plot
from page_text import (NONE, generated_note, not_met_text, page_command, page_stem, pct,  # scripts/report
                       runs_text, signed)
from report_markdown import table, words  # scripts/report
from summary_stats import mean
from zorua_study import Study

HERE = os.path.dirname(os.path.abspath(__file__))
FOLDER = "src/mech/zorua/experiment"
DISCUSSION = f"{FOLDER}/discussion.md"


def num(x, digits=2):
    return NONE if x is None else f"{x:.{digits}f}"


def generation(config):
    return f"{config} ({data.GENERATIONS[config]})" if config in data.GENERATIONS else config


def spread(values, fmt, dash="–"):
    """'lo–hi' of the values (one value when they agree), '–' when there are none."""
    values = [v for v in values if v is not None]
    if not values:
        return NONE
    lo, hi = min(values), max(values)
    return fmt(lo) if fmt(lo) == fmt(hi) else f"{fmt(lo)}{dash}{fmt(hi)}"


def plural(n, word):
    return f"{n} {word}" + ("" if n == 1 else "s")


def app_label(app):
    name = paper.name_of(app)
    return app if name == app else f"{name} (`{app}`)"


# Sections.

def designs_section(s):
    rows = []
    for d in data.DESIGNS:
        if d in s.designs:
            rows.append((data.LABELS[d], "none" if d == "base" else f"`--overlay {d}`",
                         next((t for k, t in (("base", "static allocation per CTA of registers, shared memory "
                                                "and warp slots (the configuration's resource manager)"),
                                               ("wlm", "warp-level management (Xiang et al.): a CTA starts when "
                                                "its resources are free, each warp returns its registers and "
                                                "slot when it exits"),
                                               ("zorua", "registers, scratchpad and warp slots virtualised per warp "
                                                "and phase, oversubscribed into swap space up to an adaptive "
                                                "threshold (`src/mech/zorua/README.md`)")) if k == d))))
        else:
            rows.append((data.LABELS[d], f"`--overlay {d}`", "**not run**: configs/overlays/wlm.toml did not exist "
                         "when the sweep was written" if d == "wlm" else "**not run**"))
    return ("## Designs\n\nEvery design runs every specification with the same register budget "
            f"(`--set {data.BUDGET_KEY}=\"B\"`: the overlays' own \"minimal\" is replaced by the "
            "specification's budget), so the designs run the same programs.\n\n"
            + table(("design", "options", "what it models"), rows))


def applications_section(s):
    rows = []
    config = s.config
    for app in s.apps:
        specs = s.sweep.specs.get(app, [])
        threads = sorted({t for t, _, _ in specs})
        shared = sorted({sh for _, sh, _ in specs if sh is not None})
        budgets = sorted({b for _, _, b in specs}, key=data.budget_order)
        regs = []
        for b in budgets:
            values = [r.registers_per_thread() for sp, r in
                      s.values(app, "base", lambda r: r).items() if sp[2] == b]
            regs.append(f"{b}: {spread(values, str)}")
        base_runs = list(s.values(app, "base", lambda r: r).values())
        barriers = mean(data.ratio(1000 * r.barriers, r.warp_instructions) for r in base_runs)
        rows.append((app_label(app), str(len(specs)), ", ".join(map(str, threads)),
                     ", ".join(map(str, shared)) or "none", "; ".join(regs),
                     spread([r.waves() for r in base_runs], lambda x: f"{x:.1f}"), num(barriers, 1)))
    missing = [f"{a}: {note}" for a, w, note in paper.APPLICATIONS if w is None]
    lo, hi, avg = paper.SPECS_PER_APP
    return ("## Applications and specifications\n\nEach application at every combination of the threads "
            "per block, shared bytes per block and register budgets shown (`spec.py`; the study: "
            f"{lo}–{hi} specifications per application, {avg} on average). Registers per thread: the "
            "largest kernel's at each budget (`minimal` is the allocator's spill-free count; a number "
            "caps it, spilling the rest). Waves: the main kernel's largest launch over the CTAs the GPU "
            f"holds at once under the baseline on {config}, smallest and largest over the specifications. "
            "Barriers: `bar.sync` and kin per 1,000 warp instructions (the baseline's runs).\n\n"
            + table(("application", "specifications", "threads per block", "shared bytes per block",
                     "registers per thread (budget: registers)", "waves", "barriers per 1k"), rows)
            + "\n\nThe study's applications without a counterpart here:\n\n"
            + "\n".join(f"- {m}" for m in missing))


def headline_section(h):
    rules = ("Marked by the rules of `zorua_headlines.py`: a change the study reports is met when ours "
             "has its sign and at least half its size; a reduction from the baseline to Zorua when ours "
             "is, relative to the baseline's, at least half the study's; an order between designs when "
             f"it holds; a hit rate when ours is at most {pct(hl.RATE_TOLERANCE, 0)} below the study's. "
             f"Means over the applications on {h.s.config} (the porting loss: across the generations).")
    rows = [(r.result, r.study, r.ours, r.verdict, r.reason or NONE) for r in h.rows]
    return "## Headline numbers\n\n" + rules + "\n\n" + table(("result", "study", "ours", "", "why"), rows)


def range_section(s, image):
    configs = s.sweep.configs
    designs = s.designs
    header = ["application"] + [f"{data.LABELS[d]} {c}" for c in configs for d in designs]
    rows = [[app_label(a)] + [pct(s.range(a, d, c)) for c in configs for d in designs] for a in s.apps]
    rows.append(["**mean**"] + [pct(s.over_apps(lambda a, d=d, c=c: s.range(a, d, c)))
                                for c in configs for d in designs])
    rows.append(["study (A.10)"] + [pct(paper.RANGE.get(d)) if c == s.config else NONE
                                    for c in configs for d in designs])
    out = ("## Performance range\n\n1 − performance of the worst specification / of the best, per "
           "application and design on each generation (the specifications every design ran there); the "
           f"study's means are for its own GPU, set beside our {s.config}.\n\n")
    if image:
        out += f"![Performance against the specification]({image})\n\n"
    return out + table(header, rows)


def gains_section(s):
    configs = s.sweep.configs
    rows = []
    for a in s.apps:
        rows.append([app_label(a)] + [signed(s.best_gain(a, "zorua", c)) for c in configs]
                    + [signed(s.average_gain(a, "zorua", c)) for c in configs]
                    + ([signed(s.best_gain(a, "wlm", s.config)), signed(s.average_gain(a, "wlm", s.config))]
                       if "wlm" in s.designs else []))
    mean_row = ["**mean**"] + [signed(s.over_apps(lambda a, c=c: s.best_gain(a, "zorua", c))) for c in configs] \
        + [signed(s.over_apps(lambda a, c=c: s.average_gain(a, "zorua", c))) for c in configs]
    study_row = ["study (A.10)"] + [signed(paper.BEST_GAIN) if c == s.config else NONE for c in configs] \
        + [signed(paper.AVERAGE_GAIN) if c == s.config else NONE for c in configs]
    header = (["application"] + [f"Zorua best {c}" for c in configs] + [f"Zorua all {c}" for c in configs])
    if "wlm" in s.designs:
        mean_row += [signed(s.over_apps(lambda a: s.best_gain(a, "wlm"))),
                     signed(s.over_apps(lambda a: s.average_gain(a, "wlm")))]
        study_row += [NONE, NONE]
        header += [f"WLM best {s.config}", f"WLM all {s.config}"]
    rows += [mean_row, study_row]
    return ("## Performance gains\n\nBest: the design's best specification over the baseline's best, − 1. "
            "All: the mean over the specifications of the design's performance over the baseline's at the "
            f"same specification, − 1 (the study: up to {signed(paper.BEST_GAIN_MAX[0])} on DCT at the best "
            "specification).\n\n" + table(header, rows))


def porting_section(s, image):
    designs = s.designs
    rows = []
    for a in s.apps:
        cells = [app_label(a)]
        for d in designs:
            loss, where = s.porting(a, d)
            cells.append(pct(loss) if where is None else
                         f"{pct(loss)} ({where[0]} → {where[1]} at {data.spec_label(where[2])})")
        cells.append(pct(paper.PORTING_ZORUA.get(a)))
        rows.append(cells)
    rows.append(["**mean**"] + [pct(s.over_apps(lambda a, d=d: s.porting(a, d)[0])) for d in designs] + [NONE])
    rows.append(["study (A.10)"] + [pct(paper.PORTING.get(d)) for d in designs] + [NONE])
    out = ("## Porting performance loss\n\nThe study's five steps (A.10): on each generation, every "
           "specification's performance over that generation's best; for every ordered pair (source, "
           "target), the specifications within "
           f"{pct(0.05, 0)} of the source's best; the loss of each on the target, 1 − its normalised "
           "performance there; the maximum over specifications and pairs (where it occurs in brackets: "
           "source → target at threads/shared/budget). Generations: "
           + words(generation(c) for c in s.sweep.configs) + ".\n\n")
    if image:
        out += f"![Performance per generation, NQU and DCT]({image})\n\n"
    return out + table(["application"] + [data.LABELS[d] for d in designs] + ["study, Zorua"], rows)


def warps_section(s):
    designs = s.designs
    others = [d for d in designs if d != "base"]
    rows = []
    for a in s.apps:
        rows.append([app_label(a)] + [num(s.mean_warps(a, d), 1) for d in designs]
                    + [signed(s.warps_change(a, d)) for d in others])
    rows.append(["**mean**"] + [num(s.over_apps(lambda a, d=d: s.mean_warps(a, d)), 1) for d in designs]
                + [signed(s.over_apps(lambda a, d=d: s.warps_change(a, d))) for d in others])
    rows.append(["study (A.10)"] + [NONE] * len(designs) + [signed(paper.SCHEDULABLE.get(d)) for d in others])
    return ("## Schedulable warps\n\nWarps per SM the schedulers may pick, averaged over the SMs' active "
            f"cycles and the specifications, on {s.config}. Zorua: its coordinator's schedulable warps "
            "(`resources.zorua.schedulable_warp_cycles / cycles`), which excludes warps at a barrier or "
            "waiting in its queues. Baseline and WLM: their resident warps "
            "(`sm.resident_warp_cycles / sm.active_cycles`), which includes warps at a barrier. Change: "
            "the mean over the specifications of the design's count over the baseline's, − 1.\n\n"
            + table(["application"] + [data.LABELS[d] for d in designs]
                    + [f"{data.LABELS[d]} vs Baseline" for d in others], rows))


def virtual_section(s):
    if "zorua" not in s.designs:
        return "## Virtual resources\n\nNot run: the sweep has no Zorua runs."
    rows = []
    for a in s.apps:
        moved, total = s.swapping_runs(a)
        rows.append([app_label(a), f"{s.zorua_total(a, ('registers', 'accesses')) or 0:,}",
                     f"{s.zorua_total(a, ('registers', 'off_chip_accesses')) or 0:,}",
                     pct(s.register_hit_rate(a), 2),
                     f"{s.zorua_total(a, ('registers', 'spills')) or 0:,}",
                     f"{s.zorua_total(a, ('scratchpad', 'spills')) or 0:,}",
                     f"{s.zorua_total(a, ('warp_slots', 'saves')) or 0:,}",
                     f"{s.zorua_total(a, ('oversubscribed_grants',)) or 0:,}",
                     f"{s.zorua_total(a, ('forced_grants',)) or 0:,}", f"{moved} of {total}"])
    rows.append(["**mean**", NONE, NONE, pct(s.over_apps(s.register_hit_rate), 2)] + [NONE] * 6)
    rows.append(["study (A.10)", NONE, NONE, pct(paper.HIT_RATE["registers"])] + [NONE] * 6)
    return ("## Virtual resources\n\nZorua's runs on "
            f"{s.config}, added up over each application's specifications: register-set accesses of issued "
            "instructions, those that found a set in swap space (hit rate: 1 − off-chip / accesses, the "
            "mean over the specifications), register sets, scratchpad sets and warp states moved to swap, "
            "grants that oversubscribed (within the threshold) and that were forced (fewer than 20% of the "
            "warp slots schedulable), and the runs that moved anything to swap. Scratchpad accesses are "
            "not counted: no access can find its set in swap (Headline numbers), the study's "
            f"{pct(paper.HIT_RATE['scratchpad'])} is not measured here.\n\n"
            + table(("application", "register accesses", "off chip", "register hit rate", "register sets to swap",
                     "scratchpad sets to swap", "warp states saved", "oversubscribed grants", "forced grants",
                     "runs that swapped"), rows))


def energy_section(s):
    others = [d for d in s.designs if d != "base"]
    configs = s.sweep.configs
    rows = [[app_label(a)] + [signed(s.energy_change(a, d, c)) for c in configs for d in others]
            for a in s.apps]
    rows.append(["**mean**"] + [signed(s.over_apps(lambda a, d=d, c=c: s.energy_change(a, d, c)))
                                for c in configs for d in others])
    rows.append(["study (A.10)"] + [signed(paper.ENERGY) if (d == "zorua" and c == s.config) else NONE
                                    for c in configs for d in others])
    return ("## Energy\n\nThe whole GPU's energy (static and dynamic, DRAM included; `docs/energy.md`) of "
            "each design against the baseline: the mean over the specifications of the design's energy "
            "over the baseline's at the same specification, − 1 (the study: "
            f"{signed(paper.ENERGY_MAX[0])} on DCT, {signed(paper.ENERGY_NQU)} on NQU).\n\n"
            + table(["application"] + [f"{data.LABELS[d]} {c}" for c in configs for d in others], rows))


def failures_section(report):
    bad = [p for p in report.points if p.status != "pass"]
    if not bad:
        return None
    lines = [f"- {' '.join(f'{k}={v}' for k, v in p.axes.items())}: {p.status}"
             + (f" ({(report.result(p) or {}).get('reason', '')})" if report.result(p) else "")
             for p in bad]
    return ("## Points that did not pass\n\nTheir specifications are left out of every comparison on "
            "their generation.\n\n" + "\n".join(lines))


def worst_specs(s):
    """Each application's worst specification under the baseline on the headline generation, with
    the baseline's and Zorua's performance there over the baseline's best."""
    parts = []
    for a in s.apps:
        base = s.perf(a, "base")
        if not base:
            continue
        best = max(base.values())
        worst = min(base, key=lambda spec: (base[spec], data.spec_order(spec)))
        zorua = s.perf(a, "zorua") if "zorua" in s.designs else {}
        z = f", Zorua {zorua[worst] / best:.2f}" if worst in zorua else ""
        parts.append(f"{app_label(a)} at {data.spec_label(worst)} (Baseline {base[worst] / best:.2f}{z})")
    return "; ".join(parts) or NONE


def discussion_values(s, h):
    counts = [len(s.sweep.specs.get(a, [])) for a in s.apps]
    lo, hi, avg = paper.SPECS_PER_APP
    budgets = []
    for a in s.apps:
        below = [b for _, _, b in s.sweep.specs.get(a, []) if b != "minimal"]
        budgets.append(f"{a}: " + (", ".join(sorted(set(below), key=data.budget_order)) or "none"))
    waves = [r.waves() for a in s.apps for r in s.values(a, "base", lambda r: r).values()]
    moved, total = s.swapping_runs()
    v = {
        "study_specs": f"{lo}–{hi} ({avg} on average)",
        "app_count": plural(len(s.apps), "application"),
        "app_names": words(app_label(a) for a in s.apps),
        "specs": str(sum(counts)),
        "spec_range": spread(counts, str),
        "spec_mean": (f"{mean(counts):.1f}".rstrip("0").rstrip(".") if counts else NONE),
        "generations": words(generation(c) for c in s.sweep.configs),
        "size": str(s.sweep.size),
        "sms": s.sweep.sms() or NONE,
        "designs": words(data.LABELS[d] for d in s.designs),
        "wlm_note": "" if "wlm" in s.designs else " WLM was not run: configs/overlays/wlm.toml did not exist "
                                                   "when the sweep was written.",
        "budget_note": "register budgets below the spill-free count: " + "; ".join(budgets),
        "headline_config": s.config or NONE,
        "waves": spread(waves, lambda x: f"{x:.1f}", " to "),
        "swap_runs": f"{moved} of {total}",
        "worst_specs": worst_specs(s),
    }
    v["not_met_range"] = not_met_text(h, "range", "gain")
    for group in ("porting", "warps", "hit", "energy"):
        v[f"not_met_{group}"] = not_met_text(h, group)
    return v


def render(report):
    sweep = data.Sweep(report)
    s = Study(sweep)
    h = hl.Headlines(s).build()
    stem = page_stem(report)
    images = {"cliffs": plot.cliffs(report, stem, s), "portability": plot.portability(report, stem, s)}
    discussion = placeholders.fill_file(os.path.join(HERE, "discussion.md"), discussion_values(s, h),
                                        DISCUSSION)
    version = next((r.version for r in sweep.runs.values() if r.version), NONE)
    parts = [
        "# Zorua: resource virtualisation across resource specifications: results",
        generated_note(f"{FOLDER}/zorua_page.py", DISCUSSION),
        runs_text(report, FOLDER) + ".  \n"
        f"Statistics: warpsim {version}, size {sweep.size}, {sweep.sms() or NONE} SM(s) per GPU, generations "
        f"{words(generation(c) for c in sweep.configs)}; headline generation {s.config}.  \n"
        + page_command(f"{FOLDER}/zorua_page.py", f"{FOLDER}/run.sh", "all three steps"),
        "Source: the Zorua study (thesis chapter 4; digest `../shared/digests/zorua-and-caba-assist-warps.md` "
        "A.1, A.9, A.10). What is modelled and every assumption: `src/mech/zorua/README.md`. Performance is "
        "1 / the run's total cycles (all its kernel launches); definitions: `zorua_data.py`, "
        "`zorua_metrics.py`.",
        designs_section(s), applications_section(s), headline_section(h), range_section(s, images["cliffs"]),
        gains_section(s), porting_section(s, images["portability"]), warps_section(s), virtual_section(s),
        energy_section(s), "## Discussion\n\n" + discussion,
    ]
    failures = failures_section(report)
    if failures:
        parts.append(failures)
    return "\n\n".join(parts) + "\n"
