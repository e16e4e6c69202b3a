// The statistics of a launch (docs/stats.md "timing"): the SMs' counters summed over the launch's
// tenures on them, the memory system's counters, occupancy and the derived rates.
#include <nlohmann/json.hpp>

#include "timing/gpu_impl.h"
#include "timing/launch_run.h"
#include "timing/stats_json.h"

namespace warpsim::timing {

nlohmann::json assembleLaunchStats(Cycle cycles, uint64_t warpInstructions,
                                   uint64_t threadInstructions, const nlohmann::json& smTotals,
                                   const nlohmann::json& memory, const Occupancy& occupancy) {
  const uint64_t residentWarpCycles = counter(smTotals, {"resident_warp_cycles"});
  const uint64_t activeCycles = counter(smTotals, {"active_cycles"});
  nlohmann::json stats = {
      {"cycles", cycles},
      {"warp_instructions", warpInstructions},
      {"thread_instructions", threadInstructions},
      {"ipc", ratio(warpInstructions, cycles)},
      {"thread_ipc", ratio(threadInstructions, cycles)},
      {"occupancy",
       {{"theoretical", occupancy.theoretical()},
        {"achieved", occupancy.maxWarpsPerSm == 0
                         ? 0.0
                         : ratio(residentWarpCycles, activeCycles) / occupancy.maxWarpsPerSm},
        {"ctas_per_sm", occupancy.ctasPerSm},
        {"warps_per_sm", occupancy.warpsPerSm},
        {"max_warps_per_sm", occupancy.maxWarpsPerSm},
        {"limited_by", occupancy.limitedBy}}},
      {"l1d_hit_rate", ratio(counter(memory, {"l1d", "hits"}), counter(memory, {"l1d", "accesses"}))},
      {"l2_hit_rate", ratio(counter(memory, {"l2", "hits"}), counter(memory, {"l2", "accesses"}))},
      {"dram_bandwidth_utilisation",
       ratio(counter(memory, {"dram", "busy_cycles"}), counter(memory, {"dram", "cycles"}))},
      {"dram_row_buffer_hit_rate",
       ratio(counter(memory, {"dram", "row_hits"}),
             counter(memory, {"dram", "row_hits"}) + counter(memory, {"dram", "row_misses"}))},
      {"dram_read_latency_l2_cycles",
       ratio(counter(memory, {"dram", "read_latency_l2_cycles"}), counter(memory, {"dram", "reads_returned"}))},
  };
  if (occupancy.carveout.chosen()) {
    const Carveout& c = occupancy.carveout;
    stats["occupancy"]["carveout"] = {{"register_bytes", c.registerBytes},
                                      {"shared_bytes", c.sharedBytes},
                                      {"l1_bytes", c.l1Bytes},
                                      {"unused_bytes", c.unusedBytes}};
  }
  if (smTotals.is_object() && smTotals.contains("issue")) stats["issue"] = smTotals["issue"];
  stats["sm"] = smTotals;
  stats["memory"] = memory;
  return stats;
}

nlohmann::json Gpu::Impl::launchStats(const LaunchRun& launch) const {
  // Each SM's tenures with this launch, summed in SM order; an SM the launch never held has an
  // empty issue entry, so that issue_per_sm stays indexed by SM id.
  nlohmann::json smTotals = nlohmann::json::object();
  nlohmann::json issuePerSm = nlohmann::json::array();
  bool anyIssue = false;
  for (const nlohmann::json& one : launch.smStats) {
    if (one.contains("issue")) {
      issuePerSm.push_back(one["issue"]);
      anyIssue = true;
    } else {
      issuePerSm.push_back(nlohmann::json::object());
    }
    if (!one.is_null()) addInto(smTotals, one);
  }
  nlohmann::json stats =
      assembleLaunchStats(launch.end - launch.start, launch.grid.warpInstructions,
                          launch.grid.threadInstructions, smTotals, launch.memoryStats,
                          launch.occupancy);
  if (anyIssue) stats["issue_per_sm"] = std::move(issuePerSm);
  // On-chip storage of all SMs (KiB, rounded down) x the launch's cycles: what SRAM leakage
  // priced per KiB-cycle multiplies (an [energy.extra] event with static = true).
  const Carveout& c = launch.occupancy.carveout;
  const uint64_t perSm = c.chosen() ? c.totalBytes() : fixedStorageBytes;
  stats["storage_kib_cycles"] = perSm * numSms / 1024 * (launch.end - launch.start);
  if (!launch.resources.empty()) stats["resources"] = launch.resources;
  // Registers per thread reserved for assist-warp routines (0: none, or the CTA did not fit
  // with them): a property of the launch, not summed over SMs.
  if (launch.need.assistRegistersPerThread != 0 || assistRegistersPerThread() != 0)
    stats["resources"]["assist_registers_per_thread"] = launch.need.assistRegistersPerThread;
  nlohmann::json cta = nlohmann::json::object();
  launch.scheduler->reportStats(cta);
  if (!cta.empty()) stats["cta_scheduler"] = std::move(cta);
  return stats;
}

}  // namespace warpsim::timing
