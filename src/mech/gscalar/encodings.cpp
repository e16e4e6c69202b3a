// The comparators behind the register encodings: G-Scalar's byte-prefix detector with its
// leading-one lane for divergent masks, the thermometer code, and BDI's delta-size choice.
#include <bit>

#include "mech/gscalar/register_state.h"

namespace warpsim::mech::gscalar {

int leadingOneLane(uint32_t mask) { return mask == 0 ? -1 : 31 - std::countl_zero(mask); }

unsigned commonMsbBytes(const uint32_t* values, uint32_t lanes, uint32_t mask) {
  const uint32_t active = lanes & mask;
  if (active == 0) return 4;
  // Any active lane can stand in for the inactive ones (digest s1.5); the hardware takes the
  // leading one. Differences are ORed so the most significant differing bit ends the prefix.
  const uint32_t ref = values[leadingOneLane(active)];
  uint32_t differ = 0;
  if (active == kFullMask || active == 0x0000FFFFu || active == 0xFFFF0000u) {
    // The common cases (a whole warp or half): a straight reduction the compiler vectorises.
    const unsigned first = active == 0xFFFF0000u ? 16 : 0, last = active == 0x0000FFFFu ? 16 : kLanes;
    for (unsigned l = first; l < last; ++l) differ |= values[l] ^ ref;
  } else {
    for (uint32_t m = active; m != 0; m &= m - 1) differ |= values[std::countr_zero(m)] ^ ref;
  }
  return static_cast<unsigned>(std::countl_zero(differ)) / 8;
}

uint8_t thermometer(unsigned commonBytes) {
  return static_cast<uint8_t>((0xF0u >> commonBytes) & 0xFu);
}

unsigned bdiDeltaBytes(const uint32_t* values) {
  const uint32_t base = values[0];
  int32_t lo = 0, hi = 0;
  for (unsigned l = 1; l < kLanes; ++l) {
    const auto delta = static_cast<int32_t>(values[l] - base);  // wraps like the hardware subtractor
    lo = delta < lo ? delta : lo;
    hi = delta > hi ? delta : hi;
  }
  if (lo == 0 && hi == 0) return 0;
  if (lo >= -128 && hi <= 127) return 1;
  if (lo >= -32768 && hi <= 32767) return 2;
  return 4;
}

}  // namespace warpsim::mech::gscalar
