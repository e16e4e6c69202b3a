// Internal: the parts of a Gpu (gpu.cpp builds them and validates launches, gpu_loop.cpp runs
// batches of launches on them with launch_set.h's bookkeeping, gpu_stats.cpp reports them).
#pragma once
#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "energy/energy_model.h"
#include "func/grid_context.h"
#include "timing/gpu.h"
#include "timing/i_cta_scheduler.h"
#include "timing/i_ir_pass.h"
#include "timing/i_resource_manager.h"
#include "timing/sm/sm.h"
#include "timing/sm_memory.h"

namespace warpsim::timing {

class LaunchSet;
struct LaunchRun;

struct Gpu::Impl {
  config::Tree* tree = nullptr;
  const PluginRegistry* registry = nullptr;
  func::DeviceMemory* memory = nullptr;
  GpuOptions options;

  uint32_t numSms = 0;
  uint32_t modules = 1;         // gpu.modules (NUMA zones; timing/mem/README.md)
  Cycle deadlockCycles = 0;
  Cycle sampleInterval = 0;
  bool skipIdleCycles = true;
  ClockDomain core;
  std::string ctaPolicy;       // [cta_scheduler].impl
  std::string resourcePolicy;  // [resources].impl
  // On-chip storage per SM as configured: register file, shared memory and L1 data cache bytes
  // (a launch whose manager divides the storage per kernel reports its carveout's instead).
  uint64_t fixedStorageBytes = 0;
  std::vector<std::string> passNames;

  std::unique_ptr<MemorySystem> memorySystem;
  std::vector<std::unique_ptr<Sm>> sms;
  std::vector<std::unique_ptr<IResourceManager>> resourceManagers;
  // Answers "does it fit, and how many per SM" without touching an SM's own manager.
  std::unique_ptr<IResourceManager> probe;
  // One per launch of a batch (index = position in the batch), grown on demand, reused.
  std::vector<std::unique_ptr<ICtaScheduler>> ctaSchedulers;
  std::vector<std::unique_ptr<IIrPass>> passes;
  std::optional<energy::EnergyModel> energy;  // when the configuration has an [energy] table

  Cycle now = 0;  // core cycles since the Gpu was built; batches follow each other

  // SM `s` has work: resident CTAs or instructions in flight, or its memory pipeline still
  // absorbs replies (store acknowledgements) after its last CTA retired.
  uint32_t assistRegistersPerThread() const {
    uint32_t r = 0;
    for (const auto& sm : sms) r = std::max(r, sm->assistRegistersPerThread());
    return r;
  }
  bool needsCycle(uint32_t s) const { return !sms[s]->idle() || !memorySystem->sm(s).idle(); }

  Impl(config::Tree& tree, const PluginRegistry& registry, func::DeviceMemory& memory,
       GpuOptions options);
  // (Re)builds the memory system, the SMs and their resource managers: at construction, and
  // after a batch that stopped with an error left CTAs behind (caches start cold again).
  void buildHardware();
  // Validates launch `run` of a batch and prepares its grid; a launch that cannot run gets its
  // one-line error and state Failed, else state Waiting (gpu.cpp).
  void prepare(LaunchRun& run);
  // Main loop of a batch whose launches are prepared (gpu_loop.cpp); fills each launch's `out`.
  void simulate(LaunchSet& set);
  // The statistics of a launch that ran (gpu_stats.cpp).
  nlohmann::json launchStats(const LaunchRun& launch) const;
};

// The statistics JSON of a launch from its parts (gpu_stats.cpp).
nlohmann::json assembleLaunchStats(Cycle cycles, uint64_t warpInstructions,
                                   uint64_t threadInstructions, const nlohmann::json& smTotals,
                                   const nlohmann::json& memory, const Occupancy& occupancy);

}  // namespace warpsim::timing
