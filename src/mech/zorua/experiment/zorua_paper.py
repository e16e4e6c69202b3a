"""The Zorua study's numbers and applications, as the results page puts them beside ours: digest
../shared/digests/zorua-and-caba-assist-warps.md A.9 (methodology) and A.10 (every stated
number), from the thesis's chapter 4. Fractions are fractions (0.482 is 48.2%).
"""

# A.9: the study's eight applications (seven named) and the workload of ours that stands for
# each (None: the suite has none that accepts resource specifications).
APPLICATIONS = [
    ("BH", "barnes-hut", "Barnes-Hut n-body (Lonestar)"),
    ("DCT", "dct8x8", "8x8 discrete cosine transform (CUDA SDK)"),
    ("MST", "mst", "minimum spanning tree (Lonestar)"),
    ("NQU", "nqueens", "N-queens (GPGPU-Sim benchmarks)"),
    ("SSSP", "sssp", "single-source shortest paths (Lonestar)"),
    ("SP", None, "survey propagation (Lonestar): no counterpart in the suite"),
    ("SLA", None, "scan of large arrays (CUDA SDK): the suite's scan takes no resource "
                  "specification (`warpsim list --specs`)"),
    ("8th", None, "the eighth application, which the thesis text does not name"),
]
SPECS_PER_APP = (8, 65, 36)  # A.9: 8 to 65 specifications per application, 36 on average


def name_of(workload):
    """The study's name of one of our workloads, or the workload itself."""
    return next((a for a, w, _ in APPLICATIONS if w == workload), workload)


# A.10: performance range (1 - worst / best over the specifications), averaged over applications.
RANGE = {"base": 0.966, "wlm": 0.883, "zorua": 0.482}
RANGE_REDUCTION_MAX = 0.69   # overview: range reduced by up to 69%
SSSP_BASE_RANGE = 0.238      # SSSP's range is already small; the only one Zorua does not shrink
# Best-specification gain of Zorua over the baseline's best: average, and the largest (DCT).
BEST_GAIN = 0.128
BEST_GAIN_MAX = (0.278, "dct8x8")
# Average gain over all specifications and applications.
AVERAGE_GAIN = 0.252
# Maximum porting performance loss across Fermi, Kepler and Maxwell, averaged over applications.
PORTING = {"base": 0.527, "wlm": 0.510, "zorua": 0.239}
PORTING_ZORUA = {"dct8x8": 0.281, "mst": 0.361, "barnes-hut": 0.070}
# Schedulable warps, average over the specifications, against the baseline.
SCHEDULABLE = {"zorua": 0.328, "wlm": 0.081}
# Share of accesses to a virtual resource found on chip.
HIT_RATE = {"registers": 0.989, "scratchpad": 0.996}
# Energy of Zorua against the baseline: average of per-specification changes; the largest
# reduction (DCT) and NQU's increase.
ENERGY = -0.076
ENERGY_MAX = (-0.205, "dct8x8")
ENERGY_NQU = 0.03
