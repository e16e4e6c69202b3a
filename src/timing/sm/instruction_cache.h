// The SM's instruction cache: set-associative, LRU, fixed miss latency (the fill is not modelled
// below the SM). A miss allocates the line at once with the cycle its data arrives; later
// accesses to the line before then wait for the same fill (counted as hits: one fill per miss).
#pragma once
#include <cstdint>
#include <vector>

#include "timing/sm_memory.h"

namespace warpsim::timing {

class InstructionCache {
 public:
  InstructionCache(uint32_t bytes, uint32_t assoc, uint32_t line, uint32_t missLatency);

  // Looks up `addr` at `now`; returns the cycle at which its line's data is available (now on
  // a hit to a filled line).
  Cycle access(uint64_t addr, Cycle now);
  void invalidate();

  uint32_t lineBytes() const { return line_; }
  uint64_t accesses() const { return accesses_; }
  uint64_t hits() const { return accesses_ - misses_; }
  uint64_t misses() const { return misses_; }
  void clearCounters() { accesses_ = misses_ = 0; }

 private:
  struct Way {
    uint64_t tag = UINT64_MAX;
    Cycle filled = 0;
    uint64_t lastUse = 0;
  };
  uint32_t line_, assoc_, sets_, missLatency_;
  std::vector<Way> ways_;
  uint64_t useClock_ = 0;
  uint64_t accesses_ = 0, misses_ = 0;
};

}  // namespace warpsim::timing
