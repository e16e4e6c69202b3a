// abs, neg, min, max and copysign on f32 and f64.
//
// min/max follow PTX: a NaN operand is ignored in favour of the other operand, two NaNs give a
// NaN, and -0.0 < +0.0. f32 NaN results are the canonical NaN (PTX leaves them unspecified);
// f64 abs/neg pass a NaN through unchanged, as PTX states, and f64 min/max of two NaNs return
// the first operand.
#include <type_traits>

#include "func/alu/float_common.h"
#include "func/alu/float_exec.h"

namespace warpsim::func::fp {
namespace {

// Branch-free selection (the lane loops vectorise): take a when it is smaller, when b is NaN, or
// when the two compare equal and a is the negative zero. Two NaNs select a NaN.
template <class T>
T minOf(T a, T b) {
  using U = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  const bool takeA = (a < b) | (b != b) | ((a == b) & (std::bit_cast<U>(a) > std::bit_cast<U>(b)));
  return takeA ? a : b;
}
template <class T>
T maxOf(T a, T b) {
  using U = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  const bool takeA = (a > b) | (b != b) | ((a == b) & (std::bit_cast<U>(a) < std::bit_cast<U>(b)));
  return takeA ? a : b;
}

struct MinOp {
  template <class T>
  static T apply(T a, T b) {
    return minOf(a, b);
  }
  template <class T>
  static T apply(T a, T b, T c) {
    return minOf(minOf(a, b), c);
  }
};
struct MaxOp {
  template <class T>
  static T apply(T a, T b) {
    return maxOf(a, b);
  }
  template <class T>
  static T apply(T a, T b, T c) {
    return maxOf(maxOf(a, b), c);
  }
};

template <class Op, bool Ftz>
void f32MinMax(const ir::Instr& in, ExecCtx& ctx) {
  uint64_t* d = lanes::dstPtr(ctx, in.dst(0));
  const uint64_t* a = lanes::srcPtr(ctx, in.src(0));
  const uint64_t* b = lanes::srcPtr(ctx, in.src(1));
  if (in.numSrc == 3) {
    const uint64_t* c = lanes::srcPtr(ctx, in.src(2));
    lanes::forEachLane(ctx.mask, [&](unsigned l) {
      d[l] = outF32<false, false>(Op::apply(inF32<Ftz>(a[l]), inF32<Ftz>(b[l]), inF32<Ftz>(c[l])));
    });
    return;
  }
  lanes::forEachLane(ctx.mask, [&](unsigned l) {
    d[l] = outF32<false, false>(Op::apply(inF32<Ftz>(a[l]), inF32<Ftz>(b[l])));
  });
}

template <class Op>
void f64MinMax(const ir::Instr& in, ExecCtx& ctx) {
  uint64_t* d = lanes::dstPtr(ctx, in.dst(0));
  const uint64_t* a = lanes::srcPtr(ctx, in.src(0));
  const uint64_t* b = lanes::srcPtr(ctx, in.src(1));
  lanes::forEachLane(ctx.mask, [&](unsigned l) {
    const double x = f64Of(a[l]);
    const double y = f64Of(b[l]);
    d[l] = (x != x && y != y) ? a[l] : slotOf(Op::apply(x, y));
  });
}

// abs/neg: sign-bit operations; f32 NaNs become canonical, f64 NaNs pass through unchanged.
template <bool Neg, bool Ftz>
void f32Sign(const ir::Instr& in, ExecCtx& ctx) {
  uint64_t* d = lanes::dstPtr(ctx, in.dst(0));
  const uint64_t* a = lanes::srcPtr(ctx, in.src(0));
  lanes::forEachLane(ctx.mask, [&](unsigned l) {
    uint32_t x = static_cast<uint32_t>(a[l]);
    if constexpr (Ftz) x = static_cast<uint32_t>(flushSubnormal<kF32>(x));
    x = Neg ? (x ^ 0x80000000u) : (x & 0x7FFFFFFFu);
    d[l] = isNaN<kF32>(x) ? kF32NaN : x;
  });
}
template <bool Neg>
void f64Sign(const ir::Instr& in, ExecCtx& ctx) {
  uint64_t* d = lanes::dstPtr(ctx, in.dst(0));
  const uint64_t* a = lanes::srcPtr(ctx, in.src(0));
  constexpr uint64_t kSign = uint64_t{1} << 63;
  lanes::forEachLane(ctx.mask, [&](unsigned l) {
    const uint64_t x = a[l];
    d[l] = isNaN<kF64>(x) ? x : (Neg ? (x ^ kSign) : (x & ~kSign));
  });
}

// copysign d, a, b: the sign of a with the magnitude of b.
template <unsigned Bits>
void copySign(const ir::Instr& in, ExecCtx& ctx) {
  constexpr uint64_t kSign = uint64_t{1} << (Bits - 1);
  constexpr uint64_t kMask = lanes::widthMask(Bits);
  uint64_t* d = lanes::dstPtr(ctx, in.dst(0));
  const uint64_t* a = lanes::srcPtr(ctx, in.src(0));
  const uint64_t* b = lanes::srcPtr(ctx, in.src(1));
  lanes::forEachLane(ctx.mask,
                     [&](unsigned l) { d[l] = ((a[l] & kSign) | (b[l] & ~kSign)) & kMask; });
}

}  // namespace

ExecFn bindMinMaxSign(const ir::Instr& in, std::string* error) {
  const bool f64 = in.type == ir::Type::F64;
  const bool ftz = in.has(ir::kFtz);
  if (f64 && ftz) return fail(in, error, ".ftz applies to .f32 only");
  if (in.has(ir::kSat) || in.round != ir::Round::None) {
    return fail(in, error, "no rounding or .sat modifier is allowed");
  }
  switch (in.op) {
    case ir::Op::Abs:
      if (f64) return &f64Sign<false>;
      return ftz ? &f32Sign<false, true> : &f32Sign<false, false>;
    case ir::Op::Neg:
      if (f64) return &f64Sign<true>;
      return ftz ? &f32Sign<true, true> : &f32Sign<true, false>;
    case ir::Op::Min:
    case ir::Op::Max: {
      const bool isMin = in.op == ir::Op::Min;
      if (in.numSrc != 2 && !(in.numSrc == 3 && !f64))
        return fail(in, error, "wrong operand count");
      if (f64) return isMin ? &f64MinMax<MinOp> : &f64MinMax<MaxOp>;
      if (isMin) return ftz ? &f32MinMax<MinOp, true> : &f32MinMax<MinOp, false>;
      return ftz ? &f32MinMax<MaxOp, true> : &f32MinMax<MaxOp, false>;
    }
    case ir::Op::Copysign:
      if (ftz) return fail(in, error, ".ftz is not allowed");
      return f64 ? &copySign<64> : &copySign<32>;
    default: return fail(in, error, "not a sign or min/max operation");
  }
}

}  // namespace warpsim::func::fp
