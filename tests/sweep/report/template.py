"""The template of report_test.sh: uses every part of the template interface (sweep_report.py)
and a module beside it (template_helper.py), and draws one plot."""

import template_helper
from sweep_report import value_text


def render(report):
    lines = [f"# {report.name} through a template", "",
             f"description: {report.description}",
             f"page: {report.page.rsplit('/', 1)[-1]}, row axis: {report.row_axis}, "
             f"baseline: {report.baseline}"]
    for axis in report.axes:
        lines.append(f"axis {axis.name}: {', '.join(value_text(v) for v in axis.values)}"
                     f" (numeric: {axis.numeric()})")
    for column in report.columns:
        lines.append(f"column {column.name}: {column.kind} {column.path or column.ratio} "
                     f"{column.baseline}")
    for point in report.points:
        stats = report.stats(point)
        result = report.result(point)
        lines.append(f"{point.id} {template_helper.axes_text(point.axes)} {point.status} "
                     f"cycles={point.value('cycles')} "
                     f"stats={stats['kernels'][0]['name'] if stats else None} "
                     f"reason={result['reason']!r}")
    point = report.point(workload="vecadd", size=4096, variant="lrr")
    base = report.baseline_point(point, {"variant": "base"})
    lines.append(f"vecadd 4096 lrr: {point.id}, its base: {base.id}; saxpy 4096 lrr: "
                 f"{report.point({'workload': 'saxpy', 'size': '4096', 'variant': 'lrr'})}")
    lines.append(f"lrr adds: {report.variant_options('lrr')}; base adds: "
                 f"{report.variant_options('base')!r}")
    lines.append(f"statuses: {report.status_counts()}, wall seconds: {report.wall_seconds()}")
    plt = report.pyplot()
    figure, axes = plt.subplots(figsize=(4, 3))
    axes.plot([1024, 4096], [point.value("cycles"), base.value("cycles")], marker="o")
    lines.append(f"![a plot]({report.save_figure(figure, 'template.png')})")
    return "\n".join(lines) + "\n"
