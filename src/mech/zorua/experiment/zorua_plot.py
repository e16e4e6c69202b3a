"""The Zorua page's plots (PNG beside the page, through report.save_figure): performance against
the resource specification per application (the study's cliff figure, Fig. 37), and per
generation for NQU and DCT (its portability figures, Figs. 39 and 40). Each function returns the
file name for the Markdown, or None when the report draws no plots or there is nothing to draw."""

import zorua_data as data

COLOURS = {"base": "#e6550d", "wlm": "#756bb1", "zorua": "#08519c"}
# Baseline and WLM often coincide: WLM dashed over a wider baseline line keeps both visible.
STYLES = {"base": ("-", 2.4, "o"), "wlm": ("--", 1.2, "s"), "zorua": ("-", 1.2, "^")}
GENERATION_COLOURS = {"gtx480": "#31a354", "k40": "#e6550d", "gtx980": "#3182bd"}
PORTABILITY_APPS = ["nqueens", "dct8x8"]


def _nan(x):
    return float("nan") if x is None else x


def _spec_axis(axes, specs):
    axes.set_xticks(list(range(len(specs))))
    axes.set_xticklabels([data.spec_label(s) for s in specs], rotation=90, fontsize=6)
    axes.set_xlim(-0.5, len(specs) - 0.5)


def cliffs(report, stem, study):
    """One panel per application: each design's performance at each specification (threads per
    block, then shared bytes, then register budget), normalised to the baseline's best."""
    plt = report.pyplot()
    apps = [a for a in study.apps if study.specs(a)]
    if plt is None or not apps:
        return None
    figure, panels = plt.subplots(len(apps), 1, figsize=(11, 3.2 * len(apps)), squeeze=False)
    for axes, app in zip((p[0] for p in panels), apps):
        specs = study.specs(app)
        base = study.perf(app, "base") if "base" in study.designs else {}
        best = max(base.values(), default=None)
        for design in study.designs:
            perf = study.perf(app, design)
            style, width, marker = STYLES.get(design, ("-", 1.2, "o"))
            axes.plot(range(len(specs)), [_nan(data.ratio(perf.get(s), best)) for s in specs], marker=marker,
                      markersize=3, linestyle=style, linewidth=width, color=COLOURS.get(design),
                      label=data.LABELS.get(design, design))
        _spec_axis(axes, specs)
        axes.set_ylabel("performance,\nbaseline's best = 1", fontsize=8)
        axes.set_title(f"{app} ({study.config})", fontsize=9)
        axes.grid(axis="y", linewidth=0.3)
    panels[0][0].legend(fontsize=8, loc="lower right")
    figure.tight_layout()
    return report.save_figure(figure, f"{stem}-cliffs.png")


def portability(report, stem, study):
    """For NQU and DCT, one panel per design: the performance at each specification on each
    generation, normalised to that generation's best."""
    plt = report.pyplot()
    apps = [a for a in PORTABILITY_APPS if a in study.apps]
    configs = study.sweep.configs
    if plt is None or not apps or len(configs) < 2:
        return None
    designs = study.designs
    figure, panels = plt.subplots(len(apps), len(designs), figsize=(4.2 * len(designs), 3.4 * len(apps)),
                                  squeeze=False, sharey=True)
    for row, app in zip(panels, apps):
        specs = study.sweep.specs.get(app, [])
        for axes, design in zip(row, designs):
            for config in configs:
                perf = study.sweep.performance(app, config, design, specs)
                best = max(perf.values(), default=None)
                axes.plot(range(len(specs)), [_nan(data.ratio(perf.get(s), best)) for s in specs], marker="o",
                          markersize=2.5, linewidth=1.0, color=GENERATION_COLOURS.get(config),
                          label=f"{data.GENERATIONS.get(config, config)} ({config})")
            _spec_axis(axes, specs)
            axes.set_title(f"{app}: {data.LABELS.get(design, design)}", fontsize=9)
            axes.grid(axis="y", linewidth=0.3)
        row[0].set_ylabel("performance,\nthe generation's best = 1", fontsize=8)
    panels[0][0].legend(fontsize=7, loc="lower left")
    figure.tight_layout()
    return report.save_figure(figure, f"{stem}-portability.png")
