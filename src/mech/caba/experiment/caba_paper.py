"""The CABA study's numbers and applications, as the results page puts them beside ours: digest
../shared/digests/zorua-and-caba-assist-warps.md B.1 (motivation), B.8 (applications, designs)
and B.9 (every stated number), from the thesis's chapter 5 and the CABA paper (Vijaykumar et
al., ISCA 2015). Fractions are fractions (0.417 is +41.7%).
"""

# B.8: the study's applications, the suite each comes from, and the workload of ours that
# computes the closest thing (by its description in `warpsim list`); None: no counterpart.
APPLICATIONS = [
    ("BFS", "CUDA SDK", "bfs", "breadth-first search"),
    ("CONS", "CUDA SDK", "conv-separable", "separable convolution"),
    ("JPEG", "CUDA SDK", "jpeg-decode", "JPEG decoding (the IDCT stage)"),
    ("LPS", "CUDA SDK", "laplace3d", "3-D Laplace solver"),
    ("MUM", "CUDA SDK", "string-match", "MUMmerGPU sequence alignment; ours counts patterns in text"),
    ("RAY", "CUDA SDK", "ray-trace", "ray tracing"),
    ("SLA", "CUDA SDK", "scan", "scan of large arrays"),
    ("TRA", "CUDA SDK", "transpose", "matrix transpose"),
    ("hs", "Rodinia", "hotspot", "HotSpot thermal simulation"),
    ("nw", "Rodinia", "nw", "Needleman-Wunsch alignment"),
    ("KM", "Mars", "kmeans", "k-means clustering"),
    ("MM", "Mars", "sgemm-naive", "MapReduce matrix multiply; ours a plain one, no data reuse"),
    ("PVC", "Mars", "page-view-count", "page view count"),
    ("PVR", "Mars", "page-view-rank", "page view rank"),
    ("SS", "Mars", "scalar-prod", "similarity score (dot products of document vectors)"),
    ("bfs", "Lonestar", "bfs", "breadth-first search (Lonestar's; the same workload as BFS)"),
    ("bh", "Lonestar", "nbody", "Barnes-Hut n-body; ours is all-pairs"),
    ("mst", "Lonestar", "mst", "minimum spanning tree"),
    ("sp", "Lonestar", None, "survey propagation: no counterpart in the suite"),
    ("sssp", "Lonestar", "sssp", "single-source shortest paths"),
]


# Names B.9 uses that B.8's list does not have -> the application of the list taken for each.
ALIASES = {"hw": "hs"}  # "hw" is in none of B.8's suites: taken as HotSpot (hs)


def standing_for(application):
    """The application of B.8's list a name of B.9 stands for (ALIASES), else the name itself."""
    return ALIASES.get(application, application)


def named(application):
    """A name of B.9 as the page shows it: 'hw (hs)' for an alias, the name itself otherwise."""
    taken = standing_for(application)
    return application if taken == application else f"{application} ({taken})"


def workload_of(application):
    """Our workload for one of the study's application names, an alias taken as its application
    (None when it has none)."""
    application = standing_for(application)
    return next((w for a, _, w, _ in APPLICATIONS if a == application), None)


def study_workloads():
    """Our workloads that stand for the study's applications, each once, in B.8's order."""
    out = []
    for _, _, w, _ in APPLICATIONS:
        if w is not None and w not in out:
            out.append(w)
    return out


# B.8: results are shown for applications with at least this compressibility in memory
# bandwidth (the DRAM traffic compression saves).
SELECTION = 0.10

# B.9, averages over the bandwidth-sensitive applications.
IPC = {"caba-bdi": 0.417, "caba-fpc": 0.207, "caba-cpack": 0.352}  # vs Base
CABA_BDI_VS = {"ideal-bdi": -0.028, "hw-bdi-mem": 0.099, "hw-bdi": -0.016}  # IPC
BEATS_IDEAL_BY_UP_TO = 0.03  # some applications: CABA-BDI above Ideal-BDI and HW-BDI
DRAM_UTILISATION = {"base": 0.536, "caba-bdi": 0.356}
BANDWIDTH_REDUCTION = 2.1  # DRAM bursts, uncompressed / compressed
INTERCONNECT_LIMITED = ["bfs", "mst"]  # CABA-BDI and HW-BDI beat HW-BDI-Mem
ENERGY = -0.222  # CABA-BDI vs Base
DRAM_POWER = -0.295
ENERGY_VS = {"hw-bdi": 0.036, "ideal-bdi": 0.040}  # CABA-BDI's energy above theirs
SYSTEM_POWER = 0.029
EDP = -0.45
EDP_VS_IDEAL = 0.04  # CABA-BDI's EDP within 4% of Ideal-BDI's
METADATA_HIT_RATE = 0.85
# B.9: storing lines uncompressed in the L2 helps applications with high L2 hit rates (no numbers).
UNCOMPRESSED_L2_HELPS = ["RAY"]
# B.9: cache compression, CABA-BDI applied to the L1 and to the L2 with 2x or 4x the tags (four
# designs; no numbers): which applications each level helps, and the ones L1 compression hurts,
# and why (hw: see ALIASES).
L1_COMPRESSION_HELPS = ["bfs", "sssp"]
L1_COMPRESSION_HURTS = ["hw", "LPS"]
L1_COMPRESSION_HURTS_WHY = "decompression overhead on every frequent L1 access"
L2_COMPRESSION_HELPS = ["TRA", "KM"]
# B.9: Direct-Load, IPC over CABA-BDI: on average, and the largest gain (application).
DIRECT_LOAD = 0.025
DIRECT_LOAD_MAX = (0.046, "MM")

# B.9, per-application compressibility (the study's application names).
RATIO_FPC_OR_CPACK_ABOVE_BDI = ["LPS", "JPEG", "MUM", "nw"]
RATIO_BDI_ABOVE_OTHERS = ["MM", "PVC", "PVR"]
BEST_ABOVE_EACH = ["MUM", "KM"]
BDI_FASTER_THAN_FPC_DESPITE_RATIO = "LPS"

# B.1, the motivation (27 applications, issue-cycle breakdown at 1x and 2x DRAM bandwidth).
MOTIVATION_APPLICATIONS = 27
MEMORY_BOUND = 17
STALLS = {"1x": 0.61, "2x": 0.51}  # memory + data-dependence stalls of the memory-bound ones
RF_UNALLOCATED = 0.24
SM_REGISTERS = 32768  # B.8: registers per SM (fermi-caba's too; the statistics do not report it)
