// Kernel sampling for programs of many launches (timing mode, off by default): once the last
// `sampling.launches` timed launches of one kernel shape (kernel, grid, block, dynamic shared
// memory) ran at thread IPCs within `sampling.ipc_tolerance` of their mean, the next launches of
// that shape run in the functional engine only, and their cycles are estimated as their thread
// instructions over the mean thread IPC of those timed launches (instructions over cycles,
// summed). The estimate's spread is the largest relative distance of a timed launch's IPC from
// the mean, in cycles of the estimate. A shape whose timed launches disagree is timed again
// until the last ones agree. After `sampling.check_every` estimated launches of a shape the
// next one is timed again as a check: within the tolerance of the mean it joins the timed
// launches (the oldest leaves); outside it, the shape's timed launches are forgotten and it is
// timed until the last ones agree again. A launch estimated with more or fewer thread
// instructions than the timed ones' mean (beyond the tolerance) makes the next one a check too:
// its work has changed, and IPC often changes with it. Estimated launches do not pass through the timing
// model: its caches keep what the last timed launch left, and mechanisms see no launch.
//
//   [sampling]
//   launches = 3          # 0: off (every launch timed)
//   ipc_tolerance = 0.05
//   check_every = 4       # 0: no checks
#pragma once
#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <tuple>

#include "func/launch.h"
#include "runtime/cycle_estimate.h"

namespace warpsim::config {
class Tree;
}

namespace warpsim::runtime {

struct SamplingOptions {
  uint32_t launches = 0;       // timed launches that must agree; 0: sampling off
  double ipcTolerance = 0.05;  // largest relative distance of their IPCs from the mean
  uint32_t checkEvery = 4;     // estimated launches of a shape between two timed checks; 0: none
};

// Reads (and so declares) the [sampling] keys, in either mode. Throws config::Error.
SamplingOptions readSamplingOptions(config::Tree& tree);

class KernelSampler {
 public:
  struct Shape {
    std::string kernel;
    func::Dim3 grid, block;
    uint32_t dynamicSharedBytes = 0;
    bool operator<(const Shape& o) const;
  };

  explicit KernelSampler(SamplingOptions options = {}) : options_(options) {}

  bool enabled() const { return options_.launches != 0; }
  // Whether the next launch of `shape` may be estimated instead of timed.
  bool canEstimate(const Shape& shape) const;
  // The estimate for a launch of `shape` of `threadInstructions` (canEstimate must hold); it
  // counts towards the next check.
  uint64_t estimateCycles(const Shape& shape, uint64_t threadInstructions, CycleEstimate& basis);
  // A timed launch of `shape` (ignored when it ran no instruction or took no cycle).
  void recordTimed(const Shape& shape, uint64_t threadInstructions, uint64_t cycles);

 private:
  struct Timed {
    uint64_t threadInstructions, cycles;
  };
  struct History {
    std::deque<Timed> window;  // the last `launches` timed launches that agree
    uint32_t sinceCheck = 0;   // launches estimated since the last timed one
    bool checkNext = false;    // an estimated launch's work differed from the timed ones'
  };
  // The mean IPC of the window and the largest relative distance of one launch's IPC from it.
  static void meanAndSpread(const std::deque<Timed>& window, double& mean, double& spread);

  SamplingOptions options_;
  std::map<Shape, History> shapes_;
};

}  // namespace warpsim::runtime
