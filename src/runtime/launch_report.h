// What one kernel launch produced: the engine's result, statistics and the kernel's resource
// usage.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "compiler/register_allocation.h"
#include "func/launch.h"
#include "profile/value_similarity_profiler.h"
#include "runtime/cycle_estimate.h"
#include "runtime/kernel_stats.h"
#include "runtime/resource_usage.h"

namespace warpsim::runtime {

struct LaunchReport {
  std::string kernel;
  func::Dim3 grid, block;
  uint32_t dynamicSharedBytes = 0;
  func::LaunchResult result;
  KernelStats stats;          // empty when DeviceOptions::collectStats is false
  ResourceUsage resources;
  double wallSeconds = 0.0;   // host time spent simulating the launch
  // Timing mode only (zero / null in functional mode): core cycles from launch to the last
  // CTA's retirement, simulated time, and the timing model's statistics of the launch
  // (docs/stats.md "timing", energy included).
  uint64_t cycles = 0;
  double simulatedSeconds = 0.0;
  // In a concurrent batch (Device::runConcurrent): simulated time from the batch's start to
  // this launch's start (after the launches it waits for); 0 otherwise.
  double startSeconds = 0.0;
  std::shared_ptr<const nlohmann::json> timing;
  // Kernel sampling (runtime/kernel_sampler.h): the launch ran in the functional engine only and
  // `cycles` (and simulatedSeconds) are estimated from earlier timed launches of its shape; no
  // `timing` statistics.
  std::optional<CycleEstimate> cycleEstimate;
  // Value similarity of the launch's register writes and local stores (src/profile); present
  // only when the configuration key profile.value_similarity is on.
  std::optional<profile::ValueSimilarityStats> valueSimilarity;
  // Present when the module was register-allocated (compiler.registers, or the kernel did not
  // fit the GPU's per-thread register limit): what the allocator did to the kernel itself, and
  // the budget ("minimal", "32"). Its spill traffic is in stats.spill.
  std::optional<compiler::FunctionAllocation> allocation;
  std::string allocationBudget;
  // Accesses outside every allocation (memcheck off) and reads of never-written memory
  // (initcheck on) the launch made (func/memory_findings.h).
  func::MemoryFindings memory;
  // Locality descriptors the launch took (warpsim/locality.h); hints for the timing model.
  uint32_t localityDescriptors = 0;
  // The program's XMem atoms at the launch and the operations on them it took (host calls since
  // the previous launch); the operations its kernel issued are result.deviceAtomOps.
  uint32_t atoms = 0;
  uint32_t atomOps = 0;

  uint64_t threadInstructions() const { return result.threadInstructions; }
  uint64_t warpInstructions() const { return result.warpInstructions; }
  double threadInstructionsPerSecond() const {
    return wallSeconds > 0 ? static_cast<double>(result.threadInstructions) / wallSeconds : 0.0;
  }
};

}  // namespace warpsim::runtime
