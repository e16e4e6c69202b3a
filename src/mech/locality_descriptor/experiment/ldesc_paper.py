"""The Locality Descriptor study's numbers, as the results page puts them beside ours: digest
../shared/digests/xmem-and-locality-descriptor.md s2.2 (motivation), s2.6 (workloads) and s2.7
(results table, L-M1 .. L-R4), from chapter 3 of seed 001. Fractions are fractions (0.545 is
54.5%); hit-rate changes are read as percentage points (0.03 is +3 pp).
"""

# L-M1: over 48 CTA-clustering strategies, the best cuts the per-SM working set of the
# scheduling-sensitive applications by 54.5%; the best strategy's speedup averages 3.3% over all.
MOTIVATION_WS_REDUCTION = 0.545
MOTIVATION_BEST_SPEEDUP = 0.033
STRATEGIES = 48
# L-M2: the smallest-working-set strategy raises the L1 hit rate by 3% on average (D2D and C2D
# are exceptions) and the L1 in-flight (MSHR) hit rate by 20%.
MOTIVATION_HIT_RATE = 0.03
MOTIVATION_HIT_RATE_EXCEPTIONS = ["dwt2d", "conv2d"]
MOTIVATION_INFLIGHT = 0.20
# L-R1: LDesc over Baseline, +26.6% on average, up to +46.6%; never below a single technique.
LDESC_SPEEDUP = 0.266
LDESC_SPEEDUP_MAX = 0.466
# L-R2: L1 hit rate +41.1% on average, up to +57.7%.
LDESC_HIT_RATE = 0.411
LDESC_HIT_RATE_MAX = 0.577
# L-R3: on the INTER-THREAD applications, LDesc-Sched cuts the L1 working set by 67.8% but gains
# only +2.1%, as the in-flight hit rate rises by 17%.
SCHED_WS_REDUCTION = 0.678
SCHED_SPEEDUP = 0.021
SCHED_INFLIGHT = 0.17
# s2.6: the selection filters.
CACHE_FILTER = "a 4x L1 gives more than +10%"
NUMA_FILTER = "2x memory bandwidth gives more than +40%, on the 4-module GPU"
# L-N1: on the 4-module GPU, LDesc over Baseline +53.7% on average (up to 2.8x), over
# FirstTouch-Distrib +31.2% (up to 2.3x).
NUMA_SPEEDUP = 0.537
NUMA_SPEEDUP_MAX = 1.8          # 2.8x
NUMA_OVER_FIRST_TOUCH = 0.312
NUMA_OVER_FIRST_TOUCH_MAX = 1.3  # 2.3x
NUMA_APPS = 11                  # the applications the NUMA discussion names
# L-N2: access efficiency (requests to the local zone over all), mean over the applications:
# Baseline 22% (about 25% of the requests in each zone), FirstTouch-Distrib 49.7%,
# LDesc-Placement 32%, LDesc 76% (about 25% per zone, Fig. 23).
EFFICIENCY = {"numa-base": 0.22, "numa-first-touch": 0.497, "ldesc-placement": 0.32, "ldesc-numa": 0.76}
EVEN_SHARE = 0.25
