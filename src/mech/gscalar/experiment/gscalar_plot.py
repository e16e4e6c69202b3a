"""The G-Scalar results plot: IPC/W normalised to the baseline per workload (alu-scalar and
gscalar, grouped bars), and the scalar-executed fraction of the gscalar run per category (stacked
bars, with the by-value oracle total as a marker)."""

# (metric, legend) of the stacked categories, bottom first.
_CATEGORIES = (("executed.full_alu", "ALU"), ("executed.full_sfu", "SFU"),
               ("executed.full_mem", "MEM"), ("executed.half", "half-warp"),
               ("executed.divergent", "divergent"))


# The paper's suite means (digest s4): IPC/W of G-Scalar vs the baseline, scalar-eligible share.
PAPER_IPC_PER_WATT = 1.24
PAPER_SCALAR = 0.40


def _value(x):
    return float("nan") if x is None else x


def write_plot(report, name, workloads, per_workload, means):
    """Draws the plot and writes it beside the page as `name` (report.save_figure); returns
    `name`, or None when the report draws no plots."""
    plt = report.pyplot()
    if plt is None:
        return None

    labels = list(workloads) + ["mean"]
    rows = [per_workload[w] for w in workloads] + [{k: v for k, (v, _) in means.items()}]
    x = list(range(len(labels)))
    figure, (top, bottom) = plt.subplots(2, 1, figsize=(13, 8), sharex=True)

    width = 0.4
    for offset, config, colour in ((-width / 2, "alu-scalar", "#9ecae1"),
                                   (width / 2, "gscalar", "#08519c")):
        top.bar([i + offset for i in x], [_value(r.get(f"ipcw.{config}")) for r in rows],
                width, label=config, color=colour)
    top.axhline(1.0, color="black", linewidth=0.8)
    top.axhline(PAPER_IPC_PER_WATT, color="grey", linestyle="--", linewidth=0.8,
                label="paper, G-Scalar mean")
    top.set_ylabel("IPC/W, baseline = 1")
    top.set_title("Power efficiency (mean: geometric)")
    top.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8)

    bottoms = [0.0] * len(rows)
    colours = ("#08519c", "#3182bd", "#6baed6", "#fd8d3c", "#e6550d")
    for (metric, legend), colour in zip(_CATEGORIES, colours):
        heights = [(r.get(metric) or 0.0) * 100 for r in rows]
        bottom.bar(x, heights, 0.7, bottom=bottoms, label=legend, color=colour)
        bottoms = [b + h for b, h in zip(bottoms, heights)]
    bottom.plot(x, [_value(r.get("eligible.oracle")) * 100 for r in rows], "k_", markersize=14,
                markeredgewidth=2, linestyle="none", label="all, by value (oracle)")
    bottom.axhline(PAPER_SCALAR * 100, color="grey", linestyle="--", linewidth=0.8,
                   label="paper, mean")
    bottom.set_ylim(bottom=0)
    bottom.set_ylabel("% of warp instructions")
    bottom.set_title("Scalar-executed instructions in the gscalar run, by category")
    bottom.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8)
    bottom.set_xticks(x)
    bottom.set_xticklabels(labels, rotation=60, ha="right", fontsize=8)

    figure.tight_layout()
    return report.save_figure(figure, name)
