// Stops a launch that makes no progress: when the progress count (warp-instructions issued,
// CTAs retired, memory requests moved) has not changed for `limit` core cycles, the launch is
// deadlocked. limit 0 disables the check.
#pragma once
#include <cstdint>

#include "timing/sm_memory.h"

namespace warpsim::timing {

class DeadlockDetector {
 public:
  explicit DeadlockDetector(Cycle limit = 0) : limit_(limit) {}
  void begin(Cycle now) {
    since_ = now;
    last_ = 0;
  }
  void observe(Cycle now, uint64_t progress) {
    if (progress != last_) {
      last_ = progress;
      since_ = now;
    }
  }
  bool stuck(Cycle now) const { return limit_ != 0 && now - since_ >= limit_; }
  // The cycle at which the launch counts as deadlocked if nothing moves (kNever when off):
  // idle-cycle skipping never jumps past it.
  Cycle deadline() const { return limit_ == 0 ? kNever : since_ + limit_; }
  Cycle limit() const { return limit_; }
  Cycle stalledSince() const { return since_; }

 private:
  Cycle limit_;
  Cycle since_ = 0;
  uint64_t last_ = 0;
};

}  // namespace warpsim::timing
