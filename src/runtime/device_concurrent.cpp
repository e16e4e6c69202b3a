// Device::runConcurrent: launches from different streams run together (timing mode) or one
// after another (functional mode).
#include <chrono>
#include <memory>

#include <fmt/format.h>

#include "func/functional_gpu.h"
#include "runtime/device.h"
#include "timing/gpu.h"

namespace warpsim::runtime {

std::vector<LaunchReport> Device::runConcurrent(const std::vector<ConcurrentLaunch>& given) {
  // Each launch with the hints of its kernel's next launch, in order (withHints).
  std::vector<ConcurrentLaunch> launches = given;
  for (ConcurrentLaunch& l : launches) {
    func::LaunchConfig hinted;
    if (&withHints(*l.kernel, l.config, hinted) == &hinted) l.config = std::move(hinted);
  }
  std::vector<std::unique_ptr<LaunchSetup>> setups;
  setups.reserve(launches.size());
  for (const ConcurrentLaunch& l : launches) {
    if (std::string why = hintProblem(*l.kernel, l.config); !why.empty()) throw Error(why);
    if (l.config.cooperative) {
      throw Error(fmt::format("kernel '{}': a cooperative launch runs alone, not in a concurrent batch",
                              l.kernel->name()));
    }
    setups.push_back(std::make_unique<LaunchSetup>(*l.kernel, l.config, launchDefaults()));
  }

  const auto start = std::chrono::steady_clock::now();
  if (gpu_) {
    std::vector<timing::BatchLaunch> batch(launches.size());
    for (size_t i = 0; i < launches.size(); ++i) {
      timing::BatchLaunch& b = batch[i];
      b.program = &launches[i].kernel->program();
      b.function = launches[i].kernel->index();
      b.launch = launches[i].config;
      b.options = setups[i]->run;
      b.resources.registersPerThread = setups[i]->report.resources.registers;
      b.after = launches[i].after;
    }
    std::vector<timing::KernelTiming> timings = gpu_->runConcurrent(batch);
    for (size_t i = 0; i < launches.size(); ++i) setups[i]->takeTiming(std::move(timings[i]));
  } else {
    // In order; after a failed launch the others stop, as a timing-mode batch does.
    const LaunchReport* failed = nullptr;
    for (size_t i = 0; i < launches.size(); ++i) {
      LaunchReport& report = setups[i]->report;
      if (failed != nullptr) {
        report.result.ok = false;
        report.result.error = fmt::format("kernel '{}': stopped: kernel '{}' running beside it failed",
                                          report.kernel, failed->kernel);
        continue;
      }
      report.result = func::runKernel(launches[i].kernel->program(), launches[i].kernel->index(),
                                      launches[i].config, *memory_, setups[i]->run);
      if (!report.result.ok) failed = &report;
    }
  }
  // Host time of the whole batch, shared out by thread-instructions.
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  uint64_t threadInstructions = 0;
  for (const auto& s : setups) threadInstructions += s->report.result.threadInstructions;

  std::vector<LaunchReport> reports;
  reports.reserve(launches.size());
  for (auto& s : setups) {
    s->report.wallSeconds =
        threadInstructions == 0
            ? wall / static_cast<double>(setups.size())
            : wall * static_cast<double>(s->report.result.threadInstructions) / threadInstructions;
    s->finish();
    reportFindings(s->report.memory);
    reports.push_back(std::move(s->report));
  }
  return reports;
}

}  // namespace warpsim::runtime
