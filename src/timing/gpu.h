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
//   std::vector<KernelTiming> ts = gpu.runConcurrent({launchA, launchB});  // side by side
//
// The functional engine executes every instruction when an SM issues it, so a launch gives the
// same memory contents as func::runKernel; the Gpu adds when and at what cost. One Gpu keeps its
// caches and its simulated time across launches. Reads [gpu] and [clocks].core; builds the
// memory system (keys of timing/mem), the SMs (timing/sm), the CTA scheduler
// ([cta_scheduler].impl, one per launch of a batch) and a resource manager per SM
// ([resources].impl).
//
// Concurrent launches (runConcurrent; docs/design/timing-model.md "Concurrent launches"):
// - SM-exclusive sharing, as GPGPU-Sim does by default: an SM holds CTAs of one launch at a
//   time. At the batch start every SM is bound to the first launch that can start; an idle SM
//   (nothing resident, nothing in flight) may be rebound to another launch.
// - The work distributor runs every cycle: the launches that have started and still have CTAs
//   to start, oldest first, each get their own CTA scheduler's turn; a launch may start a CTA on
//   an SM bound to it with room, or on an idle SM, which it binds first. A big first grid takes
//   every SM and later launches get SMs as it drains; small grids run side by side.
// - A launch without `after` starts at the batch start; one with `after` at the cycle its last
//   `after` launch ended (so its start equals that launch's start plus its cycles). A launch
//   ends when all its CTAs have retired and every SM bound to it is idle; the last launch of
//   the batch to end also waits for the memory system to drain. A batch of one is exactly run().
// - A launch that cannot run (invalid, a CTA that never fits, a cooperative grid too large, a
//   bad `after`) fails alone with its one-line error, 0 cycles, and counts as ended at the
//   batch start. A runtime error (fault, instruction limit, deadlock) stops the whole batch:
//   the launch it belongs to gets the error, every other launch that had not ended gets
//   "kernel 'k': stopped: kernel 'f' running beside it failed".
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
  Cycle cycles = 0;            // core cycles from the launch's start to its end
  double simulatedNs = 0.0;    // the same span in nanoseconds
  // Simulated ns from the batch's start to this launch's start (0 for a lone launch).
  double startNs = 0.0;
  nlohmann::json stats;        // docs/stats.md "timing"
};

// One launch of a concurrent batch (Gpu::runConcurrent).
struct BatchLaunch {
  const func::Program* program = nullptr;
  uint32_t function = 0;
  func::LaunchConfig launch;
  func::RunOptions options;
  KernelResources resources;
  // Indices of earlier launches of the batch that must end before this one starts (stream
  // order, event waits); each must be smaller than this launch's own index.
  std::vector<uint32_t> after;
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
  // nothing is thrown for them. The same as runConcurrent of this one launch.
  KernelTiming run(const func::Program& program, uint32_t function,
                   const func::LaunchConfig& launch, const func::RunOptions& options,
                   const KernelResources& resources);
  // Runs the launches of a batch together, sharing the GPU as the work distributor allows (see
  // above); one KernelTiming per launch, in order. The batch ends when its last launch ends.
  std::vector<KernelTiming> runConcurrent(const std::vector<BatchLaunch>& launches);

  uint32_t numSms() const;
  const ClockDomain& coreClock() const;
  // The occupancy a kernel with `resources` would reach per SM (a probe resource manager of the
  // configured kind, never an SM's own), without running it; limitedBy is "" and ctasPerSm 0
  // when it can never fit.
  Occupancy occupancyOf(const KernelResources& resources);
  // Simulated time since the Gpu was built, in picoseconds.
  uint64_t nowPs() const;
  // Functional warming between launches (kernel sampling): the shared caches as if a global
  // access of `bytes` at `address` had been served (MemorySystem::warm); no time passes.
  void warm(uint64_t address, uint32_t bytes, bool write);

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace warpsim::timing
