// The GPU in timing mode: SMs, the memory hierarchy, the CTA scheduler and the per-SM resource
// managers, driven by one loop over core cycles (see docs/design/timing-model.md).
//
//   config::Tree tree = config::Tree::load("gtx480");
//   PluginRegistry registry;
//   registerBaselines(registry);
//   registerMechanisms(registry);
//   timing::Gpu gpu(tree, registry, deviceMemory);
//   tree.checkAllUsed();
//   KernelTiming t = gpu.run(program, kernel, launch, runOptions, resources);
//
// The functional engine executes every instruction when an SM issues it, so a launch gives the
// same memory contents as func::runKernel; the Gpu adds when and at what cost. One Gpu keeps its
// caches and its simulated time across launches. Reads [gpu] and [clocks].core; builds the
// memory system (keys of timing/mem), the SMs (timing/sm), the CTA scheduler
// ([cta_scheduler].impl) and a resource manager per SM ([resources].impl).
#pragma once
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/config.h"
#include "func/device_memory.h"
#include "func/launch.h"
#include "func/program.h"
#include "timing/clock_domain.h"
#include "timing/i_resource_manager.h"
#include "timing/kernel_resources.h"
#include "timing/plugin_registry.h"

namespace warpsim::timing {

struct GpuOptions {
  // Where the live progress line goes (a terminal); nullptr: no progress line.
  std::FILE* progress = nullptr;
};

// One launch in timing mode.
struct KernelTiming {
  func::LaunchResult result;   // as func::runKernel reports it; errors include deadlocks
  Cycle cycles = 0;            // core cycles from the launch to the last CTA's retirement
  double simulatedNs = 0.0;    // the same span in nanoseconds
  nlohmann::json stats;        // docs/stats.md "timing"
};

class Gpu {
 public:
  Gpu(config::Tree& tree, const PluginRegistry& registry, func::DeviceMemory& memory,
      GpuOptions options = {});
  ~Gpu();
  Gpu(const Gpu&) = delete;
  Gpu& operator=(const Gpu&) = delete;

  // Runs one launch to completion, to a fault, to the instruction limit of `options` or to a
  // deadlock. Launch errors (invalid launch, a CTA that can never fit on an SM, a cooperative
  // launch with more CTAs than the SMs hold at once) come back in result.error as one line;
  // nothing is thrown for them.
  KernelTiming run(const func::Program& program, uint32_t function,
                   const func::LaunchConfig& launch, const func::RunOptions& options,
                   const KernelResources& resources);

  uint32_t numSms() const;
  const ClockDomain& coreClock() const;
  // The occupancy a kernel with `resources` would reach per SM (SM 0's resource manager),
  // without running it; limitedBy is "" and ctasPerSm 0 when it can never fit.
  Occupancy occupancyOf(const KernelResources& resources);
  // Simulated time since the Gpu was built, in picoseconds.
  uint64_t nowPs() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace warpsim::timing
