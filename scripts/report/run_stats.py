"""Reading numbers out of one run's statistics (its stats.json document): a value by its dotted
path, and a ratio that is None where either side is missing or the divisor is zero."""


def value_at(document, path):
    """document["a"]["b"]["c"] for the path "a.b.c", or None where a level is missing."""
    x = document
    for part in path.split("."):
        if not isinstance(x, dict) or part not in x:
            return None
        x = x[part]
    return x


def ratio(a, b):
    """a / b, or None when a is None or b is None or zero."""
    return None if a is None or not b else a / b
