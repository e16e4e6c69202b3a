"""A sweep's output directory as `warpsim report` and its templates see it (docs/experiments.md,
"Reports"). A template's render(report) gets a Report:

  report.dir           the sweep directory
  report.page          the path of the page being written; report.page_dir, its folder
  report.spec          DIR/spec.toml as a dict; report.name and report.description from it
  report.axes          [Axis] in grid order (outermost first); each axis's values in grid order
  report.row_axis      "workload" or "program": what the rows of the generic tables are
  report.columns       [Column]: the spec's [columns], then its [derived] columns
  report.points        [Point] in grid order (DIR/points.jsonl joined with DIR/table.jsonl)
  report.point(...)    the point with the given axis values (keyword or dict), or None
  report.stats(point)  the point's statistics file (DIR/points/ID/stats.json) parsed, or None
  report.result(point) its result.json parsed, or None
  report.baseline      {axis: value} of --baseline (empty when none was given)
  report.variant_options(name)  a [variants.NAME] as the `warpsim run` options it adds
  report.pyplot()      matplotlib.pyplot set up for reproducible output; None when plots are off
  report.save_figure(figure, name)  writes the figure as a PNG beside the page, returns `name`
  report.default_page()             the page `warpsim report` writes without a template

Everything is read in a fixed order and nothing depends on the time, the host or the paths
involved, so the same directory gives the same page and the same PNG files, byte for byte.
"""

import json
import math
import os
import tomllib


class ReportError(Exception):
    """An error in the sweep directory or the options: one line for the user."""


def value_text(value):
    """An axis value as the sweep writes it on the command line and in messages: strings as
    they are, booleans as true/false, numbers as JSON writes them (2.0 stays 2.0)."""
    return value if isinstance(value, str) else json.dumps(value)


def is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


class Axis:
    def __init__(self, name):
        self.name = name
        self.values = []  # in order of first appearance in the grid (the spec's order)

    def numeric(self):
        """True when every value is a number (size in elements, registers, a numeric set axis)."""
        return bool(self.values) and all(is_number(v) for v in self.values)


class Column:
    """A tabulated column: kind "column" ([columns], `path` into the statistics) or "derived"
    ([derived], `ratio` of a column at the `baseline` point; `invert` as in the spec)."""

    def __init__(self, name, kind, path=None, ratio=None, baseline=None, invert=False):
        self.name, self.kind, self.path = name, kind, path
        self.ratio, self.baseline, self.invert = ratio, baseline or {}, invert


class Point:
    def __init__(self, point_id, axes, argv, row):
        self.id = point_id
        self.axes = axes  # {axis name: value}, values with their TOML types
        self.argv = argv
        self.row = row  # the point's row of table.jsonl ({} when the table lacks it)
        self.status = row.get("status", "missing")

    def value(self, column):
        """The point's cell of `column` (a name), None when empty."""
        return self.row.get(column)

    def key(self, axis_names):
        return tuple(value_text(self.axes[a]) for a in axis_names)


def _read_jsonl(path):
    rows = []
    with open(path, encoding="utf-8") as stream:
        for number, line in enumerate(stream, 1):
            if not line.strip():
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as error:
                raise ReportError(f"{path}:{number}: not JSON ({error.msg})") from error
    return rows


class Report:
    def __init__(self, directory, page, baseline=None, plots=True):
        self.dir = directory
        self.page = page
        self.page_dir = os.path.dirname(os.path.abspath(page))
        self.plots = plots
        self._pyplot = None
        points_path = os.path.join(directory, "points.jsonl")
        table_path = os.path.join(directory, "table.jsonl")
        spec_path = os.path.join(directory, "spec.toml")
        for path in (points_path, table_path, spec_path):
            if not os.path.isfile(path):
                raise ReportError(f"{directory} is not a sweep directory (no "
                                  f"{os.path.basename(path)})")
        try:
            with open(spec_path, "rb") as stream:
                self.spec = tomllib.load(stream)
        except tomllib.TOMLDecodeError as error:
            raise ReportError(f"{spec_path}: {error}") from error
        self.name = self.spec.get("name", "")
        self.description = self.spec.get("description", "")

        rows = {row.get("id"): row for row in _read_jsonl(table_path)}
        self.points = []
        self.axes = []
        for line in _read_jsonl(points_path):
            axes = line.get("axes", {})
            if not self.axes:
                self.axes = [Axis(name) for name in axes]
            for axis in self.axes:
                if axis.name not in axes:
                    raise ReportError(f"{points_path}: point {line.get('id')} lacks axis "
                                      f"{axis.name}")
                if axes[axis.name] not in axis.values:
                    axis.values.append(axes[axis.name])
            self.points.append(Point(line["id"], axes, line.get("argv", []),
                                     rows.get(line["id"], {})))
        if not self.points:
            raise ReportError(f"{points_path}: no points")
        names = [a.name for a in self.axes]
        self.row_axis = next((a for a in ("workload", "program") if a in names), names[0])
        self._by_key = {p.key(names): p for p in self.points}

        self.columns = [Column(name, "column", path=path)
                        for name, path in self.spec.get("columns", {}).items()]
        for name, derived in self.spec.get("derived", {}).items():
            self.columns.append(Column(name, "derived", ratio=derived.get("ratio"),
                                       baseline=_flatten_baseline(derived.get("baseline", {})),
                                       invert=bool(derived.get("invert", False))))

        self.baseline = {}
        for item in baseline or []:
            axis, sep, value = item.partition("=")
            if not sep or axis not in names:
                raise ReportError(f"--baseline '{item}': expected AXIS=VALUE with an axis of "
                                  f"this sweep ({', '.join(names)})")
            if value not in [value_text(v) for v in self.axis(axis).values]:
                raise ReportError(f"--baseline '{item}': {axis} has no value '{value}'")
            self.baseline[axis] = value

    def axis(self, name):
        return next((a for a in self.axes if a.name == name), None)

    def point(self, values=None, **axes):
        """The point whose axis values are `values` (a dict) and `axes` (keywords, for axis names
        that are identifiers), typed or as value texts; every axis must be given."""
        given = dict(values or {}, **axes)
        key = tuple(value_text(given[a.name]) if a.name in given else None for a in self.axes)
        return self._by_key.get(key)

    def baseline_point(self, point, baseline):
        """The point with `point`'s axis values except those `baseline` ({axis: value text})
        names, or None."""
        values = {a.name: value_text(point.axes[a.name]) for a in self.axes}
        values.update(baseline)
        return self.point(values)

    def stats(self, point):
        return self._load(point, "stats.json")

    def result(self, point):
        return self._load(point, "result.json")

    def _load(self, point, name):
        path = os.path.join(self.dir, "points", point.id, name)
        if not os.path.isfile(path):
            return None
        try:
            with open(path, encoding="utf-8") as stream:
                return json.load(stream)
        except json.JSONDecodeError as error:
            raise ReportError(f"{path}: not valid JSON ({error.msg})") from error

    def variant_options(self, name):
        """The `warpsim run` options a [variants.NAME] adds, as one string ("" for none)."""
        variant = self.spec.get("variants", {}).get(name, {})
        words = [f"--overlay {o}" for o in variant.get("overlays", [])]
        words += [f"--set {s}" for s in variant.get("sets", [])]
        words += list(variant.get("options", []))
        return " ".join(words)

    def wall_seconds(self):
        """The points' run times added up (s)."""
        return math.fsum(p.row.get("wall_seconds") or 0.0 for p in self.points)

    def status_counts(self):
        counts = {}
        for p in self.points:
            counts[p.status] = counts.get(p.status, 0) + 1
        return counts

    def pyplot(self):
        if not self.plots:
            return None
        if self._pyplot is None:
            import report_figures as figures
            self._pyplot = figures.pyplot()
        return self._pyplot

    def save_figure(self, figure, name):
        import report_figures as figures
        figures.save(figure, os.path.join(self.page_dir, name))
        return name

    def default_page(self):
        import default_page
        return default_page.render(self)


def _flatten_baseline(baseline):
    """A derived column's baseline as {axis: value text}; `set = {KEY = V}` becomes set:KEY."""
    flat = {}
    for axis, value in baseline.items():
        if axis == "set" and isinstance(value, dict):
            for key, v in value.items():
                flat[f"set:{key}"] = value_text(v)
        else:
            flat[axis] = value_text(value)
    return flat
