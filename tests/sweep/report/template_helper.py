"""A module beside report_test.sh's template: a template's folder is on its import path."""


def axes_text(axes):
    return "/".join(str(v) for v in axes.values())
