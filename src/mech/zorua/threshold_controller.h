// The oversubscription threshold of one resource (Algorithm 3 of the Zorua chapter): the most
// sets that may live in swap space, adapted every epoch from two counters of the SM, cycles
// idle for want of a ready warp (c_idle: more warps would help) and cycles waiting for memory
// (c_mem: swap traffic would hurt):
//   every epoch: d_idle = c_idle this epoch - c_idle last epoch; d_mem likewise
//     d_idle - d_mem > delta  ->  threshold += step
//     d_mem - d_idle > delta  ->  threshold -= step
// Defaults: threshold 10% of the physical resource, step 4%, delta 16 cycles, epoch 2048 core
// cycles. The threshold stays within [0, physical] (the chapter gives no bounds).
#pragma once
#include <cstdint>

namespace warpsim::mech::zorua {

struct ThresholdParams {
  uint32_t epochCycles = 2048;
  double initial = 0.10;    // of the physical resource
  double step = 0.04;       // of the physical resource
  uint32_t deltaCycles = 16;
  bool adaptive = true;     // false: the threshold stays at `initial`
};

class ThresholdController {
 public:
  ThresholdController() = default;
  ThresholdController(const ThresholdParams& params, uint32_t physical);
  // Sets that may be in swap now.
  uint32_t threshold() const { return threshold_; }
  // One epoch ended with these per-epoch counts (cycles); returns the new threshold.
  uint32_t endEpoch(uint64_t idleCycles, uint64_t memoryCycles);
  uint64_t raises() const { return raises_; }
  uint64_t lowers() const { return lowers_; }

 private:
  ThresholdParams params_;
  uint32_t physical_ = 0, threshold_ = 0, step_ = 0;
  uint64_t lastIdle_ = 0, lastMemory_ = 0;
  uint64_t raises_ = 0, lowers_ = 0;
};

}  // namespace warpsim::mech::zorua
