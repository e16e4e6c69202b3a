"""The unified-storage page's plots (PNG beside the page, through report.save_figure): per design and
application the study's Fig 7.7 and 7.8 quantities as grouped bars, PCR's energy breakdown
(Fig 7.9) as stacked bars, and the sensitivity study (Figs 7.1 to 7.3) as lines. Each function
returns the file name for the Markdown, or None when the report draws no plots or there is
nothing to draw."""

import unified_data as data
import unified_paper as paper

# Fixed designs in oranges, limited in greens, unified in blues: the families stay apart.
COLOURS = {"partition-128-32-32": "#fdd0a2", "partition-128-64-64": "#fdae6b", "partition-256-64-64": "#e6550d",
           "partition-256-256-256": "#a63603", "partition-512-512-512": "#7f2704", "limited-16-48": "#a1d99b",
           "limited-48-16": "#31a354", "unified-128": "#c6dbef", "unified-256": "#6baed6", "unified-384": "#2171b5",
           "unified-512": "#08306b"}
PART_COLOURS = {"sram_leakage": "#756bb1", "core_leakage": "#bcbddc", "dram": "#e6550d", "core_dynamic": "#fdae6b"}
PART_LABELS = {"sram_leakage": "SRAM leakage", "core_leakage": "core leakage", "dram": "DRAM dynamic",
               "core_dynamic": "core dynamic (banks included)"}


def _nan(x):
    return float("nan") if x is None else x


def designs(report, stem, study, name, f, ylabel):
    """Grouped bars: per application, f(app, design) of every design (1 = 256/64/64)."""
    plt = report.pyplot()
    apps, ds = study.apps, study.designs
    if plt is None or not apps or not ds:
        return None
    figure, axes = plt.subplots(figsize=(13, 4.8))
    width = 0.8 / len(ds)
    for i, d in enumerate(ds):
        xs = [a + (i - (len(ds) - 1) / 2) * width for a in range(len(apps))]
        axes.bar(xs, [_nan(f(app, d)) for app in apps], width, color=COLOURS.get(d), label=d)
    axes.axhline(1.0, color="black", linewidth=0.6)
    axes.set_xticks(list(range(len(apps))))
    axes.set_xticklabels([paper.name_of(a) for a in apps])
    axes.set_ylabel(ylabel)
    axes.grid(axis="y", linewidth=0.3)
    axes.legend(fontsize=7, ncol=6, loc="upper center", bbox_to_anchor=(0.5, -0.08))
    figure.tight_layout()
    return report.save_figure(figure, f"{stem}-{name}.png")


def breakdown(report, stem, study, app):
    """Stacked bars: the app's energy parts on every design, over 256/64/64's total."""
    plt = report.pyplot()
    parts = {d: study.breakdown(app, d) for d in study.designs}
    parts = {d: p for d, p in parts.items() if p}
    if plt is None or not parts:
        return None
    figure, axes = plt.subplots(figsize=(10, 4))
    ds = list(parts)
    bottom = [0.0] * len(ds)
    for part in PART_COLOURS:
        heights = [parts[d][part] for d in ds]
        axes.bar(range(len(ds)), heights, 0.6, bottom=bottom, color=PART_COLOURS[part], label=PART_LABELS[part])
        bottom = [b + h for b, h in zip(bottom, heights)]
    axes.set_xticks(list(range(len(ds))))
    axes.set_xticklabels(ds, rotation=30, ha="right", fontsize=8)
    axes.set_ylabel(f"{paper.name_of(app)} energy,\n256/64/64 = 1")
    axes.grid(axis="y", linewidth=0.3)
    axes.legend(fontsize=8)
    figure.tight_layout()
    return report.save_figure(figure, f"{stem}-energy-breakdown.png")


def registers(report, stem, study):
    """Fig 7.1: per application, a line per register budget over threads per SM."""
    plt = report.pyplot()
    apps = [a for a in data.SENS_APPS if study.registers(a)]
    if plt is None or not apps:
        return None
    figure, panels = plt.subplots(1, len(apps), figsize=(3.2 * len(apps), 3.2), squeeze=False, sharey=True)
    for axes, app in zip(panels[0], apps):
        perf = study.registers(app)
        for b in study.budgets(app):
            regs = study.budget_registers(app, b)
            axes.plot(data.SENS_THREADS, [_nan(perf.get((b, t))) for t in data.SENS_THREADS], marker="o",
                      markersize=3, label=f"{b} ({regs} regs)" if regs is not None else b)
        axes.set_title(paper.name_of(app), fontsize=9)
        axes.set_xticks(data.SENS_THREADS)
        axes.set_xlabel("threads per SM", fontsize=8)
        axes.grid(linewidth=0.3)
        axes.legend(fontsize=6)
    panels[0][0].set_ylabel("performance,\nminimal at 1,024 threads = 1", fontsize=8)
    figure.tight_layout()
    return report.save_figure(figure, f"{stem}-registers.png")


def cache(report, stem, study):
    """Fig 7.3: per application (and thread count), performance over the L1 size."""
    plt = report.pyplot()
    lines = []
    for app in data.SENS_APPS:
        perf = study.cache(app)
        for t in data.CACHE_THREADS.get(app, [data.FULL_THREADS]):
            if any(k[0] == t for k in perf):
                label = paper.name_of(app) + ("" if t == data.FULL_THREADS else f", {t} threads")
                lines.append((label, [perf.get((t, k)) for k in data.SENS_L1_KB]))
    if plt is None or not lines:
        return None
    figure, axes = plt.subplots(figsize=(7, 4))
    for label, values in lines:
        axes.plot(range(len(data.SENS_L1_KB)), [_nan(v) for v in values], marker="o", markersize=3, label=label)
    axes.set_xticks(list(range(len(data.SENS_L1_KB))))
    axes.set_xticklabels([f"{k} KB" for k in data.SENS_L1_KB])
    axes.set_xlabel("L1 size")
    axes.set_ylabel("performance,\n512 KB at 1,024 threads = 1")
    axes.grid(linewidth=0.3)
    axes.legend(fontsize=7)
    figure.tight_layout()
    return report.save_figure(figure, f"{stem}-cache.png")
