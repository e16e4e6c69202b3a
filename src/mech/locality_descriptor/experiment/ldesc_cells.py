"""What both sections of the Locality Descriptor results page (ldesc_page.py, ldesc_numa_page.py)
write the same way: table cells (an application's label, numbers, counts; "–" for missing data)
and the resolved configuration run.sh writes beside the sweep."""

import os
import tomllib

import ldesc_data as data
from page_text import NONE  # scripts/report
from sweep_report import ReportError


def label(app):
    return f"{data.abbreviation(app)} (`{app}`)"


def num(x, digits=3):
    return NONE if x is None else f"{x:.{digits}f}"


def count(x):
    return NONE if x is None else f"{x:,}"


def resolved_config(report, file_name):
    """The configuration `warpsim config show` wrote as `file_name` beside the sweep, or None."""
    path = os.path.join(os.path.dirname(os.path.abspath(report.dir)), file_name)
    if not os.path.isfile(path):
        return None
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except tomllib.TOMLDecodeError as error:
        raise ReportError(f"{path}: {error}") from error
