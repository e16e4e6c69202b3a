"""The CABA page's plots (PNG beside the page, through report.save_figure): IPC of every design
normalised to Base per selected case; DRAM utilisation and compression ratios; energy and EDP;
the bandwidth study; the issue-cycle breakdown of Base across the suite. Each function returns
the file name for the Markdown, or None when the report draws no plots."""

import caba_data as data
import caba_paper as paper

COLOURS = {"hw-bdi-mem": "#bdbdbd", "hw-bdi": "#969696", "ideal-bdi": "#525252",
           "caba-bdi": "#08519c", "caba-fpc": "#6baed6", "caba-cpack": "#3182bd",
           "caba-best": "#c6dbef", "base": "#e6550d"}
ISSUE_COLOURS = {"active": "#31a354", "structural": "#fd8d3c", "data_memory": "#de2d26",
                 "data_other": "#fc9272", "idle": "#d9d9d9"}


def _nan(x):
    return float("nan") if x is None else x


def _bars(axes, labels, series):
    """Grouped bars: series = [(legend, [value per label], colour)]."""
    width = 0.8 / max(1, len(series))
    for i, (legend, values, colour) in enumerate(series):
        axes.bar([x - 0.4 + width * (i + 0.5) for x in range(len(labels))],
                 [_nan(v) for v in values], width, label=legend, color=colour)
    axes.set_xticks(list(range(len(labels))))
    axes.set_xticklabels(labels, rotation=45, ha="right", fontsize=8)


def ipc(report, stem, s):
    plt = report.pyplot()
    if plt is None:
        return None
    groups = [("selected", s.selected), ("rest", s.others), ("suite", s.cases)]
    labels = [c.label for c in s.selected] + [f"mean, {g} ({len(cs)})" for g, cs in groups]
    series = []
    for d in data.DESIGNS[1:]:
        values = [s.ipc(c, d) for c in s.selected]
        values += [s.geo(cs, lambda c, d=d: s.ipc(c, d)) for _, cs in groups]
        series.append((data.LABELS[d], values, COLOURS[d]))
    figure, axes = plt.subplots(figsize=(max(8, 0.9 * len(labels) + 3), 4))
    _bars(axes, labels, series)
    axes.axhline(1.0, color="black", linewidth=0.8)
    axes.axhline(1 + paper.IPC["caba-bdi"], color="#08519c", linestyle="--", linewidth=0.8,
                 label="study, CABA-BDI mean")
    axes.set_ylabel("IPC, Base = 1")
    axes.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8)
    figure.tight_layout()
    return report.save_figure(figure, f"{stem}-ipc.png")


def memory(report, stem, s):
    """DRAM utilisation of Base and CABA-BDI, and each algorithm's data ratio, per selected case."""
    plt = report.pyplot()
    if plt is None:
        return None
    labels = [c.label for c in s.selected] + ["mean"]
    figure, (top, bottom) = plt.subplots(2, 1, figsize=(max(8, 0.7 * len(labels) + 3), 6.5))
    series = []
    for d in ("base", "caba-bdi"):
        values = [s.value(c, d, lambda r: r.get("dram_bandwidth_utilisation")) for c in s.selected]
        values.append(s.avg(s.selected, lambda c, d=d: s.value(c, d, lambda r: r.get(
            "dram_bandwidth_utilisation"))))
        series.append((data.LABELS[d], [None if v is None else 100 * v for v in values], COLOURS[d]))
    _bars(top, labels, series)
    for d, colour in (("base", COLOURS["base"]), ("caba-bdi", COLOURS["caba-bdi"])):
        top.axhline(100 * paper.DRAM_UTILISATION[d], color=colour, linestyle="--", linewidth=0.8,
                    label=f"study, {data.LABELS[d]}")
    top.set_ylabel("DRAM utilisation (%)")
    top.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8)
    series = []
    for a, d in data.ALGORITHMS.items():
        values = [s.value(c, d, lambda r: r.data_ratio()) for c in s.selected]
        values.append(s.geo(s.selected, lambda c, d=d: s.value(c, d, lambda r: r.data_ratio())))
        series.append((a, values, COLOURS[d]))
    _bars(bottom, labels, series)
    bottom.axhline(1.0, color="black", linewidth=0.8)
    bottom.axhline(paper.BANDWIDTH_REDUCTION, color="grey", linestyle="--", linewidth=0.8,
                   label="study, bandwidth reduction")
    bottom.set_ylabel("data compression ratio")
    bottom.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8)
    figure.tight_layout()
    return report.save_figure(figure, f"{stem}-memory.png")


def energy(report, stem, s):
    plt = report.pyplot()
    if plt is None:
        return None
    labels = [c.label for c in s.selected] + ["mean"]
    series = []
    for name, f, colour in (("energy", lambda r: r.energy(), "#31a354"),
                            ("EDP", lambda r: r.edp(), "#756bb1")):
        values = [s.over_base(c, "caba-bdi", f) for c in s.selected]
        values.append(s.geo(s.selected, lambda c, f=f: s.over_base(c, "caba-bdi", f)))
        series.append((f"CABA-BDI {name}", values, colour))
    figure, axes = plt.subplots(figsize=(max(8, 0.6 * len(labels) + 3), 3.5))
    _bars(axes, labels, series)
    axes.axhline(1.0, color="black", linewidth=0.8)
    axes.axhline(1 + paper.ENERGY, color="#31a354", linestyle="--", linewidth=0.8, label="study, energy")
    axes.axhline(1 + paper.EDP, color="#756bb1", linestyle="--", linewidth=0.8, label="study, EDP")
    axes.set_ylabel("Base = 1")
    axes.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8)
    figure.tight_layout()
    return report.save_figure(figure, f"{stem}-energy.png")


def bandwidth(report, stem, s, designs):
    """Geometric-mean IPC of each design over Base at the same bandwidth, per bandwidth, and
    Base over Base at 1x."""
    plt = report.pyplot()
    if plt is None or len(s.percents) < 2:
        return None
    xs = [p / 100 for p in s.percents]
    figure, axes = plt.subplots(figsize=(6, 3.5))
    for d in designs:
        ys = [s.geo(s.selected, lambda c, d=d, p=p: s.ipc(c, d, p)) if s.has(d, p) else None
              for p in s.percents]
        axes.plot(xs, [_nan(y) for y in ys], marker="o", label=f"{data.LABELS[d]} / Base",
                  color=COLOURS[d])
    ys = [s.geo(s.selected, lambda c, p=p: s.ipc(c, "base", p, data.FULL)) for p in s.percents]
    axes.plot(xs, [_nan(y) for y in ys], marker="s", linestyle=":", color=COLOURS["base"],
              label="Base / Base at 1x")
    axes.axhline(1.0, color="black", linewidth=0.8)
    axes.set_xscale("log", base=2)
    axes.set_xticks(xs)
    axes.set_xticklabels([f"{x:g}x" for x in xs])
    axes.set_xlabel("DRAM bandwidth")
    axes.set_ylabel("IPC ratio (geometric mean)")
    axes.legend(fontsize=8)
    figure.tight_layout()
    return report.save_figure(figure, f"{stem}-bandwidth.png")


def issue(report, stem, s, percents):
    """Stacked issue-cycle shares of Base per case, one panel per bandwidth."""
    plt = report.pyplot()
    if plt is None or not percents:
        return None
    labels = [c.label for c in s.cases]
    figure, panels = plt.subplots(len(percents), 1, figsize=(max(10, 0.28 * len(labels) + 3),
                                                             3.2 * len(percents)), sharex=True,
                                  squeeze=False)
    for (axes,), percent in zip(panels, percents):
        bottoms = [0.0] * len(labels)
        for key, legend, _ in data.ISSUE_GROUPS:
            heights = [100 * ((s.issue(c, percent) or {}).get(key) or 0.0) for c in s.cases]
            axes.bar(range(len(labels)), heights, 0.8, bottom=bottoms, label=legend,
                     color=ISSUE_COLOURS[key])
            bottoms = [b + h for b, h in zip(bottoms, heights)]
        axes.set_ylabel(f"% of issue cycles, {percent / 100:g}x")
        axes.set_ylim(0, 100)
        axes.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8)
    axes = panels[-1][0]
    axes.set_xticks(list(range(len(labels))))
    axes.set_xticklabels(labels, rotation=60, ha="right", fontsize=7)
    figure.tight_layout()
    return report.save_figure(figure, f"{stem}-issue.png")
