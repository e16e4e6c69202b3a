// The restricted-affine encoding of a warp-wide vector of 32-bit words (digest s1.2, s1.10):
// under an activity mask m, lanes i with m_i = 1 hold d_i = b + i * s, with s = 0 (uniform) or
// s = 2^sigma, sigma in 0..6; stored as b (32 bits, modulo 2^32) and a 3-bit stride code
// (sigma, or kStrideZero for s = 0). Inactive lanes are don't-cares.
//
// Two encoders give (b, code):
//   encodeExact     the classifier: the stride from the first two active lanes, which must be
//                   0 or a power of two up to 64 with the first value a multiple of it (the
//                   paper's "base a multiple of the stride"), then every active lane checked;
//   encodeHardware  the paper's encoder: XOR of the first aligned pair (2k, 2k+1) whose two
//                   lanes are active, stride = its lowest set bit (the literal XOR is corrupted
//                   by carries), stride 0 when no aligned pair is active or the XOR is zero,
//                   b = d_f - f * s for the first active lane f, then decode-and-compare.
// They disagree on vectors such as a lone odd pair or a base that is not a multiple of the
// stride; the AVC counts the disagreements.
#pragma once
#include <cstdint>

namespace warpsim::mech::avc {

inline constexpr uint8_t kStrideZero = 7;  // the 3-bit code of stride 0
inline constexpr uint8_t kMaxSigma = 6;

struct AffineCode {
  uint32_t base = 0;
  uint8_t code = kStrideZero;
  bool operator==(const AffineCode&) const = default;
};

inline uint32_t decodeLane(AffineCode c, unsigned lane) {
  return c.code == kStrideZero ? c.base : c.base + (uint32_t{lane} << c.code);
}

bool encodeExact(const uint32_t* d, uint32_t mask, AffineCode& out);
bool encodeHardware(const uint32_t* d, uint32_t mask, AffineCode& out);

// What the masked vector is, whatever the encoding can hold (Fig. 1(b)'s classes).
enum class ValueClass : uint8_t { Zero, Uniform, Affine, Generic, kCount };
struct Classification {
  ValueClass cls = ValueClass::Generic;
  bool unrepresentable = false;  // affine (integer stride) but not a restricted-affine code
};
Classification classify(const uint32_t* d, uint32_t mask);

// Whether the active lanes of `mask` are consecutive.
inline bool denseMask(uint32_t mask) {
  if (mask == 0) return true;
  const uint32_t shifted = mask >> __builtin_ctz(mask);
  return (shifted & (shifted + 1)) == 0;
}

}  // namespace warpsim::mech::avc
