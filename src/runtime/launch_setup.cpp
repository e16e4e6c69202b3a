#include "runtime/launch_setup.h"

#include <memory>

#include <nlohmann/json.hpp>

#include "runtime/device.h"
#include "timing/gpu.h"

namespace warpsim::runtime {

LaunchSetup::LaunchSetup(const Kernel& kernel, const func::LaunchConfig& config,
                         const LaunchDefaults& defaults)
    : profileValues_(defaults.profileValues) {
  const DeviceOptions& options = *defaults.options;
  report.kernel = kernel.name();
  report.grid = config.grid;
  report.block = config.block;
  report.dynamicSharedBytes = config.dynamicSharedBytes;
  if (config.hints) {
    report.localityDescriptors = static_cast<uint32_t>(config.hints->locality.size());
    report.atoms = static_cast<uint32_t>(config.hints->atoms.attributes.size());
    report.atomOps = static_cast<uint32_t>(config.hints->atoms.newOps);
  }
  report.resources = kernel.resources();
  if (const compiler::FunctionAllocation* a = kernel.allocation()) {
    report.allocation = *a;
    report.allocationBudget = kernel.allocationBudget();
  }
  // Observers: the instruction statistics, the value profiler, both or none (an observer that
  // is not installed costs nothing).
  if (options.collectStats && profileValues_) {
    run.observer = &both_;
  } else if (options.collectStats) {
    run.observer = &observer_;
  } else if (profileValues_) {
    run.observer = &profiler_;
  }
  run.printfOut = options.printfOutput;
  run.numSms = defaults.numSms;  // %nsmid as the configured GPU has it
  run.warpQuantum = defaults.warpQuantum;
  run.threads = defaults.threads;
  run.ctaDependence = defaults.ctaDependence;
  if (options.maxWarpInstructions != 0) run.maxWarpInstructions = options.maxWarpInstructions;
  if (options.localStackBytes != 0) run.localStackBytes = options.localStackBytes;
  run.findings = &report.memory;
  run.memcheck = options.memcheck;
  run.initcheck = options.initcheck;
}

void LaunchSetup::takeTiming(timing::KernelTiming&& t) {
  report.result = std::move(t.result);
  report.cycles = t.cycles;
  report.simulatedSeconds = t.simulatedNs * 1e-9;
  report.startSeconds = t.startNs * 1e-9;
  report.timing = std::make_shared<const nlohmann::json>(std::move(t.stats));
}

void LaunchSetup::finish() {
  report.stats = observer_.stats();
  if (profileValues_) report.valueSimilarity = profiler_.stats();
}

}  // namespace warpsim::runtime
