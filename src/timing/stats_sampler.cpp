#include "timing/stats_sampler.h"

#include "timing/stats_json.h"

namespace warpsim::timing {

void StatsSampler::record(Cycle sinceStart, uint64_t warpInstructions,
                          uint64_t threadInstructions, const nlohmann::json& memory) {
  cycle_.push_back(sinceStart);
  warp_.push_back(warpInstructions);
  thread_.push_back(threadInstructions);
  l1Misses_.push_back(counter(memory, {"l1d", "misses"}));
  l2Misses_.push_back(counter(memory, {"l2", "misses"}));
  dramBursts_.push_back(counter(memory, {"dram", "read_bursts"}) +
                        counter(memory, {"dram", "write_bursts"}));
  next_ = (sinceStart / interval_ + 1) * interval_;
}

nlohmann::json StatsSampler::toJson() const {
  return {{"interval", interval_},         {"cycle", cycle_},
          {"warp_instructions", warp_},    {"thread_instructions", thread_},
          {"l1d_misses", l1Misses_},       {"l2_misses", l2Misses_},
          {"dram_bursts", dramBursts_}};
}

}  // namespace warpsim::timing
