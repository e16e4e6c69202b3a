// The approximate (.approx, .full) operations: div rcp sqrt rsqrt sin cos lg2 ex2 tanh.
//
// PTX only bounds their error (e.g. 2 ulp for ex2.approx.f32, 2^-22 absolute for lg2 near 1).
// We use the host's single-precision libm (sinf cosf exp2f log2f tanhf: errors about 1 ulp or
// less), and 1/sqrt in binary64 for rsqrt, which is within every bound and matches the
// special-value tables of the PTX ISA
// (ex2(-Inf) = +0, lg2(-0) = -Inf, rsqrt(-0) = -Inf, sin(-0) = -0, ...). Where PTX defines a
// behaviour beyond accuracy it is modelled: div.approx computes a * (1/b) with the reciprocal's
// subnormal results flushed (so |b| > 2^126 gives a signed zero, or NaN for an infinite a), and
// the f64 .approx.ftz forms use only the upper 32 bits of the operand and zero the lower 32 bits
// of the result, with NaN inputs mapped to 0x7FFFFFFF00000000.
#include <cmath>

#include "func/alu/float_common.h"
#include "func/alu/float_exec.h"

namespace warpsim::func::fp {
namespace {

struct Sin {
  static float apply(float x) { return std::sin(x); }
};
struct Cos {
  static float apply(float x) { return std::cos(x); }
};
struct Lg2 {
  static float apply(float x) { return std::log2(x); }
};
struct Ex2 {
  static float apply(float x) { return std::exp2(x); }
};
struct Tanh {
  static float apply(float x) { return std::tanh(x); }
};
struct Sqrt {
  static float apply(float x) { return std::sqrt(x); }
};
struct Rsqrt {
  static float apply(float x) { return static_cast<float>(1.0 / std::sqrt(double{x})); }
};
struct Rcp {
  static float apply(float x) { return 1.0f / x; }
};

template <class Op, bool Ftz>
void f32Unary(const ir::Instr& in, ExecCtx& ctx) {
  uint64_t* d = lanes::dstPtr(ctx, in.dst(0));
  const uint64_t* a = lanes::srcPtr(ctx, in.src(0));
  lanes::forEachLane(ctx.mask,
                     [&](unsigned l) { d[l] = outF32<Ftz, false>(Op::apply(inF32<Ftz>(a[l]))); });
}

// div.approx.f32: a * (1/b), the reciprocal flushed to zero when it is subnormal.
template <bool Ftz>
void divApprox(const ir::Instr& in, ExecCtx& ctx) {
  uint64_t* d = lanes::dstPtr(ctx, in.dst(0));
  const uint64_t* a = lanes::srcPtr(ctx, in.src(0));
  const uint64_t* b = lanes::srcPtr(ctx, in.src(1));
  lanes::forEachLane(ctx.mask, [&](unsigned l) {
    const float r = std::bit_cast<float>(
        static_cast<uint32_t>(flushSubnormal<kF32>(slotOf(1.0f / inF32<Ftz>(b[l])))));
    d[l] = outF32<Ftz, false>(inF32<Ftz>(a[l]) * r);
  });
}

// div.full.f32: full-range division within 2 ulp; the correctly rounded quotient is used.
template <bool Ftz>
void divFull(const ir::Instr& in, ExecCtx& ctx) {
  uint64_t* d = lanes::dstPtr(ctx, in.dst(0));
  const uint64_t* a = lanes::srcPtr(ctx, in.src(0));
  const uint64_t* b = lanes::srcPtr(ctx, in.src(1));
  lanes::forEachLane(ctx.mask, [&](unsigned l) {
    d[l] = outF32<Ftz, false>(inF32<Ftz>(a[l]) / inF32<Ftz>(b[l]));
  });
}

void rsqrtF64(const ir::Instr& in, ExecCtx& ctx) {
  uint64_t* d = lanes::dstPtr(ctx, in.dst(0));
  const uint64_t* a = lanes::srcPtr(ctx, in.src(0));
  lanes::forEachLane(ctx.mask, [&](unsigned l) { d[l] = slotOf(1.0 / std::sqrt(f64Of(a[l]))); });
}

// rcp.approx.ftz.f64 / rsqrt.approx.ftz.f64 on the 1.11.20 upper word of the operand.
constexpr uint64_t kUpperWord = 0xFFFFFFFF00000000ull;
constexpr uint64_t kF64ApproxNaN = 0x7FFFFFFF00000000ull;

template <bool Rsqrt>
void f64UpperApprox(const ir::Instr& in, ExecCtx& ctx) {
  uint64_t* d = lanes::dstPtr(ctx, in.dst(0));
  const uint64_t* a = lanes::srcPtr(ctx, in.src(0));
  lanes::forEachLane(ctx.mask, [&](unsigned l) {
    const uint64_t x = flushSubnormal<kF64>(a[l] & kUpperWord);
    if (isNaN<kF64>(x)) {
      d[l] = kF64ApproxNaN;
      return;
    }
    const double v = f64Of(x);
    const double r = Rsqrt ? 1.0 / std::sqrt(v) : 1.0 / v;
    const uint64_t rb = slotOf(r);
    d[l] = isNaN<kF64>(rb) ? kF64ApproxNaN : (flushSubnormal<kF64>(rb) & kUpperWord);
  });
}

template <class Op>
ExecFn pickUnary(bool ftz) {
  return ftz ? &f32Unary<Op, true> : &f32Unary<Op, false>;
}

}  // namespace

ExecFn bindApprox(const ir::Instr& in, std::string* error) {
  const bool f64 = in.type == ir::Type::F64;
  // Without .approx (PTX 1.x spelling) the f32 forms mean .approx.ftz.
  const bool legacy = !f64 && !in.has(ir::kApprox) && !in.has(ir::kFull) && in.op != ir::Op::Tanh;
  const bool ftz = in.has(ir::kFtz) || legacy;
  if (in.has(ir::kSat)) return fail(in, error, ".sat is not allowed");
  if (in.round != ir::Round::None)
    return fail(in, error, "approximate forms take no rounding modifier");
  if (f64) {
    if (in.op == ir::Op::Rcp && ftz) return &f64UpperApprox<false>;
    if (in.op == ir::Op::Rsqrt) return ftz ? &f64UpperApprox<true> : &rsqrtF64;
    return fail(in, error, "no approximate .f64 form");
  }
  switch (in.op) {
    case ir::Op::Div:
      if (in.has(ir::kFull)) return ftz ? &divFull<true> : &divFull<false>;
      return ftz ? &divApprox<true> : &divApprox<false>;
    case ir::Op::Rcp: return pickUnary<Rcp>(ftz);
    case ir::Op::Sqrt: return pickUnary<Sqrt>(ftz);
    case ir::Op::Rsqrt: return pickUnary<Rsqrt>(ftz);
    case ir::Op::Sin: return pickUnary<Sin>(ftz);
    case ir::Op::Cos: return pickUnary<Cos>(ftz);
    case ir::Op::Lg2: return pickUnary<Lg2>(ftz);
    case ir::Op::Ex2: return pickUnary<Ex2>(ftz);
    case ir::Op::Tanh:
      if (in.has(ir::kFtz)) return fail(in, error, ".ftz is not allowed");
      return pickUnary<Tanh>(false);
    default: return fail(in, error, "no approximate form");
  }
}

}  // namespace warpsim::func::fp
