// What a launch's cycle estimate rests on, when kernel sampling estimated it
// (runtime/kernel_sampler.h).
#pragma once
#include <cstdint>

namespace warpsim::runtime {

struct CycleEstimate {
  uint32_t timedLaunches = 0;  // timed launches of the kernel shape whose IPC it uses
  double threadIpc = 0.0;      // their thread instructions per cycle, summed over them
  uint64_t spreadCycles = 0;   // the largest relative distance of their IPCs from it, in cycles
};

}  // namespace warpsim::runtime
