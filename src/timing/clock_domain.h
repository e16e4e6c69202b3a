// A clock domain: cycle n of a clock of f kHz starts at floor(n * 10^9 / f) picoseconds.
// Integer arithmetic only, so every run sees exactly the same edges.
#pragma once
#include <cstdint>

#include "timing/sm_memory.h"

namespace warpsim::timing {

class ClockDomain {
 public:
  ClockDomain() = default;
  explicit ClockDomain(uint64_t khz) : khz_(khz) {}
  static ClockDomain fromMhz(double mhz) { return ClockDomain(static_cast<uint64_t>(mhz * 1000.0 + 0.5)); }

  uint64_t khz() const { return khz_; }
  double mhz() const { return static_cast<double>(khz_) / 1000.0; }
  // Start of cycle `c` in picoseconds.
  uint64_t timeOf(Cycle c) const {
    return static_cast<uint64_t>((static_cast<unsigned __int128>(c) * kPsPerKhzCycle) / khz_);
  }
  // The first cycle that starts at or after `ps` (kNever stays kNever).
  Cycle firstCycleAtOrAfter(uint64_t ps) const {
    if (ps == kNever) return kNever;
    const unsigned __int128 scaled = static_cast<unsigned __int128>(ps) * khz_;
    return static_cast<Cycle>((scaled + kPsPerKhzCycle - 1) / kPsPerKhzCycle);
  }

 private:
  static constexpr uint64_t kPsPerKhzCycle = 1'000'000'000;  // ps in one cycle of 1 kHz
  uint64_t khz_ = 1;
};

}  // namespace warpsim::timing
