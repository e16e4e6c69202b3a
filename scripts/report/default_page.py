"""The page `warpsim report` writes without a template: the sweep's axes and variants, then for
each tabulated column a table (rows: the workloads or programs; columns: the combinations of the
other axes' values; a geometric-mean row), a bar chart per workload with a geometric-mean bar,
and a line plot over each axis whose values are numbers. Columns are plotted normalised to a
baseline point when they are [derived] ratios or when --baseline names one."""

import math
import os
import re

from sweep_report import is_number, value_text
import report_markdown as md

NONE = md.NONE


def geometric_mean(values):
    """(geometric mean of the positive numbers, how many there were); (None, 0) without any."""
    positive = [v for v in values if is_number(v) and v > 0]
    if not positive:
        return None, 0
    return math.exp(math.fsum(math.log(v) for v in positive) / len(positive)), len(positive)


def safe_name(text):
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text)


class Layout:
    """The rows (values of the row axis) and column combinations (of the values of the other
    axes that have more than one, in grid order) of the generic tables, and the point at each
    cell."""

    def __init__(self, report):
        self.report = report
        self.row_axis = report.row_axis
        # Axes with one value distinguish nothing: the Axes table names their value.
        self.others = [a.name for a in report.axes
                       if a.name != self.row_axis and len(a.values) > 1]
        self.rows = [value_text(v) for v in report.axis(self.row_axis).values]
        self.combos = []
        self.at = {}
        for p in report.points:
            combo = p.key(self.others)
            if combo not in self.combos:
                self.combos.append(combo)
            self.at[(value_text(p.axes[self.row_axis]), combo)] = p

    def label(self, combo, names=False):
        if not combo:
            return ""
        if names:
            return ", ".join(f"{a}={v}" for a, v in zip(self.others, combo))
        return " / ".join(combo)

    def is_baseline(self, combo, baseline):
        """True when the combination is the baseline itself (its normalised values are all 1)."""
        if not baseline or any(axis not in self.others for axis in baseline):
            return False
        return all(combo[self.others.index(axis)] == value for axis, value in baseline.items())


def where(baseline):
    """{variant: base, size: 1024} -> 'variant = base, size = 1024'."""
    return ", ".join(f"{a} = {v}" for a, v in baseline.items())


def describe(column):
    if column.kind == "column":
        return f"`{column.path}` from each point's statistics."
    if column.invert:
        return (f"This point's `{column.ratio}` divided by that of the point with "
                f"{where(column.baseline)} (`[derived.{column.name}]`).")
    return (f"`{column.ratio}` of the point with {where(column.baseline)} divided by this "
            f"point's (`[derived.{column.name}]`).")


def column_table(layout, value_of):
    """A Markdown table of value_of(point) with a geometric-mean row when the values are numbers."""
    header = [layout.row_axis] + [layout.label(c) or "value" for c in layout.combos]
    rows, numeric = [], False
    for row in layout.rows:
        cells = [row]
        for combo in layout.combos:
            point = layout.at.get((row, combo))
            value = value_of(point) if point is not None else None
            numeric = numeric or is_number(value)
            cells.append(md.value(value))
        rows.append(cells)
    if numeric:
        means = ["**geometric mean**"]
        for combo in layout.combos:
            values = [value_of(layout.at[(r, combo)]) for r in layout.rows
                      if (r, combo) in layout.at]
            mean, count = geometric_mean(values)
            note = "" if count == len(layout.rows) or mean is None else \
                f" ({count} of {len(layout.rows)})"
            means.append(md.value(mean) + note)
        rows.append(means)
    return md.table(header, rows)


def bar_chart(report, layout, file_name, title, ylabel, value_of, baseline):
    plt = report.pyplot()
    combos = [c for c in layout.combos if not layout.is_baseline(c, baseline)]
    if plt is None or not combos:
        return None
    groups = layout.rows + ["geometric mean"]
    width = 0.8 / len(combos)
    figure, axes = plt.subplots(figsize=(min(16.0, max(6.4, 1.5 + 0.2 * len(groups) *
                                                        (len(combos) + 1))), 4.8))
    for i, combo in enumerate(combos):
        values = [value_of(layout.at[(r, combo)]) if (r, combo) in layout.at else None
                  for r in layout.rows]
        heights = [v if is_number(v) else float("nan") for v in values]
        mean = geometric_mean(values)[0]
        heights.append(float("nan") if mean is None else mean)
        offset = (i - (len(combos) - 1) / 2) * width
        axes.bar([g + offset for g in range(len(groups))], heights, width,
                 label=layout.label(combo, names=True) or None)
    if baseline:
        axes.axhline(1.0, color="black", linewidth=0.8)
    axes.set_xticks(range(len(groups)))
    axes.set_xticklabels(groups, rotation=45 if len(groups) > 6 else 0,
                         ha="right" if len(groups) > 6 else "center", fontsize=8)
    axes.set_ylabel(ylabel)
    axes.set_title(title)
    if layout.others:
        axes.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8)
    figure.tight_layout()
    return report.save_figure(figure, file_name)


def line_plot(report, layout, axis, file_name, title, ylabel, value_of, baseline):
    """value_of over the numeric `axis`: a thin line per row and a thick geometric-mean line
    for each combination of the remaining axes."""
    plt = report.pyplot()
    if plt is None:
        return None
    xs = sorted(report.axis(axis).values)
    rest = [a for a in layout.others if a != axis]
    series = {}  # combination of `rest` -> row -> {x: value}
    for p in report.points:
        value = value_of(p)
        if is_number(value):
            by_row = series.setdefault(p.key(rest), {})
            by_row.setdefault(value_text(p.axes[layout.row_axis]), {})[p.axes[axis]] = value
    if not series:
        return None
    figure, axes = plt.subplots(figsize=(8.0, 4.8))
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, (combo, by_row) in enumerate(series.items()):
        colour = colours[i % len(colours)]
        for row in layout.rows:
            points = by_row.get(row, {})
            if points:
                axes.plot([x for x in xs if x in points], [points[x] for x in xs if x in points],
                          color=colour, alpha=0.3, linewidth=0.8)
        means = [(x, geometric_mean([by_row[r].get(x) for r in by_row])[0]) for x in xs]
        means = [(x, m) for x, m in means if m is not None]
        label = ", ".join(f"{a}={v}" for a, v in zip(rest, combo)) or "geometric mean"
        axes.plot([x for x, _ in means], [m for _, m in means], color=colour, linewidth=2.2,
                  marker="o", label=label)
    if all(x > 0 for x in xs) and max(xs) >= 10 * min(xs):
        axes.set_xscale("log")
    axes.set_xticks(xs)
    axes.set_xticklabels([value_text(x) for x in xs], fontsize=8)
    axes.minorticks_off()
    if baseline:
        axes.axhline(1.0, color="black", linewidth=0.8)
    axes.set_xlabel(axis)
    axes.set_ylabel(ylabel)
    axes.set_title(title)
    axes.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8,
                title=f"thick: geometric mean over the {layout.row_axis}s", title_fontsize=8)
    figure.tight_layout()
    return report.save_figure(figure, file_name)


def column_section(report, layout, column, stem):
    values = [p.value(column.name) for p in report.points]
    numeric = any(is_number(v) for v in values)
    parts = [f"## {column.name}", describe(column) + " Rows: " + layout.row_axis +
             ("; columns: " + " / ".join(layout.others) if layout.others else "") +
             (". Geometric mean over the rows with a positive value." if numeric else "."),
             column_table(layout, lambda p: p.value(column.name))]
    if not numeric:
        return "\n\n".join(parts)

    plotted, baseline, ylabel = (lambda p: p.value(column.name)), {}, column.name
    if column.kind == "derived":
        baseline = column.baseline
    elif report.baseline:
        baseline = report.baseline

        def plotted(p, name=column.name):
            base = report.baseline_point(p, baseline)
            here, there = p.value(name), base.value(name) if base is not None else None
            if not is_number(here) or not is_number(there) or there == 0:
                return None
            return here / there

        parts.append(f"Normalised to the point with {where(baseline)} (`--baseline`): this "
                     f"point's `{column.name}` divided by that point's.")
        parts.append(column_table(layout, plotted))
    if baseline:
        ylabel = f"{column.name} ({where(baseline)}: 1)"

    images = []
    title = f"{column.name} per {layout.row_axis}"
    bars = bar_chart(report, layout, f"{stem}-{safe_name(column.name)}.png", title, ylabel,
                     plotted, baseline)
    if bars:
        images.append(f"![{title}]({bars})")
    for axis in layout.others:
        if report.axis(axis).numeric():
            title = f"{column.name} by {axis}"
            lines = line_plot(report, layout, axis,
                              f"{stem}-{safe_name(column.name)}-by-{safe_name(axis)}.png",
                              title, ylabel, plotted, baseline)
            if lines:
                images.append(f"![{title}]({lines})")
    parts += images
    return "\n\n".join(parts)


def summary(report):
    counts = report.status_counts()
    words = [f"{counts.get('pass', 0)} passed"]
    for status, word in (("fail", "failed"), ("verify-failed", "did not verify"),
                         ("missing", "missing")):
        if counts.get(status):
            words.append(f"{counts[status]} {word}")
    return f"{len(report.points)} points: {', '.join(words)}."


def failures(report):
    rows = []
    for p in report.points:
        if p.status == "pass":
            continue
        result = report.result(p) or {}
        rows.append([p.id, " ".join(f"{a}={value_text(v)}" for a, v in p.axes.items()), p.status,
                     result.get("reason") or NONE])
    if not rows:
        return None
    return ("## Points that did not pass\n\nTheir cells are empty where they wrote no statistics "
            "(`warpsim sweep status DIR` tells more).\n\n"
            + md.table(["id", "axes", "status", "reason"], rows))


def render(report):
    stem = os.path.splitext(os.path.basename(report.page))[0]
    layout = Layout(report)
    parts = [f"# {report.name}" if report.name else "# Sweep results",
             "<!-- Generated by `warpsim report` from the sweep's table: do not edit. -->"]
    if report.description:
        parts.append(report.description)
    parts.append(summary(report))
    parts.append("## Axes\n\n" + md.table(
        ["axis", "values"],
        [[a.name, ", ".join(value_text(v) for v in a.values)] for a in report.axes]))
    variant = report.axis("variant")
    if variant is not None:
        parts.append("## Variants\n\n" + md.table(
            ["variant", "options", "description"],
            [[v, f"`{report.variant_options(v)}`" if report.variant_options(v) else NONE,
              report.spec.get("variants", {}).get(v, {}).get("description", "")]
             for v in variant.values]))
    for column in report.columns:
        parts.append(column_section(report, layout, column, stem))
    failed = failures(report)
    if failed:
        parts.append(failed)
    return "\n\n".join(parts) + "\n"
