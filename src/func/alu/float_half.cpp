// Half-precision arithmetic: add sub mul fma neg abs min max ex2 tanh on .f16 .f16x2 .bf16
// .bf16x2 (x2: the two 16-bit halves independently, the low half in bits 0-15).
//
// Every result is the correctly rounded (nearest even) value of the exact operation: see the
// operation structs below for why computing in binary32/binary64 gives that. .ftz flushes f16
// subnormal inputs and results, .sat clamps to [0, 1] (NaN -> +0), .relu clamps negative results
// to +0 and turns NaN into the canonical NaN. NaN results are the canonical 0x7FFF (PTX leaves
// them unspecified). ex2/tanh .approx use the host's exp2f/tanhf, within the PTX error bounds.
#include <cmath>

#include "func/alu/float_common.h"
#include "func/alu/float_exec.h"

namespace warpsim::func::fp {
namespace {

// Arithmetic on the exact binary32 values of the operands, giving the value to round once more.
// add/sub/mul round in binary32 first: with 24 >= 2p + 2 significand bits (p = 11 for f16, 8
// for bf16) that second rounding is innocuous (Figueroa), and in the subnormal range the exact
// results fit binary32. fma adds the exact binary64 product (see HalfFmaOp).
struct HalfAddOp {
  static constexpr unsigned kSrcs = 2;
  static float apply(float a, float b, float) { return a + b; }
};
struct HalfSubOp {
  static constexpr unsigned kSrcs = 2;
  static float apply(float a, float b, float) { return a - b; }
};
struct HalfMulOp {
  static constexpr unsigned kSrcs = 2;
  static float apply(float a, float b, float) { return a * b; }
};
template <Format F>
struct HalfFmaOp {
  static constexpr unsigned kSrcs = 3;
  static double apply(float a, float b, float c) {
    const double p = double{a} * double{b};  // exact: at most 2 x 11 significand bits
    const double s = p + c;
    // f16: the sum is exact in binary64 whenever the f16 result depends on its low bits (an
    // addend below the product's 53-bit window is far below half an f16 ulp, and a product too
    // large for the window overflows f16). bf16's exponent range has no such guarantee.
    if constexpr (F == kF16) {
      return s;
    } else {
      return std::isfinite(s) ? roundToOdd(s, twoSumError(p, c, s)) : s;
    }
  }
};
struct HalfEx2Op {
  static constexpr unsigned kSrcs = 1;
  static float apply(float a, float, float) { return std::exp2(a); }
};
struct HalfTanhOp {
  static constexpr unsigned kSrcs = 1;
  static float apply(float a, float, float) { return std::tanh(a); }
};

template <Format F>
uint64_t roundResult(float v) {
  return fromFloat<F>(v, Rounding::NearestEven);
}
template <Format F>
uint64_t roundResult(double v) {
  return fromDouble<F>(v, Rounding::NearestEven);
}

template <Format F, bool Ftz>
[[gnu::always_inline]] inline float operand(uint16_t h) {
  if constexpr (Ftz) h = static_cast<uint16_t>(flushSubnormal<F>(h));
  return toFloat<F>(h);
}

template <Format F, class Op, bool Ftz, bool Sat, bool Relu>
uint16_t arithHalf(uint16_t a, uint16_t b, uint16_t c) {
  using I = FormatInfo<F>;
  auto v = [&] {
    if constexpr (Op::kSrcs == 1) {
      return Op::apply(operand<F, Ftz>(a), 0.0f, 0.0f);
    } else if constexpr (Op::kSrcs == 2) {
      return Op::apply(operand<F, Ftz>(a), operand<F, Ftz>(b), 0.0f);
    } else {
      return Op::apply(operand<F, Ftz>(a), operand<F, Ftz>(b), operand<F, Ftz>(c));
    }
  }();
  if constexpr (Sat) v = saturate(v);
  uint16_t r = static_cast<uint16_t>(roundResult<F>(v));
  if constexpr (Relu) {
    if (isNaN<F>(r)) return static_cast<uint16_t>(I::kCanonicalNaN);
    if ((r & I::kSign) != 0) return 0;
  }
  if constexpr (Ftz) r = static_cast<uint16_t>(flushSubnormal<F>(r));
  return r;
}

// Sign and selection operations work on the bits. min/max: a NaN operand loses to a number,
// -0 < +0, two NaNs give the canonical NaN.
struct NegOp {
  static constexpr unsigned kSrcs = 1;
  template <Format F>
  static uint16_t bits(uint16_t a, uint16_t) {
    return a ^ FormatInfo<F>::kSign;
  }
};
struct AbsOp {
  static constexpr unsigned kSrcs = 1;
  template <Format F>
  static uint16_t bits(uint16_t a, uint16_t) {
    return a & ~FormatInfo<F>::kSign;
  }
};
template <bool Min>
struct MinMaxOp {
  static constexpr unsigned kSrcs = 2;
  template <Format F>
  static uint16_t bits(uint16_t a, uint16_t b) {
    if (isNaN<F>(a)) return b;
    if (isNaN<F>(b)) return a;
    const float x = toFloat<F>(a);
    const float y = toFloat<F>(b);
    if (x == y) return ((a & FormatInfo<F>::kSign) != 0) == Min ? a : b;
    return (x < y) == Min ? a : b;
  }
};

template <Format F, class Op, bool Ftz>
uint16_t bitsHalf(uint16_t a, uint16_t b) {
  if constexpr (Ftz) {
    a = static_cast<uint16_t>(flushSubnormal<F>(a));
    b = static_cast<uint16_t>(flushSubnormal<F>(b));
  }
  const uint16_t r = Op::template bits<F>(a, b);
  return isNaN<F>(r) ? static_cast<uint16_t>(FormatInfo<F>::kCanonicalNaN) : r;
}

// Arithmetic operations have apply(); sign and selection operations have bits<F>().
template <class Op>
concept ArithmeticOp = requires(float x) {
  Op::apply(x, x, x);
};

template <Format F, class Op, bool Ftz, bool Sat, bool Relu, bool Pair>
void halfExec(const ir::Instr& in, ExecCtx& ctx) {
  uint64_t* d = lanes::dstPtr(ctx, in.dst(0));
  const uint64_t* a = lanes::srcPtr(ctx, in.src(0));
  const uint64_t* b = Op::kSrcs > 1 ? lanes::srcPtr(ctx, in.src(1)) : a;
  const uint64_t* c = Op::kSrcs > 2 ? lanes::srcPtr(ctx, in.src(2)) : a;
  auto one = [](uint64_t x, uint64_t y, uint64_t z, unsigned shift) -> uint64_t {
    const auto h = [shift](uint64_t v) { return static_cast<uint16_t>(v >> shift); };
    if constexpr (ArithmeticOp<Op>) {
      return arithHalf<F, Op, Ftz, Sat, Relu>(h(x), h(y), h(z));
    } else {
      return bitsHalf<F, Op, Ftz>(h(x), h(y));
    }
  };
  lanes::forEachLane(ctx.mask, [&](unsigned l) {
    uint64_t r = one(a[l], b[l], c[l], 0);
    if constexpr (Pair) r |= one(a[l], b[l], c[l], 16) << 16;
    d[l] = r;
  });
}

template <Format F, class Op, bool Pair>
ExecFn pickMods(bool ftz, bool sat, bool relu) {
  if constexpr (ArithmeticOp<Op>) {
    if (relu)
      return ftz ? &halfExec<F, Op, true, false, true, Pair>
                 : &halfExec<F, Op, false, false, true, Pair>;
    if (sat)
      return ftz ? &halfExec<F, Op, true, true, false, Pair>
                 : &halfExec<F, Op, false, true, false, Pair>;
  }
  return ftz ? &halfExec<F, Op, true, false, false, Pair>
             : &halfExec<F, Op, false, false, false, Pair>;
}

template <class Op>
ExecFn pickType(ir::Type t, bool ftz, bool sat, bool relu) {
  switch (t) {
    case ir::Type::F16: return pickMods<kF16, Op, false>(ftz, sat, relu);
    case ir::Type::F16x2: return pickMods<kF16, Op, true>(ftz, sat, relu);
    case ir::Type::BF16: return pickMods<kBf16, Op, false>(ftz, sat, relu);
    default: return pickMods<kBf16, Op, true>(ftz, sat, relu);
  }
}

}  // namespace

ExecFn bindHalf(const ir::Instr& in, std::string* error) {
  const bool bf16 = in.type == ir::Type::BF16 || in.type == ir::Type::BF16x2;
  const bool ftz = in.has(ir::kFtz);
  const bool sat = in.has(ir::kSat);
  const bool relu = in.has(ir::kRelu);
  const bool approx = in.op == ir::Op::Ex2 || in.op == ir::Op::Tanh;
  if (in.round != ir::Round::None && in.round != ir::Round::Rn) {
    return fail(in, error, "half-precision arithmetic rounds to nearest only (.rn)");
  }
  if (approx && in.round != ir::Round::None)
    return fail(in, error, "no rounding modifier is allowed");
  if (bf16 && ftz && in.op != ir::Op::Ex2) return fail(in, error, ".ftz is not allowed for bf16");
  const bool satOk = !bf16 && (in.op == ir::Op::Add || in.op == ir::Op::Sub ||
                               in.op == ir::Op::Mul || in.op == ir::Op::Fma);
  if (sat && !satOk) return fail(in, error, ".sat is not allowed");
  if (relu && in.op != ir::Op::Fma) return fail(in, error, ".relu is not allowed");
  if (sat && relu) return fail(in, error, ".sat and .relu are exclusive");
  switch (in.op) {
    case ir::Op::Add: return pickType<HalfAddOp>(in.type, ftz, sat, relu);
    case ir::Op::Sub: return pickType<HalfSubOp>(in.type, ftz, sat, relu);
    case ir::Op::Mul: return pickType<HalfMulOp>(in.type, ftz, sat, relu);
    case ir::Op::Fma:
      return bf16 ? pickType<HalfFmaOp<kBf16>>(in.type, ftz, sat, relu)
                  : pickType<HalfFmaOp<kF16>>(in.type, ftz, sat, relu);
    case ir::Op::Neg: return pickType<NegOp>(in.type, ftz, false, false);
    case ir::Op::Abs: return pickType<AbsOp>(in.type, ftz, false, false);
    case ir::Op::Min: return pickType<MinMaxOp<true>>(in.type, ftz, false, false);
    case ir::Op::Max: return pickType<MinMaxOp<false>>(in.type, ftz, false, false);
    case ir::Op::Ex2: return pickType<HalfEx2Op>(in.type, ftz, false, false);
    case ir::Op::Tanh:
      if (ftz) return fail(in, error, ".ftz is not allowed");
      return pickType<HalfTanhOp>(in.type, false, false, false);
    default: return fail(in, error, "not a half-precision operation");
  }
}

}  // namespace warpsim::func::fp
