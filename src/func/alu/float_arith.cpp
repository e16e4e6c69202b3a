// IEEE arithmetic on f32 and f64: add sub mul fma mad, and div/rcp/sqrt with a rounding modifier.
// One executor per (operation, type, rounding, .ftz, .sat); directed roundings run the lane loop
// inside a RoundingScope, so every result is the correctly rounded host result in that mode.
#include <cmath>
#include <type_traits>

#include "func/alu/float_common.h"
#include "func/alu/float_exec.h"

namespace warpsim::func::fp {
namespace {

struct AddOp {
  template <class T>
  static T apply(T a, T b) {
    return a + b;
  }
};
struct SubOp {
  template <class T>
  static T apply(T a, T b) {
    return a - b;
  }
};
struct MulOp {
  template <class T>
  static T apply(T a, T b) {
    return a * b;
  }
};
struct DivOp {
  template <class T>
  static T apply(T a, T b) {
    return a / b;
  }
};
struct FmaOp {
  template <class T>
  static T apply(T a, T b, T c) {
    return std::fma(a, b, c);
  }
};
struct RcpOp {
  template <class T>
  static T apply(T a) {
    return T(1) / a;
  }
};
struct SqrtOp {
  template <class T>
  static T apply(T a) {
    return std::sqrt(a);
  }
};

template <class Op, unsigned N, Rounding R, bool Ftz, bool Sat>
[[gnu::always_inline]] inline void f32Body(const ir::Instr& in, ExecCtx& ctx) {
  RoundingScope<R> scope;
  uint64_t* d = lanes::dstPtr(ctx, in.dst(0));
  const uint64_t* a = lanes::srcPtr(ctx, in.src(0));
  const uint64_t* b = N > 1 ? lanes::srcPtr(ctx, in.src(1)) : a;
  const uint64_t* c = N > 2 ? lanes::srcPtr(ctx, in.src(2)) : a;
  lanes::forEachLane(ctx.mask, [&](unsigned l) {
    float r;
    if constexpr (N == 1) {
      r = Op::apply(inF32<Ftz>(a[l]));
    } else if constexpr (N == 2) {
      r = Op::apply(inF32<Ftz>(a[l]), inF32<Ftz>(b[l]));
    } else {
      r = Op::apply(inF32<Ftz>(a[l]), inF32<Ftz>(b[l]), inF32<Ftz>(c[l]));
    }
    d[l] = outF32<Ftz, Sat>(r);
  });
}

// f64 results keep NaN payloads (PTX: "NaN payloads are supported for double-precision").
template <class Op, unsigned N, Rounding R>
[[gnu::always_inline]] inline void f64Body(const ir::Instr& in, ExecCtx& ctx) {
  RoundingScope<R> scope;
  uint64_t* d = lanes::dstPtr(ctx, in.dst(0));
  const uint64_t* a = lanes::srcPtr(ctx, in.src(0));
  const uint64_t* b = N > 1 ? lanes::srcPtr(ctx, in.src(1)) : a;
  const uint64_t* c = N > 2 ? lanes::srcPtr(ctx, in.src(2)) : a;
  lanes::forEachLane(ctx.mask, [&](unsigned l) {
    double r;
    if constexpr (N == 1) {
      r = Op::apply(f64Of(a[l]));
    } else if constexpr (N == 2) {
      r = Op::apply(f64Of(a[l]), f64Of(b[l]));
    } else {
      r = Op::apply(f64Of(a[l]), f64Of(b[l]), f64Of(c[l]));
    }
    d[l] = slotOf(r);
  });
}

template <class Op, unsigned N, Rounding R, bool Ftz, bool Sat>
void f32Exec(const ir::Instr& in, ExecCtx& ctx) {
  f32Body<Op, N, R, Ftz, Sat>(in, ctx);
}
template <class Op, unsigned N, Rounding R>
void f64Exec(const ir::Instr& in, ExecCtx& ctx) {
  f64Body<Op, N, R>(in, ctx);
}

// fma is the most frequent floating-point instruction in compiled CUDA code. Without -mfma the
// host compiler calls libm's fma per lane; these variants let it emit the FMA instructions
// (vectorised) and are chosen when the host CPU has them. Results are identical: both are the
// correctly rounded fused multiply-add.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define WARPSIM_HAS_FMA_VARIANT 1
template <class Op, unsigned N, Rounding R, bool Ftz, bool Sat>
__attribute__((target("fma"))) void f32ExecFma(const ir::Instr& in, ExecCtx& ctx) {
  f32Body<Op, N, R, Ftz, Sat>(in, ctx);
}
template <class Op, unsigned N, Rounding R>
__attribute__((target("fma"))) void f64ExecFma(const ir::Instr& in, ExecCtx& ctx) {
  f64Body<Op, N, R>(in, ctx);
}
bool hostHasFma() { return __builtin_cpu_supports("fma"); }
#else
#define WARPSIM_HAS_FMA_VARIANT 0
#endif

template <class Op, unsigned N, Rounding R, bool Ftz, bool Sat>
ExecFn pickF32Variant() {
#if WARPSIM_HAS_FMA_VARIANT
  if (std::is_same_v<Op, FmaOp> && hostHasFma()) return &f32ExecFma<Op, N, R, Ftz, Sat>;
#endif
  return &f32Exec<Op, N, R, Ftz, Sat>;
}

template <class Op, unsigned N, Rounding R>
ExecFn pickF64Variant() {
#if WARPSIM_HAS_FMA_VARIANT
  if (std::is_same_v<Op, FmaOp> && hostHasFma()) return &f64ExecFma<Op, N, R>;
#endif
  return &f64Exec<Op, N, R>;
}

template <class Op, unsigned N, Rounding R>
ExecFn pickF32(bool ftz, bool sat) {
  if (ftz)
    return sat ? pickF32Variant<Op, N, R, true, true>() : pickF32Variant<Op, N, R, true, false>();
  return sat ? pickF32Variant<Op, N, R, false, true>() : pickF32Variant<Op, N, R, false, false>();
}

template <class Op, unsigned N>
ExecFn pick(ir::Type type, Rounding r, bool ftz, bool sat) {
  if (type == ir::Type::F64) {
    switch (r) {
      case Rounding::TowardZero: return pickF64Variant<Op, N, Rounding::TowardZero>();
      case Rounding::Down: return pickF64Variant<Op, N, Rounding::Down>();
      case Rounding::Up: return pickF64Variant<Op, N, Rounding::Up>();
      default: return pickF64Variant<Op, N, Rounding::NearestEven>();
    }
  }
  switch (r) {
    case Rounding::TowardZero: return pickF32<Op, N, Rounding::TowardZero>(ftz, sat);
    case Rounding::Down: return pickF32<Op, N, Rounding::Down>(ftz, sat);
    case Rounding::Up: return pickF32<Op, N, Rounding::Up>(ftz, sat);
    default: return pickF32<Op, N, Rounding::NearestEven>(ftz, sat);
  }
}

}  // namespace

ExecFn bindArith(const ir::Instr& in, std::string* error) {
  const bool f64 = in.type == ir::Type::F64;
  const bool ftz = in.has(ir::kFtz);
  const bool sat = in.has(ir::kSat);
  Rounding r;
  if (!floatRounding(in.round, &r)) return fail(in, error, "unsupported rounding modifier");
  if (f64 && (ftz || sat)) return fail(in, error, ".ftz and .sat apply to .f32 only");
  const bool satAllowed = in.op == ir::Op::Add || in.op == ir::Op::Sub || in.op == ir::Op::Mul ||
                          in.op == ir::Op::Fma || in.op == ir::Op::Mad;
  if (sat && !satAllowed) return fail(in, error, ".sat is not allowed");
  switch (in.op) {
    case ir::Op::Add: return pick<AddOp, 2>(in.type, r, ftz, sat);
    case ir::Op::Sub: return pick<SubOp, 2>(in.type, r, ftz, sat);
    case ir::Op::Mul: return pick<MulOp, 2>(in.type, r, ftz, sat);
    // mad.f32 with no rounding modifier is mad.rn.f32 (a fused multiply-add) on sm_20 and later,
    // as the PTX ISA errata for mad states.
    case ir::Op::Fma:
    case ir::Op::Mad: return pick<FmaOp, 3>(in.type, r, ftz, sat);
    case ir::Op::Div: return pick<DivOp, 2>(in.type, r, ftz, sat);
    case ir::Op::Rcp: return pick<RcpOp, 1>(in.type, r, ftz, sat);
    case ir::Op::Sqrt: return pick<SqrtOp, 1>(in.type, r, ftz, sat);
    default: return fail(in, error, "not an IEEE arithmetic operation");
  }
}

}  // namespace warpsim::func::fp
