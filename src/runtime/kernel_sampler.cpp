#include "runtime/kernel_sampler.h"

#include <algorithm>
#include <cmath>

#include "config/config.h"

namespace warpsim::runtime {

SamplingOptions readSamplingOptions(config::Tree& tree) {
  config::Section s = tree.section("sampling");
  SamplingOptions o;
  o.launches = s.u32("launches", 0,
                     "timing mode: kernel sampling; after this many timed launches of one kernel "
                     "shape (kernel, grid, block, dynamic shared memory) agree in thread IPC, later "
                     "launches of it run functionally with estimated cycles (0: every launch timed)",
                     0, 1000);
  o.ipcTolerance = s.f64("ipc_tolerance", 0.05,
                         "kernel sampling: how far (relative) each of those launches' thread IPC "
                         "may lie from their mean",
                         0.0, 1.0);
  o.checkEvery = s.u32("check_every", 4,
                       "kernel sampling: estimated launches of a shape between two timed checks "
                       "(a check outside the tolerance times the shape again; 0: no checks)");
  return o;
}

bool KernelSampler::Shape::operator<(const Shape& o) const {
  auto key = [](const Shape& s) {
    return std::tie(s.kernel, s.grid.x, s.grid.y, s.grid.z, s.block.x, s.block.y, s.block.z,
                    s.dynamicSharedBytes);
  };
  return key(*this) < key(o);
}

void KernelSampler::meanAndSpread(const std::deque<Timed>& window, double& mean, double& spread) {
  uint64_t instructions = 0, cycles = 0;
  for (const Timed& t : window) {
    instructions += t.threadInstructions;
    cycles += t.cycles;
  }
  mean = static_cast<double>(instructions) / static_cast<double>(cycles);
  spread = 0.0;
  for (const Timed& t : window) {
    const double ipc = static_cast<double>(t.threadInstructions) / static_cast<double>(t.cycles);
    spread = std::max(spread, std::fabs(ipc / mean - 1.0));
  }
}

bool KernelSampler::canEstimate(const Shape& shape) const {
  if (!enabled()) return false;
  const auto it = shapes_.find(shape);
  if (it == shapes_.end() || it->second.window.size() < options_.launches) return false;
  if (it->second.checkNext) return false;
  if (options_.checkEvery != 0 && it->second.sinceCheck >= options_.checkEvery) return false;
  double mean = 0.0, spread = 0.0;
  meanAndSpread(it->second.window, mean, spread);
  return spread <= options_.ipcTolerance;
}

uint64_t KernelSampler::estimateCycles(const Shape& shape, uint64_t threadInstructions,
                                       CycleEstimate& basis) {
  History& h = shapes_.at(shape);
  ++h.sinceCheck;
  const std::deque<Timed>& window = h.window;
  double mean = 0.0, spread = 0.0;
  meanAndSpread(window, mean, spread);
  const double cycles = std::max(1.0, std::round(static_cast<double>(threadInstructions) / mean));
  uint64_t timedInstructions = 0;
  for (const Timed& t : window) timedInstructions += t.threadInstructions;
  const double work = static_cast<double>(threadInstructions) * static_cast<double>(window.size()) /
                      static_cast<double>(timedInstructions);
  if (std::fabs(work - 1.0) > options_.ipcTolerance) h.checkNext = true;
  basis.timedLaunches = static_cast<uint32_t>(window.size());
  basis.threadIpc = mean;
  basis.spreadCycles = static_cast<uint64_t>(std::round(cycles * spread));
  return static_cast<uint64_t>(cycles);
}

void KernelSampler::recordTimed(const Shape& shape, uint64_t threadInstructions, uint64_t cycles) {
  if (!enabled() || threadInstructions == 0 || cycles == 0) return;
  History& h = shapes_[shape];
  if (h.sinceCheck != 0 || h.checkNext) {
    // A check: a launch outside the tolerance of the estimates' mean starts the window again.
    double mean = 0.0, spread = 0.0;
    meanAndSpread(h.window, mean, spread);
    const double ipc = static_cast<double>(threadInstructions) / static_cast<double>(cycles);
    if (std::fabs(ipc / mean - 1.0) > options_.ipcTolerance) h.window.clear();
    h.sinceCheck = 0;
    h.checkNext = false;
  }
  h.window.push_back({threadInstructions, cycles});
  while (h.window.size() > options_.launches) h.window.pop_front();
}

}  // namespace warpsim::runtime
