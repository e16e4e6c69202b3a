// The timing statistics of several launches together (a run's "totals"): counters summed over
// the launches, rates recomputed from the summed counters (IPC, hit rates, DRAM utilisation,
// average power), occupancy averaged weighted by each launch's cycles. Per-launch-only parts
// (time series, compiler-pass results, occupancy limits) are left out.
#pragma once
#include <vector>

#include <nlohmann/json.hpp>

namespace warpsim::timing {

nlohmann::json totalLaunchStats(const std::vector<const nlohmann::json*>& launches);

// On a GPU of several modules (stats["memory"]["numa"] present): adds "numa" rates to `stats`:
// access_efficiency = local / (local + remote) requests, and per zone dram_gbps (bytes over
// simulated_ns) and dram_utilisation (busy over elapsed data-bus cycles). Nothing otherwise.
void addNumaRates(nlohmann::json& stats);

}  // namespace warpsim::timing
