"""The Locality Descriptor study's metrics on plain numbers: each takes values of runs of one
application that do the same work and returns a number, or None when a value is missing.
ldesc_study.py applies them to the sweep.
"""


def speedup(base_cycles, cycles):
    """Performance over the baseline's: base cycles / cycles (same work)."""
    return None if not base_cycles or not cycles else base_cycles / cycles


def reduction(base, value):
    """How much smaller value is than base, as a fraction of base (0.25: a quarter smaller)."""
    return None if value is None or not base else 1.0 - value / base


def change(base, value):
    """value - base (hit rates: percentage points as fractions)."""
    return None if value is None or base is None else value - base


def gain(x):
    """A speedup as a change (1.05 -> +0.05)."""
    return None if x is None else x - 1.0


def in_cache_set(base_cycles, filter_cycles, threshold):
    """The selection filter: True when the run with the larger L1 is more than `threshold`
    faster than the baseline, None without both runs."""
    s = speedup(base_cycles, filter_cycles)
    # Rounded so that exactly the threshold (1100 over 1000 cycles) is not above it in floating point.
    return None if s is None else round(s - 1.0, 12) > threshold


def in_bandwidth_set(base_cycles, filter_cycles, threshold):
    """The NUMA selection filter: True when the run with twice the memory bandwidth is more than
    `threshold` faster than the baseline (the same strict rule as in_cache_set)."""
    return in_cache_set(base_cycles, filter_cycles, threshold)


def largest_share(shares):
    """The largest zone's share of the requests (1 / zones when evenly spread)."""
    return None if not shares else max(shares)


def skew(shares):
    """The largest zone's share over the smallest's (1 when even; None when a zone got none)."""
    if not shares or not min(shares):
        return None
    return max(shares) / min(shares)
