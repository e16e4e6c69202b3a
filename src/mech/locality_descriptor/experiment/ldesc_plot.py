"""The Locality Descriptor page's plots (PNG beside the page, through report.save_figure): the
selection filter, speedup and L1 hit rate per application and configuration (the study's Fig. 20a
and 20b) as grouped bars, the motivation study's working set per strategy as lines, and the NUMA
study's bandwidth filter, speedup (Fig. 21) and access efficiency (Fig. 22) as grouped bars. Each
function returns the file name for the Markdown, or None when the report draws no plots or there
is nothing to draw."""

import ldesc_data as data

COLOURS = {"base": "#969696", "bcs": "#fdae6b", "ldesc-sched": "#9ecae1", "ldesc-pref": "#6baed6",
           "ldesc-cache": "#2171b5", "ldesc": "#08306b", "numa-base": "#969696", "numa-first-touch": "#fdae6b",
           "ldesc-placement": "#6baed6", "ldesc-numa": "#08306b"}
NAMES = dict(data.CONFIG_NAMES, **data.NUMA_NAMES)


def _nan(x):
    return float("nan") if x is None else x


def _bars(report, stem, name, apps, variants, f, ylabel, line=None, mean_label=None, mean=None):
    plt = report.pyplot()
    if plt is None or not apps or not variants:
        return None
    groups = [data.abbreviation(a) for a in apps] + ([mean_label] if mean_label else [])
    figure, axes = plt.subplots(figsize=(max(6.0, 1.1 * len(groups) + 2), 4.2))
    width = 0.8 / len(variants)
    for i, v in enumerate(variants):
        values = [f(a, v) for a in apps] + ([mean(v)] if mean_label else [])
        xs = [g + (i - (len(variants) - 1) / 2) * width for g in range(len(groups))]
        axes.bar(xs, [_nan(x) for x in values], width, color=COLOURS.get(v), label=NAMES.get(v, v))
    if line is not None:
        axes.axhline(line, color="black", linewidth=0.6)
    axes.set_xticks(list(range(len(groups))))
    axes.set_xticklabels(groups)
    axes.set_ylabel(ylabel)
    axes.grid(axis="y", linewidth=0.3)
    if len(variants) > 1:
        axes.legend(fontsize=7, ncol=len(variants), loc="upper center", bbox_to_anchor=(0.5, -0.08))
    figure.tight_layout()
    return report.save_figure(figure, f"{stem}-{name}.png")


def filter_bars(report, stem, study):
    """The selection filter: the 4x L1's speedup per application, the threshold as a line."""
    apps = [a for a in study.apps if study.filter_speedup(a) is not None]
    return _bars(report, stem, "filter", apps, [data.FILTER], lambda a, v: study.filter_speedup(a),
                 f"speedup of a {data.FILTER_FACTOR}x L1,\nBaseline = 1", line=1.0 + data.FILTER_GAIN)


def speedup_bars(report, stem, study, apps):
    variants = [v for v, _, _ in data.CONFIGS]
    return _bars(report, stem, "speedup", apps, variants, study.speedup, "speedup over Baseline", line=1.0,
                 mean_label="mean", mean=lambda v: study.over(lambda a: study.speedup(a, v), apps))


def hit_rate_bars(report, stem, study, apps):
    variants = [v for v, _, _ in data.CONFIGS]

    def rate(a, v):
        r = study.run(a, v)
        return None if r is None else r.hit_rate

    return _bars(report, stem, "hit-rate", apps, variants, rate, "L1 hit rate (hits / accesses)",
                 mean_label="mean", mean=lambda v: study.over(lambda a: rate(a, v), apps))


def working_set(report, stem, study):
    """The motivation study: per application, the per-SM working set of each strategy over the
    Baseline's (shapes along x in SHAPES's order). When no application's grids span z, a shape
    with Z > 1 equals its Z = 1 shape everywhere, so only Z = 1 is drawn."""
    plt = report.pyplot()
    lines = [(a, study.ws_by_shape(a)) for a in study.motivation_apps]
    lines = [(a, ws) for a, ws in lines if ws]
    if plt is None or not lines:
        return None
    shapes = data.SHAPES
    if not any("z" in data.GRID_DIMS.get(a, "x") for a, _ in lines):
        shapes = [s for s in shapes if s[2] == 1]
    figure, axes = plt.subplots(figsize=(10, 4.8))
    colours = plt.get_cmap("tab20").colors  # 14 applications: the default cycle of 10 would repeat
    for i, (a, ws) in enumerate(lines):
        axes.plot(range(len(shapes)), [_nan(ws.get(s)) for s in shapes], marker="os^D"[i % 4], markersize=3,
                  linewidth=0.9, color=colours[(2 * i) % 20 + (i // 10) % 2], label=data.abbreviation(a))
    axes.axhline(1.0, color="black", linewidth=0.6)
    axes.set_xticks(list(range(len(shapes))))
    axes.set_xticklabels(["{}x{}x{}".format(*s) for s in shapes], rotation=90, fontsize=7)
    axes.set_xlabel("cluster shape (CTAs along x, y, z)")
    axes.set_ylabel("per-SM working set,\nBaseline = 1")
    axes.grid(linewidth=0.3)
    axes.legend(fontsize=7, ncol=7, loc="upper center", bbox_to_anchor=(0.5, -0.3))
    figure.tight_layout()
    return report.save_figure(figure, f"{stem}-working-set.png")


def numa_filter_bars(report, stem, study):
    """The NUMA filter: twice the memory bandwidth's speedup per application, the threshold as a line."""
    apps = [a for a in study.numa_apps if study.bandwidth_speedup(a) is not None]
    return _bars(report, stem, "numa-filter", apps, [data.NUMA_FILTER], lambda a, v: study.bandwidth_speedup(a),
                 f"speedup of {data.BW_FACTOR}x memory bandwidth,\nBaseline = 1", line=1.0 + data.BW_GAIN)


def numa_speedup_bars(report, stem, study, apps):
    variants = [v for v, _, _ in data.NUMA_CONFIGS]
    return _bars(report, stem, "numa-speedup", apps, variants, study.numa_speedup, "speedup over the NUMA Baseline",
                 line=1.0, mean_label="mean", mean=lambda v: study.over(lambda a: study.numa_speedup(a, v), apps))


def efficiency_bars(report, stem, study, apps):
    variants = [v for v, _, _ in data.NUMA_CONFIGS]
    return _bars(report, stem, "numa-efficiency", apps, variants, study.efficiency,
                 "access efficiency (local / all requests)", line=1.0 / data.ZONES, mean_label="mean",
                 mean=lambda v: study.over(lambda a: study.efficiency(a, v), apps))
