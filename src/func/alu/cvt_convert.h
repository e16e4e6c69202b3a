// Per-lane conversions for cvt, one struct per (source, destination, rounding) kind. Each has
//   static uint64_t apply(uint64_t srcSlot, const CvtPost& post)
// returning the destination value as register bits: signed integers sign-extended to 64 bits,
// everything else zero-extended; the executor masks to the destination register's width, which
// gives PTX's "sign-extended for signed integers, zero-extended otherwise".
//
// Float sources are read as binary64 (exact for every format). Sources narrower than their
// register use only the low bits of the instruction type's width.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>

#include "func/alu/float_common.h"

namespace warpsim::func::fp::cvt {

// Modifiers applied after the conversion, read once per executor call.
struct CvtPost {
  bool sat = false;     // float destination: clamp to [0, 1], NaN -> +0
  bool relu = false;    // f16/bf16 destination: negative -> +0, NaN -> canonical NaN
  bool ftzOut = false;  // f32 destination with .ftz: flush a subnormal result
};

enum class IntRound : uint8_t { Nearest, Zero, Down, Up };  // .rni .rzi .rmi .rpi

// Rounds x to an integral value in direction R; the sign of a zero result follows x, as the
// IEEE roundToIntegral operations do. Written without libm calls (the baseline x86-64 target has
// no rounding instruction) and exact for every input.
template <IntRound R>
[[gnu::always_inline]] inline double roundIntegral(double x) {
  constexpr double kTwo52 = 4503599627370496.0;  // from 2^52 up every double is an integer
  if (!(std::fabs(x) < kTwo52)) return x;        // also Inf and NaN
  double t;
  if constexpr (R == IntRound::Nearest) {
    // Adding and removing 2^52 rounds the fraction away in the host's round-to-nearest-even
    // mode, which cvt executors always run in.
    t = (std::fabs(x) + kTwo52) - kTwo52;
  } else {
    t = static_cast<double>(static_cast<int64_t>(x));  // toward zero
    if constexpr (R == IntRound::Down) {
      if (t > x) t -= 1.0;
    } else if constexpr (R == IntRound::Up) {
      if (t < x) t += 1.0;
    }
  }
  return std::copysign(t, x);
}

// ---- sources ---------------------------------------------------------------------------------

template <class T>
struct IntSrc {
  using Value = T;
  static T read(uint64_t s) { return static_cast<T>(s); }  // low bits, modular
};
struct F16Src {
  static constexpr Format kFormat = kF16;
  static double read(uint64_t s) { return toDouble<kF16>(static_cast<uint16_t>(s)); }
};
struct Bf16Src {
  static constexpr Format kFormat = kBf16;
  static double read(uint64_t s) { return toDouble<kBf16>(static_cast<uint16_t>(s)); }
};
template <bool Ftz>
struct F32Src {
  static constexpr Format kFormat = kF32;
  static double read(uint64_t s) { return double{inF32<Ftz>(s)}; }
};
struct F64Src {
  static constexpr Format kFormat = kF64;
  static double read(uint64_t s) { return f64Of(s); }
};

// ---- float destinations ----------------------------------------------------------------------

// Encodes binary64 value v (already exact or final) in format D with rounding R, then applies
// the post modifiers. f32/f64 NaN results: f32 canonical, f64 as the host produced them.
template <Format D, Rounding R>
[[gnu::always_inline]] inline uint64_t encodeFloat(double v, const CvtPost& post) {
  using I = FormatInfo<D>;
  if (post.sat) v = saturate(v);
  uint64_t bits;
  if constexpr (D == kF64) {
    bits = slotOf(v);
  } else if constexpr (D == kF32 && R == Rounding::NearestEven) {
    const float f = static_cast<float>(v);
    bits = f != f ? uint64_t{kF32NaN} : slotOf(f);
  } else {
    bits = convertFormat<kF64, D>(slotOf(v), R);
  }
  if (post.relu) {
    if (isNaN<D>(bits)) return I::kCanonicalNaN;
    if ((bits & I::kSign) != 0) return 0;
  }
  if (post.ftzOut) bits = flushSubnormal<D>(bits);
  return bits;
}

// float -> float, optionally rounding to an integral value first (same-size conversions).
template <class Src, Format D, Rounding R, bool Integral, IntRound IR>
struct FloatToFloat {
  [[gnu::always_inline]] static uint64_t apply(uint64_t s, const CvtPost& post) {
    double v = Src::read(s);
    if constexpr (Integral) v = roundIntegral<IR>(v);
    return encodeFloat<D, R>(v, post);
  }
};

// integer -> float.
template <class T, Format D, Rounding R>
struct IntToFloat {
  [[gnu::always_inline]] static uint64_t apply(uint64_t s, const CvtPost& post) {
    const T v = IntSrc<T>::read(s);
    constexpr bool hostRounds = R == Rounding::NearestEven && (D == kF32 || D == kF64);
    if constexpr (hostRounds) {
      // The host's int -> float conversions round to nearest even (exact for f64 up to 53 bits).
      if constexpr (D == kF64) return encodeFloat<D, R>(static_cast<double>(v), post);
      if (!post.sat) {
        const uint64_t b = slotOf(static_cast<float>(v));
        return post.ftzOut ? flushSubnormal<kF32>(b) : b;
      }
    }
    const bool negative = v < 0;
    const uint64_t magnitude =
        negative ? uint64_t{0} - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
    uint64_t bits = fromInteger<D>(negative, magnitude, R);
    if (post.sat) {
      // Clamping an integer to [0, 1] happens before rounding; 0 and 1 are exact.
      bits = negative || magnitude == 0 ? 0 : FormatInfo<D>::kOne;
    }
    if (post.relu && (bits & FormatInfo<D>::kSign) != 0) bits = 0;
    return bits;
  }
};

// ---- integer destinations --------------------------------------------------------------------

constexpr double pow2(int n) {
  double r = 1.0;
  for (int i = 0; i < n; ++i) r *= 2.0;
  return r;
}

template <class T>
inline uint64_t intBits(T v) {
  return lanes::bitsOf(v);
}

// integer -> integer: truncation (modular), or clamping with .sat.
template <class S, class D, bool Sat>
struct IntToInt {
  [[gnu::always_inline]] static uint64_t apply(uint64_t s, const CvtPost&) {
    const S v = IntSrc<S>::read(s);
    if constexpr (Sat) {
      if (std::cmp_less(v, std::numeric_limits<D>::min()))
        return intBits(std::numeric_limits<D>::min());
      if (std::cmp_greater(v, std::numeric_limits<D>::max()))
        return intBits(std::numeric_limits<D>::max());
    }
    return intBits(static_cast<D>(v));
  }
};

// float -> integer: round to an integral value, then clamp to the destination range (PTX
// float-to-integer conversions always saturate). NaN gives 0, except that an .f64 source or a
// 64-bit destination gives 1 << (width - 1) (MININT for signed types).
template <class Src, class D, IntRound IR>
struct FloatToInt {
  static constexpr bool kNaNHighBit = Src::kFormat == kF64 || sizeof(D) == 8;
  [[gnu::always_inline]] static uint64_t apply(uint64_t s, const CvtPost&) {
    const double x = Src::read(s);
    if (x != x) {
      if constexpr (kNaNHighBit) {
        return intBits(static_cast<D>(std::make_unsigned_t<D>{1} << (sizeof(D) * 8 - 1)));
      } else {
        return 0;
      }
    }
    const double r = roundIntegral<IR>(x);
    constexpr double kLow = static_cast<double>(std::numeric_limits<D>::min());
    // 2^(number of value bits): the first integer above the range, exact in binary64.
    constexpr double kHighExcl = pow2(std::numeric_limits<D>::digits);
    if (r <= kLow) return intBits(std::numeric_limits<D>::min());
    if (r >= kHighExcl) return intBits(std::numeric_limits<D>::max());
    return intBits(static_cast<D>(r));
  }
};

// Runs conversion Conv on every lane; the result is masked to the destination register width.
template <class Conv>
void cvtExec(const ir::Instr& in, ExecCtx& ctx) {
  const CvtPost post{in.has(ir::kSat), in.has(ir::kRelu),
                     in.has(ir::kFtz) && in.type == ir::Type::F32};
  const ir::Operand& dst = in.dst(0);
  const uint64_t m = lanes::widthMask(dst.regBits != 0 ? dst.regBits : ir::bits(in.type));
  uint64_t* d = lanes::dstPtr(ctx, dst);
  const uint64_t* a = lanes::srcPtr(ctx, in.src(0));
  lanes::forEachLane(ctx.mask, [&](unsigned l) { d[l] = Conv::apply(a[l], post) & m; });
}

// Bind helpers for the two destination families (cvt_int.cpp, cvt_float.cpp); nullptr when
// the source type is not supported.
ExecFn bindToInt(const ir::Instr& in, bool ftz, IntRound r);
ExecFn bindToFloat(const ir::Instr& in, bool ftz, Rounding r, bool integral, IntRound ir);
// cvt.frnd.{f16x2,bf16x2}.f32 d, a, b: a converted into the upper half, b into the lower half.
ExecFn bindPack(const ir::Instr& in, Rounding r);

}  // namespace warpsim::func::fp::cvt
