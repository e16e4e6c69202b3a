// The timing statistics of several launches together (a run's "totals"): counters summed over
// the launches, rates recomputed from the summed counters (IPC, hit rates, DRAM utilisation,
// average power), occupancy averaged weighted by each launch's cycles. Per-launch-only parts
// (time series, compiler-pass results, occupancy limits) are left out.
#pragma once
#include <vector>

#include <nlohmann/json.hpp>

namespace warpsim::timing {

nlohmann::json totalLaunchStats(const std::vector<const nlohmann::json*>& launches);

}  // namespace warpsim::timing
