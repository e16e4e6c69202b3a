// abs, neg (s16/s32/s64), min, max (u/s 16/32/64, .relu on s32) and sad (u/s 16/32/64).
// abs(MIN) and neg(MIN) wrap to MIN, as the PTX ISA states for abs ("the absolute value of the
// most negative number is itself") and as two's complement negation gives for neg.
#include <algorithm>

#include "func/alu/int_common.h"

namespace warpsim::func::intalu {
namespace {

using lanes::dstMask;

template <class T>
struct AbsExec {
  static void run(const ir::Instr& in, ExecCtx& ctx) {
    using U = UnsignedOf<T>;
    lanes::map1(ctx, in.dst(), in.src(0), dstMask(in.dst(), kBits<T>), [](uint64_t a) {
      T v = static_cast<T>(a);
      U u = static_cast<U>(v);
      return static_cast<uint64_t>(v < 0 ? static_cast<U>(U{0} - u) : u);
    });
  }
};

template <class T>
struct NegExec {
  static void run(const ir::Instr& in, ExecCtx& ctx) {
    lanes::map1(ctx, in.dst(), in.src(0), dstMask(in.dst(), kBits<T>),
                [](uint64_t a) { return uint64_t{0} - a; });
  }
};

template <class T, bool Max, bool Relu>
struct MinMaxExec {
  static void run(const ir::Instr& in, ExecCtx& ctx) {
    lanes::map2(ctx, in.dst(), in.src(0), in.src(1), dstMask(in.dst(), kBits<T>),
                [](uint64_t a, uint64_t b) {
                  T x = static_cast<T>(a), y = static_cast<T>(b);
                  T r = Max ? std::max(x, y) : std::min(x, y);
                  if constexpr (Relu) r = std::max(r, T{0});
                  return lanes::bitsOf(r);
                });
  }
};

// sad: c + |a - b|, the difference taken exactly (as unsigned distance), the sum modulo 2^n.
template <class T>
struct SadExec {
  static void run(const ir::Instr& in, ExecCtx& ctx) {
    using U = UnsignedOf<T>;
    lanes::map3(ctx, in.dst(), in.src(0), in.src(1), in.src(2), dstMask(in.dst(), kBits<T>),
                [](uint64_t a, uint64_t b, uint64_t c) {
                  T x = static_cast<T>(a), y = static_cast<T>(b);
                  U ux = static_cast<U>(x), uy = static_cast<U>(y);
                  U diff = x < y ? static_cast<U>(uy - ux) : static_cast<U>(ux - uy);
                  return c + diff;
                });
  }
};

template <class T> using Min = MinMaxExec<T, false, false>;
template <class T> using Max = MinMaxExec<T, true, false>;

bool isSignedInt(ir::Type t) { return ir::isSigned(t) && intKind(t).bits != 0; }

}  // namespace

ExecFn bindSimpleArith(const ir::Instr& in, std::string* error) {
  using ir::Op;
  switch (in.op) {
    case Op::Abs: case Op::Neg: {
      if (!expectRegs(in, 1, 1, error)) return nullptr;
      if (!isSignedInt(in.type)) return unsupported(in, error, "needs a signed integer type");
      return in.op == Op::Abs ? byIntType<AbsExec>(in.type) : byIntType<NegExec>(in.type);
    }
    case Op::Min: case Op::Max: {
      if (!expectRegs(in, 1, 2, error)) return nullptr;
      const bool max = in.op == Op::Max;
      if (in.has(ir::kRelu)) {
        if (in.type != ir::Type::S32) return unsupported(in, error, ".relu needs .s32");
        return max ? &MinMaxExec<int32_t, true, true>::run : &MinMaxExec<int32_t, false, true>::run;
      }
      ExecFn fn = max ? byIntType<Max>(in.type) : byIntType<Min>(in.type);
      return fn != nullptr ? fn : unsupported(in, error, "unsupported type");
    }
    case Op::Sad: {
      if (!expectRegs(in, 1, 3, error)) return nullptr;
      ExecFn fn = byIntType<SadExec>(in.type);
      return fn != nullptr ? fn : unsupported(in, error, "unsupported type");
    }
    default:
      return nullptr;
  }
}

}  // namespace warpsim::func::intalu
