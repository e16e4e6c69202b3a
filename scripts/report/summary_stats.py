"""Averages the results-page templates share: arithmetic and geometric means over the values
a table has (None, for a run or a figure that is missing, is left out)."""

import math


def mean(values):
    values = [v for v in values if v is not None]
    return sum(values) / len(values) if values else None


def geomean(values):
    """Of the positive values only (a ratio of zero or below has no logarithm)."""
    values = [v for v in values if v is not None and v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None
