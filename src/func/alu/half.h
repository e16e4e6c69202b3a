// Bit-exact conversions between the binary floating-point formats PTX uses (binary16 `.f16`,
// bfloat16 `.bf16`, binary32 `.f32`, binary64 `.f64`) and from integers, under the four IEEE
// rounding directions.
//
// Every narrowing rounds once, from the exact source value: f64 -> f16 never passes through f32,
// so there is no double rounding. Subnormals, overflow (to infinity or to the largest finite
// value, depending on the direction) and signed zeros follow IEEE 754. NaN results are the
// format's canonical NaN (exponent and fraction all ones, sign clear: 0x7FFF for f16 and bf16,
// 0x7FFFFFFF for f32), which is what CUDA's CUDART_NAN_FP16 / _BF16 / _F name.
//
// Values travel as raw bit patterns in uint64_t; everything is constexpr and header-only because
// the half-precision executors call it once per lane.
#pragma once
#include <bit>
#include <cstdint>

namespace warpsim::func::fp {

enum class Rounding : uint8_t { NearestEven, TowardZero, Down, Up };

// A binary interchange format: exponent and fraction field widths.
struct Format {
  unsigned expBits;
  unsigned fracBits;
  friend constexpr bool operator==(Format, Format) = default;
};
inline constexpr Format kF16{5, 10};
inline constexpr Format kBf16{8, 7};
inline constexpr Format kF32{8, 23};
inline constexpr Format kF64{11, 52};

template <Format F>
struct FormatInfo {
  static constexpr int kBias = (1 << (F.expBits - 1)) - 1;
  static constexpr int kMinExp = 1 - kBias;  // exponent of the smallest normal number
  static constexpr int kMaxExp = kBias;      // exponent of the largest finite number
  static constexpr uint64_t kFracMask = (uint64_t{1} << F.fracBits) - 1;
  static constexpr uint64_t kExpMax = (uint64_t{1} << F.expBits) - 1;
  static constexpr uint64_t kSign = uint64_t{1} << (F.expBits + F.fracBits);
  static constexpr uint64_t kInf = kExpMax << F.fracBits;
  static constexpr uint64_t kMaxFinite = kInf - 1;
  static constexpr uint64_t kCanonicalNaN = kInf | kFracMask;
  static constexpr uint64_t kOne = static_cast<uint64_t>(kBias) << F.fracBits;
};

template <Format F>
constexpr bool isNaN(uint64_t bits) {
  using I = FormatInfo<F>;
  return (bits & ~I::kSign) > I::kInf;
}
template <Format F>
constexpr bool isSubnormal(uint64_t bits) {
  using I = FormatInfo<F>;
  return (bits & I::kInf) == 0 && (bits & I::kFracMask) != 0;
}
// Flush-to-zero: a subnormal becomes a zero of the same sign.
template <Format F>
constexpr uint64_t flushSubnormal(uint64_t bits) {
  using I = FormatInfo<F>;
  return (bits & I::kInf) == 0 ? (bits & I::kSign) : bits;
}

// Overflowed result: infinity or the largest finite value, as the rounding direction says.
template <Format F>
constexpr uint64_t overflowResult(bool negative, Rounding r) {
  using I = FormatInfo<F>;
  const bool toInf = r == Rounding::NearestEven || (r == Rounding::Up && !negative) ||
                     (r == Rounding::Down && negative);
  return (negative ? I::kSign : 0) | (toInf ? I::kInf : I::kMaxFinite);
}

// Rounds the exact value (-1)^negative * magnitude * 2^exp2 to format F. `sticky` says that
// nonzero bits exist below `magnitude` (the exact magnitude is slightly larger than given).
template <Format F>
constexpr uint64_t roundToFormat(bool negative, uint64_t magnitude, int exp2, bool sticky,
                                 Rounding r) {
  using I = FormatInfo<F>;
  const uint64_t sign = negative ? I::kSign : 0;
  int shift;  // number of magnitude bits below the result's last place
  int lsb;    // exponent of the result's last place
  if (magnitude == 0) {
    if (!sticky) return sign;
    lsb = I::kMinExp - static_cast<int>(F.fracBits);
    shift = 1 << 20;  // far below the smallest subnormal
  } else {
    const int e = 63 - std::countl_zero(magnitude) + exp2;  // value in [2^e, 2^(e+1))
    if (e > I::kMaxExp) return overflowResult<F>(negative, r);
    lsb = (e < I::kMinExp ? I::kMinExp : e) - static_cast<int>(F.fracBits);
    shift = lsb - exp2;
  }
  uint64_t q;
  bool half = false;
  bool rest = sticky;
  if (shift <= 0) {
    q = magnitude << -shift;  // exact; fits because the value's top bit is at most fracBits up
  } else {
    const int halfPos = shift - 1;
    q = shift < 64 ? magnitude >> shift : 0;
    if (halfPos < 64) {
      half = ((magnitude >> halfPos) & 1) != 0;
      rest = rest || (magnitude & ((uint64_t{1} << halfPos) - 1)) != 0;
    } else {
      rest = rest || magnitude != 0;
    }
  }
  const bool inexact = half || rest;
  bool up = false;
  switch (r) {
    case Rounding::NearestEven: up = half && (rest || (q & 1) != 0); break;
    case Rounding::TowardZero: up = false; break;
    case Rounding::Down: up = negative && inexact; break;
    case Rounding::Up: up = !negative && inexact; break;
  }
  q += up ? 1 : 0;
  // For normal results q holds the implicit bit, which lands in the exponent field: adding it to
  // (biased exponent - 1) gives the right encoding, including a carry out of the fraction. For
  // subnormal results the exponent part is 0 and q is the fraction (or the smallest normal).
  const uint64_t enc =
      (static_cast<uint64_t>(lsb + static_cast<int>(F.fracBits) - I::kMinExp) << F.fracBits) + q;
  if (enc >= I::kInf) return overflowResult<F>(negative, r);
  return sign | enc;
}

// Splits a finite nonzero value of format F into sign, integer significand and exponent.
struct Decoded {
  bool negative;
  uint64_t magnitude;
  int exp2;
};
template <Format F>
constexpr Decoded decodeFinite(uint64_t bits) {
  using I = FormatInfo<F>;
  const bool negative = (bits & I::kSign) != 0;
  const uint64_t exp = (bits >> F.fracBits) & I::kExpMax;
  const uint64_t frac = bits & I::kFracMask;
  if (exp == 0) return {negative, frac, I::kMinExp - static_cast<int>(F.fracBits)};
  return {negative, frac | (uint64_t{1} << F.fracBits),
          static_cast<int>(exp) - I::kBias - static_cast<int>(F.fracBits)};
}

// The general conversion of a value of format S to format D: every input class, every
// rounding direction. Kept out of line; convertFormat() handles the common cases inline.
template <Format S, Format D>
[[gnu::noinline]] constexpr uint64_t convertFormatGeneral(uint64_t bits, Rounding r) {
  using IS = FormatInfo<S>;
  using ID = FormatInfo<D>;
  const bool negative = (bits & IS::kSign) != 0;
  const uint64_t absBits = bits & ~IS::kSign;
  if (absBits >= IS::kInf) {
    if (absBits > IS::kInf) return ID::kCanonicalNaN;
    return (negative ? ID::kSign : 0) | ID::kInf;
  }
  if (absBits == 0) return negative ? ID::kSign : 0;
  const Decoded v = decodeFinite<S>(bits);
  return roundToFormat<D>(v.negative, v.magnitude, v.exp2, false, r);
}

// Converts a value of format S to format D, rounding as `r` says. Also exact when D is wider.
// NaN inputs give D's canonical NaN.
template <Format S, Format D>
[[gnu::always_inline]] constexpr uint64_t convertFormat(uint64_t bits, Rounding r) {
  using IS = FormatInfo<S>;
  using ID = FormatInfo<D>;
  const uint64_t sign = bits & IS::kSign;
  const uint64_t absBits = bits ^ sign;
  // Fast paths for the common case of a normal input whose result is normal.
  if constexpr (S.fracBits > D.fracBits && S.expBits >= D.expBits) {
    // Narrowing, round to nearest even: rebias the exponent and round the dropped fraction bits
    // with integer arithmetic; a carry out of the fraction correctly bumps the exponent (up to
    // infinity). Inputs below D's normal range or at/above 2^(maxExp+1) take the general path.
    constexpr unsigned kDrop = S.fracBits - D.fracBits;
    constexpr unsigned kSignShift = S.expBits + S.fracBits - D.expBits - D.fracBits;
    constexpr uint64_t kLow = static_cast<uint64_t>(IS::kBias + ID::kMinExp) << S.fracBits;
    constexpr uint64_t kHigh = static_cast<uint64_t>(IS::kBias + ID::kMaxExp + 1) << S.fracBits;
    constexpr uint64_t kRebias = static_cast<uint64_t>(IS::kBias - ID::kBias) << S.fracBits;
    if (r == Rounding::NearestEven && absBits - kLow < kHigh - kLow) {
      const uint64_t odd = (absBits >> kDrop) & 1;
      const uint64_t rounded =
          (absBits - kRebias + ((uint64_t{1} << (kDrop - 1)) - 1) + odd) >> kDrop;
      return (sign >> kSignShift) | rounded;
    }
  } else if constexpr (S.fracBits < D.fracBits && S.expBits <= D.expBits) {
    // Widening a normal value is a re-encoding.
    const uint64_t exp = absBits >> S.fracBits;
    if (exp != 0 && exp != IS::kExpMax) {
      return (sign << (D.expBits + D.fracBits - S.expBits - S.fracBits)) |
             ((exp + ID::kBias - IS::kBias) << D.fracBits) |
             ((absBits & IS::kFracMask) << (D.fracBits - S.fracBits));
    }
  }
  return convertFormatGeneral<S, D>(bits, r);
}

// Integer sources: the exact integer (-1)^negative * magnitude.
template <Format D>
constexpr uint64_t fromInteger(bool negative, uint64_t magnitude, Rounding r) {
  return roundToFormat<D>(negative, magnitude, 0, false, r);
}

// f16 -> f32, exact and branch-free on the common path: scaling the shifted bits by 2^112
// rebiases a normal value and normalises a subnormal one (the host FPU keeps subnormals, so the
// product is exact); Inf and NaN keep an all-ones exponent and their payload.
[[gnu::always_inline]] inline float f16ToFloat(uint16_t h) {
  const uint32_t m = static_cast<uint32_t>(h & 0x7FFFu) << 13;
  uint32_t b = std::bit_cast<uint32_t>(std::bit_cast<float>(m) * 0x1p112f);
  if (m >= 0x0F800000u) b = m | 0x7F800000u;
  return std::bit_cast<float>(b | (static_cast<uint32_t>(h & 0x8000u) << 16));
}

// The value of a 16-bit or f32 bit pattern as a float; exact.
template <Format F>
[[gnu::always_inline]] inline float toFloat(uint64_t bits) {
  if constexpr (F == kF16) {
    return f16ToFloat(static_cast<uint16_t>(bits));
  } else if constexpr (F == kBf16) {
    return std::bit_cast<float>(static_cast<uint32_t>(bits & 0xFFFFu) << 16);
  } else {
    static_assert(F == kF32, "toFloat takes f16, bf16 or f32");
    return std::bit_cast<float>(static_cast<uint32_t>(bits));
  }
}
// The value of a bit pattern of a format narrower than f64 as a double; exact.
template <Format F>
[[gnu::always_inline]] inline double toDouble(uint64_t bits) {
  return static_cast<double>(toFloat<F>(bits));
}
// A float or double rounded to format F (NaN -> F's canonical NaN).
template <Format F>
[[gnu::always_inline]] inline uint64_t fromDouble(double v, Rounding r) {
  return convertFormat<kF64, F>(std::bit_cast<uint64_t>(v), r);
}
template <Format F>
[[gnu::always_inline]] inline uint64_t fromFloat(float v, Rounding r) {
  return convertFormat<kF32, F>(std::bit_cast<uint32_t>(v), r);
}

// ---- named conversions (out of line, half.cpp) -----------------------------------------------

uint32_t f16ToF32(uint16_t h);   // exact
uint32_t bf16ToF32(uint16_t h);  // exact
uint16_t f32ToF16(uint32_t f, Rounding r);
uint16_t f64ToF16(uint64_t d, Rounding r);  // rounds once, directly from binary64
uint16_t f32ToBf16(uint32_t f, Rounding r);
uint16_t f64ToBf16(uint64_t d, Rounding r);
uint32_t f64ToF32(uint64_t d, Rounding r);
uint16_t f16ToBf16(uint16_t h, Rounding r);
uint16_t bf16ToF16(uint16_t h, Rounding r);

// Rounds an inexact binary64 sum `s` (with exact error `err`, s + err being the true value) to
// odd: truncate toward zero, then force the last bit to one. A later rounding of the result to a
// format with at least two fewer significand bits is then correctly rounded (no double-rounding
// error), which is how fused operations on narrow formats are computed in binary64.
inline double roundToOdd(double s, double err) {
  // Branch-free: the direction of the error is data-dependent and mispredicts badly.
  const uint64_t inexact = err != 0 ? 1 : 0;
  const uint64_t stepDown = inexact & ((s > 0) != (err > 0) ? 1 : 0);  // true value smaller
  return std::bit_cast<double>((std::bit_cast<uint64_t>(s) - stepDown) | inexact);
}
// Knuth's TwoSum: s = fl(a + b) and the exact error, valid whenever the sum does not overflow.
inline double twoSumError(double a, double b, double s) {
  const double bv = s - a;
  const double av = s - bv;
  return (a - av) + (b - bv);
}

}  // namespace warpsim::func::fp
