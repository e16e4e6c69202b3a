// Internal: the parts of a Gpu (gpu.cpp builds them, gpu_loop.cpp runs launches on them,
// gpu_stats.cpp reports them).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "energy/energy_model.h"
#include "func/grid_context.h"
#include "timing/cta_pool.h"
#include "timing/gpu.h"
#include "timing/i_cta_scheduler.h"
#include "timing/i_ir_pass.h"
#include "timing/i_resource_manager.h"
#include "timing/sm/sm.h"
#include "timing/sm_memory.h"

namespace warpsim::timing {

struct Gpu::Impl {
  config::Tree* tree = nullptr;
  const PluginRegistry* registry = nullptr;
  func::DeviceMemory* memory = nullptr;
  GpuOptions options;

  uint32_t numSms = 0;
  Cycle deadlockCycles = 0;
  Cycle sampleInterval = 0;
  bool skipIdleCycles = true;
  ClockDomain core;
  std::string resourcePolicy;  // [resources].impl
  std::vector<std::string> passNames;

  std::unique_ptr<MemorySystem> memorySystem;
  std::vector<std::unique_ptr<Sm>> sms;
  std::vector<std::unique_ptr<IResourceManager>> resourceManagers;
  std::unique_ptr<ICtaScheduler> ctaScheduler;
  std::vector<std::unique_ptr<IIrPass>> passes;
  std::optional<energy::EnergyModel> energy;  // when the configuration has an [energy] table

  Cycle now = 0;  // core cycles since the Gpu was built; launches follow each other

  // SM `s` has work: resident CTAs or instructions in flight, or its memory pipeline still
  // absorbs replies (store acknowledgements) after its last CTA retired.
  bool needsCycle(uint32_t s) const { return !sms[s]->idle() || !memorySystem->sm(s).idle(); }

  Impl(config::Tree& tree, const PluginRegistry& registry, func::DeviceMemory& memory,
       GpuOptions options);
  // (Re)builds the memory system, the SMs and their resource managers: at construction, and
  // after a launch that stopped with an error left CTAs behind (caches start cold again).
  void buildHardware();
  // Main loop of one launch whose grid is prepared and whose kernel fits (gpu_loop.cpp).
  KernelTiming simulate(func::GridContext& grid, const KernelResources& resources);
  // The statistics of a finished launch (gpu_stats.cpp).
  nlohmann::json launchStats(Cycle cycles, const func::GridContext& grid,
                             const Occupancy& occupancy) const;
};

// The statistics JSON of a launch from its parts (gpu_stats.cpp).
nlohmann::json assembleLaunchStats(Cycle cycles, uint64_t warpInstructions,
                                   uint64_t threadInstructions, const nlohmann::json& smTotals,
                                   const nlohmann::json& memory, const Occupancy& occupancy);

}  // namespace warpsim::timing
