"""The unified-storage study's metrics (digest s7.6) on plain numbers: each takes values of runs of
one application that do the same work and returns a number, or None when a value is missing.
unified_study.py applies them to the sweep.
"""


def speedup(base_cycles, cycles):
    """Performance over the baseline's: base cycles / cycles (same work)."""
    return None if not base_cycles or not cycles else base_cycles / cycles


def normalised(value, base):
    """value / base (DRAM accesses, energy, a part of the energy)."""
    return None if value is None or not base else value / base


def perf_per_watt(base_energy, energy):
    """Performance per watt over the baseline's: work / energy of the same work, so base energy /
    energy."""
    return None if not base_energy or not energy else base_energy / energy


def minus_one(x):
    """A ratio as a change (1.05 -> +0.05)."""
    return None if x is None else x - 1.0


def conflict_share(conflicted_collectors, conflicted_accesses, arbitration_accesses, instructions):
    """Instructions with at least one bank conflict, as a share of the warp instructions issued:
    operand reads that waited for a bank, shared accesses replayed for a conflict, memory accesses
    that waited for a register access. An upper bound: an instruction counted in two of them
    (a load whose operand read and whose access both waited) is counted twice."""
    if not instructions or None in (conflicted_collectors, conflicted_accesses, arbitration_accesses):
        return None
    return (conflicted_collectors + conflicted_accesses + arbitration_accesses) / instructions


def loss(cycles, cycles_without):
    """What a mechanism costs in performance: cycles with it / cycles without it - 1."""
    return None if not cycles or not cycles_without else cycles / cycles_without - 1.0
