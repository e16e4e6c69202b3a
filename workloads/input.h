// Deterministic input generation for host drivers: the same seed gives the same data on every
// platform (std:: distributions are implementation-defined, so they are not used).
#pragma once
#include <cstdint>

namespace warpsim::workloads {

class InputGenerator {
 public:
  explicit InputGenerator(uint64_t seed) : state_(seed) {}

  // splitmix64
  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform integer in [lo, hi] (hi - lo small against 2^64: the bias is negligible).
  int64_t uniform(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(next() % static_cast<uint64_t>(hi - lo + 1));
  }
  // A float k / 2^fractionBits with k uniform in [lo, hi]: exactly representable, so sums and
  // products of few of them are exact and compare bit for bit with the CPU.
  float dyadic(int64_t lo, int64_t hi, int fractionBits) {
    return static_cast<float>(uniform(lo, hi)) / static_cast<float>(1u << fractionBits);
  }

 private:
  uint64_t state_;
};

}  // namespace warpsim::workloads
