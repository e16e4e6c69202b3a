"""The unified-storage study's numbers and applications, as the results page puts them beside ours:
digest ../shared/digests/rf-hierarchy-and-unified-memory.md s7.2 (sensitivity), s7.3 (the
aggressive variant), s7.4 (Table 7.2), s7.5 (designs) and s7.6 (results), from chapter 7 of
Gebhart's thesis. Fractions are fractions (0.756 is +75.6%).
"""

# s2.1, s7: the study's six applications and the workload of ours that stands for each.
APPLICATIONS = [
    ("Needle", "nw", "Needleman-Wunsch (Rodinia), the blocking factor its shared-memory tile"),
    ("GPU-Mummer", "mummer", "MUMmerGPU-like exact matching of reads on a suffix tree"),
    ("BFS", "bfs", "breadth-first search (Rodinia)"),
    ("DGEMM", "dgemm-tiled", "double-precision GEMM, 64 registers and two shared tiles"),
    ("PCR", "pcr", "tridiagonal systems by parallel cyclic reduction"),
    ("Hotspot", "hotspot", "chip temperature stencil (Rodinia)"),
]


def name_of(workload):
    """The study's name of one of our workloads, or the workload itself."""
    return next((n for n, w, _ in APPLICATIONS if w == workload), workload)


# s7.6: 384 KB unified against 256/64/64. Needle's gain; the others' range (Hotspot "within
# 0.2%", the rest +3.0% to +8.9%; chapters 1 and 8 round the six to 0.2, 3, 4, 8, 9 and 75%).
NEEDLE_GAIN = 0.756
OTHERS_GAIN = (-0.002, 0.09)
HOTSPOT_NOISE = 0.002  # "within 0.2%": the study's own bank-conflict noise
# s7.6: DRAM accesses fall by 10% to 25% on the applications that use the extra capacity; three
# show no reduction (they stream).
DRAM_REDUCTION = (0.10, 0.25)
DRAM_UNCHANGED_APPS = 3
# s7.6: energy of the 384 KB design 0-20% lower; no workload slower or higher in energy.
ENERGY_CHANGE = (-0.20, 0.0)
# s7.6: the 256 KB unified design wins on 4 of the 6 (loses slightly on DGEMM, Hotspot unchanged).
UNIFIED_256_WINS = (4, 6)
# s7.6: "limited" (Fermi's 16/48 split either way) beats 128/32/32 on every application and
# matches 256/64/64 on four (loses on Needle, slightly on BFS).
LIMITED_MATCHES = (4, 6)
# s7.6: performance per watt of 384 KB unified, up to +120% (s7.5.4; chapter 1: 0.2, 4, 10, 17,
# 20, 115%), at least +10% on 4 of the 6.
PERF_PER_WATT_MAX = 1.20
PERF_PER_WATT_AT_LEAST = (0.10, 4, 6)
# s7.6: performance lost to arbitration between register and memory accesses in the same banks.
ARBITRATION_LOSS = 0.0031
# s7.6 (Fig 7.10): instructions with at least one bank conflict; unified without the register
# file hierarchy adds about 5 percentage points over partitioned; with it, fewer than partitioned.
CONFLICT_POINTS_ADDED = 0.05
# s7.3: the aggressive variant (several banks of a cluster supplying up to 16 B) gains +0.5%.
AGGRESSIVE_GAIN = 0.005

# s7.4, Table 7.2: the optimal 384 KB configurations: (registers per thread, spills, threads per SM).
TABLE_7_2 = {
    "bfs": (32, 0, 1024),
    "mummer": (32, 0, 864),
    "dgemm-tiled": (64, 0, 1024),
    "nw": (24, 0, 576),
    "pcr": (40, 0, 640),
    "hotspot": (32, 0, 992),
}

# s7.2: the sensitivity study's statements.
NEEDLE_BLOCKINGS = (16, 64)         # Fig 7.2: Needle's blocking factor "from 16 ... to 64"
NEEDLE_BLOCKING_GAIN = 2.0          # ... gives "over 2x"
NEEDLE_BLOCKING_SHARED_KB = 400     # ... and needs 400 KB of shared memory per SM
MUMMER_BEST_THREADS = 768           # Figs 7.1, 7.3: GPU-Mummer faster at 768 threads than 1,024
REGISTER_SENSITIVE = "dgemm-tiled"  # Fig 7.1: DGEMM needs many registers
