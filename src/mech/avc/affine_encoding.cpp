#include "mech/avc/affine_encoding.h"

#include <bit>

namespace warpsim::mech::avc {

namespace {

bool verify(const uint32_t* d, uint32_t mask, AffineCode c) {
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(m));
    if (d[lane] != decodeLane(c, lane)) return false;
  }
  return true;
}

}  // namespace

bool encodeExact(const uint32_t* d, uint32_t mask, AffineCode& out) {
  if (mask == 0) return false;
  const unsigned f = static_cast<unsigned>(std::countr_zero(mask));
  const uint32_t rest = mask & (mask - 1);
  AffineCode c{d[f], kStrideZero};
  if (rest != 0) {
    const unsigned g = static_cast<unsigned>(std::countr_zero(rest));
    const uint32_t diff = d[g] - d[f];
    const uint32_t lanes = g - f;
    if (diff != 0) {
      if (diff % lanes != 0) return false;
      const uint32_t s = diff / lanes;
      if (!std::has_single_bit(s) || std::countr_zero(s) > kMaxSigma) return false;
      if (d[f] % s != 0) return false;
      c.code = static_cast<uint8_t>(std::countr_zero(s));
      c.base = d[f] - f * s;
    }
  }
  if (!verify(d, mask, c)) return false;
  out = c;
  return true;
}

bool encodeHardware(const uint32_t* d, uint32_t mask, AffineCode& out) {
  if (mask == 0) return false;
  // Aligned pairs with both lanes active: bits 2k of `pairs`.
  const uint32_t pairs = mask & (mask >> 1) & 0x55555555u;
  uint32_t stride = 0;
  if (pairs != 0) {
    const unsigned k = static_cast<unsigned>(std::countr_zero(pairs));
    const uint32_t x = d[k] ^ d[k + 1];
    stride = x & (~x + 1);  // lowest set bit
  }
  AffineCode c;
  if (stride != 0) {
    if (std::countr_zero(stride) > kMaxSigma) return false;
    c.code = static_cast<uint8_t>(std::countr_zero(stride));
  }
  const unsigned f = static_cast<unsigned>(std::countr_zero(mask));
  c.base = d[f] - f * stride;
  if (!verify(d, mask, c)) return false;
  out = c;
  return true;
}

Classification classify(const uint32_t* d, uint32_t mask) {
  Classification r;
  if (mask == 0) return r;
  const unsigned f = static_cast<unsigned>(std::countr_zero(mask));
  const uint32_t rest = mask & (mask - 1);
  int64_t stride = 0;
  if (rest != 0) {
    const unsigned g = static_cast<unsigned>(std::countr_zero(rest));
    const int64_t diff = static_cast<int32_t>(d[g] - d[f]);
    const int64_t lanes = g - f;
    if (diff % lanes != 0) return r;
    stride = diff / lanes;
  }
  for (uint32_t m = rest; m != 0; m &= m - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(m));
    if (d[lane] != d[f] + static_cast<uint32_t>(stride * (int64_t{lane} - f))) return r;
  }
  if (stride == 0) {
    r.cls = d[f] == 0 ? ValueClass::Zero : ValueClass::Uniform;
    return r;
  }
  r.cls = ValueClass::Affine;
  AffineCode c;
  r.unrepresentable = !encodeExact(d, mask, c);
  return r;
}

}  // namespace warpsim::mech::avc
