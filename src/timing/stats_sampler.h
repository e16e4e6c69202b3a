// The optional time series of a launch ([gpu].sample_interval > 0): every `interval` core
// cycles one row of cumulative counters since the launch started (idle-cycle skipping stops at
// every multiple, so rows fall exactly on them). Stored column-wise in the stats JSON:
//   "samples": {"interval": N, "cycle": [...], "warp_instructions": [...],
//               "thread_instructions": [...], "l1d_misses": [...], "l2_misses": [...],
//               "dram_bursts": [...]}
#pragma once
#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "timing/sm_memory.h"

namespace warpsim::timing {

class StatsSampler {
 public:
  explicit StatsSampler(Cycle interval) : interval_(interval), next_(interval == 0 ? kNever : interval) {}
  bool due(Cycle sinceStart) const { return sinceStart >= next_; }
  // Cycles since the launch start of the next row (kNever when off).
  Cycle nextDue() const { return next_; }
  // Records a row at `sinceStart` cycles into the launch; `memory` is MemorySystem::reportStats.
  void record(Cycle sinceStart, uint64_t warpInstructions, uint64_t threadInstructions,
              const nlohmann::json& memory);
  bool enabled() const { return interval_ != 0; }
  nlohmann::json toJson() const;

 private:
  Cycle interval_;
  Cycle next_;
  std::vector<uint64_t> cycle_, warp_, thread_, l1Misses_, l2Misses_, dramBursts_;
};

}  // namespace warpsim::timing
