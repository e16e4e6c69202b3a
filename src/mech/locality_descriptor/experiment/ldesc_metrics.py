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
