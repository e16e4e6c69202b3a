// JSON form of launch reports (the fields are documented in docs/stats.md).
#pragma once
#include <nlohmann/json.hpp>
#include <vector>

#include "runtime/launch_report.h"

namespace warpsim::runtime {

nlohmann::json toJson(const ResourceUsage& usage);
nlohmann::json toJson(const KernelStats& stats);
nlohmann::json toJson(const LaunchReport& report);

// One entry of a stats file's "kernels" list (docs/stats.md): launch shape, resources, counts,
// instruction mix, memory traffic per state space and branches, flat.
nlohmann::json kernelJson(const LaunchReport& report);
// The instruction-class mix ({class: warp instructions}) and per-space traffic
// ({space: {instructions, lane_accesses, bytes}}) of `stats`, zero entries left out.
nlohmann::json mixJson(const KernelStats& stats);
nlohmann::json memoryJson(const KernelStats& stats);

// Value similarity (docs/stats.md "value_similarity"): {"register_writes": {"non_divergent":
// {"uniform": N, "affine": N, "msb3": N, "msb2": N, "msb1": N, "random": N}, "divergent": {...}},
// "local_stores": {...}}, every class present.
nlohmann::json toJson(const profile::ValueSimilarityStats& stats);
// The value similarity of several launches summed, as toJson; null when no launch has it.
nlohmann::json valueSimilarityTotals(const std::vector<LaunchReport>& reports);

// The element-wise sum of the statistics of several launches.
KernelStats sumStats(const std::vector<LaunchReport>& reports);

// Timing mode: the timing statistics of several launches together (timing/stats_totals.h);
// null when no launch has timing statistics.
nlohmann::json timingTotals(const std::vector<LaunchReport>& reports);

}  // namespace warpsim::runtime
