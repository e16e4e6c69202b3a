#include "profile/value_class.h"

#include <bit>

namespace warpsim::profile {

namespace {

// The inverse of an odd number modulo 2^32 (Newton's iteration; each step doubles the correct
// low bits, and x = odd is already correct to 3 bits).
uint32_t inverseOdd(uint32_t odd) {
  uint32_t x = odd;
  for (int i = 0; i < 4; ++i) x *= 2u - odd * x;
  return x;
}

// Bits j of 1..31 with exactly t trailing zero bits, for t = 0..4.
constexpr uint32_t kDistancesWithTrailingZeros[5] = {0xAAAAAAAAu, 0x44444444u, 0x10101010u,
                                                     0x01000100u, 0x00010000u};

// Whether some stride s != 0 gives words[i] = words[first] + (i - first) * s (mod 2^32) for
// every active lane i, given that the active words are not all equal. Solving
// s * (g - first) = words[g] - words[first] for the active lane g whose distance from the first
// has the fewest trailing zero bits (t) fixes s modulo 2^(32-t), and every other active lane's
// distance has at least t trailing zero bits, so its product with s depends only on that
// residue: checking one representative decides the question exactly.
bool isAffine(const uint32_t words[32], uint32_t mask, unsigned first) {
  const uint32_t distances = (mask >> first) & ~1u;  // not empty: two active words differ
  unsigned t = 0;
  while ((distances & kDistancesWithTrailingZeros[t]) == 0) ++t;
  const uint32_t candidates = distances & kDistancesWithTrailingZeros[t];
  const auto d = static_cast<uint32_t>(std::countr_zero(candidates));
  const uint32_t base = words[first];
  const uint32_t delta = words[first + d] - base;
  if ((delta & ((1u << t) - 1u)) != 0) return false;
  const uint32_t stride = (delta >> t) * inverseOdd(d >> t);
  uint32_t miss = 0;
  for (uint32_t lane = 0; lane < 32; ++lane) {
    const uint32_t expected = base + (lane - first) * stride;
    miss |= ((mask >> lane) & 1u) != 0 ? (words[lane] ^ expected) : 0u;
  }
  return miss == 0;
}

}  // namespace

WordClass classifyWords(const uint32_t words[32], uint32_t mask) {
  const auto first = static_cast<unsigned>(std::countr_zero(mask));
  const uint32_t v0 = words[first];
  uint32_t diff = 0;  // bits that differ from the first active lane in some active lane
  for (unsigned lane = 0; lane < 32; ++lane) {
    diff |= ((mask >> lane) & 1u) != 0 ? (words[lane] ^ v0) : 0u;
  }
  if (diff == 0) return WordClass::Uniform;
  if (isAffine(words, mask, first)) return WordClass::Affine;
  if ((diff >> 8) == 0) return WordClass::Msb3;
  if ((diff >> 16) == 0) return WordClass::Msb2;
  if ((diff >> 24) == 0) return WordClass::Msb1;
  return WordClass::Random;
}

const char* wordClassName(WordClass c) {
  switch (c) {
    case WordClass::Uniform: return "uniform";
    case WordClass::Affine: return "affine";
    case WordClass::Msb3: return "msb3";
    case WordClass::Msb2: return "msb2";
    case WordClass::Msb1: return "msb1";
    case WordClass::Random: return "random";
  }
  return "?";
}

}  // namespace warpsim::profile
