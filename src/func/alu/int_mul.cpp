// mul, mad (.lo .hi .wide, mad.hi.sat.s32, .cc), madc, mul24, mad24 (PTX ISA 9.0, "Integer
// Arithmetic Instructions"). Products are formed in a type twice as wide as the operands, so no
// intermediate overflows; .lo/.hi/.wide then pick bits of the exact product.
#include "func/alu/int_common.h"

namespace warpsim::func::intalu {
namespace {

using lanes::dstMask;

__extension__ typedef __int128 Int128;
__extension__ typedef unsigned __int128 UInt128;

// A signed or unsigned integer twice as wide as T.
template <class T> struct WideOf;
template <> struct WideOf<int16_t> { using type = int32_t; };
template <> struct WideOf<uint16_t> { using type = uint32_t; };
template <> struct WideOf<int32_t> { using type = int64_t; };
template <> struct WideOf<uint32_t> { using type = uint64_t; };
template <> struct WideOf<int64_t> { using type = Int128; };
template <> struct WideOf<uint64_t> { using type = UInt128; };

enum class Part { Lo, Hi, Wide };

// Bits of the exact product a*b (operands of type T taken from the low bits of the slots).
template <class T, Part P>
inline uint64_t productPart(uint64_t a, uint64_t b) {
  using W = typename WideOf<T>::type;
  W p = static_cast<W>(static_cast<T>(a)) * static_cast<W>(static_cast<T>(b));
  if constexpr (P == Part::Hi) {
    return static_cast<uint64_t>(p >> kBits<T>);  // arithmetic shift for signed (C++20)
  } else {
    return static_cast<uint64_t>(p);  // Lo: low bits; Wide: whole product (fits for 16/32)
  }
}

template <class T, Part P>
constexpr unsigned resultBits() {
  return P == Part::Wide ? 2 * kBits<T> : kBits<T>;
}

template <class T, Part P>
struct MulExec {
  static void run(const ir::Instr& in, ExecCtx& ctx) {
    lanes::map2(ctx, in.dst(), in.src(0), in.src(1), dstMask(in.dst(), resultBits<T, P>()),
                [](uint64_t a, uint64_t b) { return productPart<T, P>(a, b); });
  }
};

// mad: product part + c, modulo the result width (c has the result width).
template <class T, Part P>
struct MadExec {
  static void run(const ir::Instr& in, ExecCtx& ctx) {
    lanes::map3(ctx, in.dst(), in.src(0), in.src(1), in.src(2),
                dstMask(in.dst(), resultBits<T, P>()),
                [](uint64_t a, uint64_t b, uint64_t c) { return productPart<T, P>(a, b) + c; });
  }
};

// mad.hi.sat.s32: (a*b)<63..32> + c, clamped to the s32 range.
struct MadHiSatS32 {
  static void run(const ir::Instr& in, ExecCtx& ctx) {
    lanes::map3(ctx, in.dst(), in.src(0), in.src(1), in.src(2), dstMask(in.dst(), 32),
                [](uint64_t a, uint64_t b, uint64_t c) -> uint64_t {
                  int64_t hi = static_cast<int32_t>(productPart<int32_t, Part::Hi>(a, b));
                  int64_t r = hi + static_cast<int32_t>(c);
                  if (r > INT32_MAX) r = INT32_MAX;
                  if (r < INT32_MIN) r = INT32_MIN;
                  return static_cast<uint32_t>(r);
                });
  }
};

// mad.cc / madc / madc.cc: product part + c (+ CF), carry-out of the unsigned addition.
template <class T, Part P, bool CarryIn, bool CarryOut>
struct MadCarry {
  static void run(const ir::Instr& in, ExecCtx& ctx) {
    using U = UnsignedOf<T>;
    const uint64_t* pa = lanes::srcPtr(ctx, in.src(0));
    const uint64_t* pb = lanes::srcPtr(ctx, in.src(1));
    const uint64_t* pc = lanes::srcPtr(ctx, in.src(2));
    const uint64_t m = dstMask(in.dst(), kBits<T>);
    const uint32_t cin = ctx.carry;
    uint64_t out[kWarpSize];
    uint8_t flags[kWarpSize];
    for (unsigned l = 0; l < kWarpSize; ++l) {
      U t = static_cast<U>(productPart<T, P>(pa[l], pb[l]));
      U s = static_cast<U>(t + static_cast<U>(pc[l]));
      U r = static_cast<U>(s + (CarryIn ? static_cast<U>((cin >> l) & 1u) : U{0}));
      out[l] = static_cast<uint64_t>(r) & m;
      flags[l] = static_cast<uint8_t>((s < t) | (r < s));
    }
    lanes::storeLanes(lanes::dstPtr(ctx, in.dst()), out, ctx.mask);
    if constexpr (CarryOut) lanes::writeCarry(ctx, lanes::packFlags(flags), ctx.mask);
  }
};

// mul24/mad24: 24x24-bit product of the low 24 bits of a and b (sign-extended for .s32), a
// 48-bit value; .lo keeps bits 31..0 and .hi bits 47..16.
template <bool Signed, bool Hi>
inline uint64_t product24(uint64_t a, uint64_t b) {
  if constexpr (Signed) {
    int64_t p = lanes::signExtend<24>(a) * lanes::signExtend<24>(b);
    return static_cast<uint64_t>(Hi ? (p >> 16) : p);
  } else {
    uint64_t p = (a & 0xFFFFFFu) * (b & 0xFFFFFFu);
    return Hi ? (p >> 16) : p;
  }
}

template <bool Signed, bool Hi>
struct Mul24Exec {
  static void run(const ir::Instr& in, ExecCtx& ctx) {
    lanes::map2(ctx, in.dst(), in.src(0), in.src(1), dstMask(in.dst(), 32),
                [](uint64_t a, uint64_t b) { return product24<Signed, Hi>(a, b); });
  }
};

template <bool Signed, bool Hi, bool Sat>
struct Mad24Exec {
  static void run(const ir::Instr& in, ExecCtx& ctx) {
    lanes::map3(ctx, in.dst(), in.src(0), in.src(1), in.src(2), dstMask(in.dst(), 32),
                [](uint64_t a, uint64_t b, uint64_t c) -> uint64_t {
                  uint64_t t = product24<Signed, Hi>(a, b);
                  if constexpr (Sat) {
                    int64_t r = int64_t{static_cast<int32_t>(t)} + static_cast<int32_t>(c);
                    if (r > INT32_MAX) r = INT32_MAX;
                    if (r < INT32_MIN) r = INT32_MIN;
                    return static_cast<uint32_t>(r);
                  } else {
                    return t + c;
                  }
                });
  }
};

template <class T> using MulLo = MulExec<T, Part::Lo>;
template <class T> using MulHi = MulExec<T, Part::Hi>;
template <class T> using MadLo = MadExec<T, Part::Lo>;
template <class T> using MadHi = MadExec<T, Part::Hi>;

template <class T> using MadLoCo = MadCarry<T, Part::Lo, false, true>;
template <class T> using MadHiCo = MadCarry<T, Part::Hi, false, true>;
template <class T> using MadcLo = MadCarry<T, Part::Lo, true, false>;
template <class T> using MadcHi = MadCarry<T, Part::Hi, true, false>;
template <class T> using MadcLoCo = MadCarry<T, Part::Lo, true, true>;
template <class T> using MadcHiCo = MadCarry<T, Part::Hi, true, true>;

ExecFn bindWide(const ir::Instr& in, std::string* error, bool mad) {
  switch (in.type) {
    case ir::Type::S16: return mad ? &MadExec<int16_t, Part::Wide>::run
                                   : &MulExec<int16_t, Part::Wide>::run;
    case ir::Type::U16: return mad ? &MadExec<uint16_t, Part::Wide>::run
                                   : &MulExec<uint16_t, Part::Wide>::run;
    case ir::Type::S32: return mad ? &MadExec<int32_t, Part::Wide>::run
                                   : &MulExec<int32_t, Part::Wide>::run;
    case ir::Type::U32: return mad ? &MadExec<uint32_t, Part::Wide>::run
                                   : &MulExec<uint32_t, Part::Wide>::run;
    default: return unsupported(in, error, ".wide needs a 16- or 32-bit type");
  }
}

ExecFn bindMul24(const ir::Instr& in, std::string* error) {
  const bool mad = in.op == ir::Op::Mad24;
  if (!expectRegs(in, 1, mad ? 3 : 2, error)) return nullptr;
  const bool hi = in.mulMode == ir::MulMode::Hi;
  if (in.mulMode == ir::MulMode::Wide) return unsupported(in, error, ".wide is not a 24-bit mode");
  const bool sat = in.has(ir::kSat);
  if (in.type == ir::Type::S32) {
    if (!mad) return hi ? &Mul24Exec<true, true>::run : &Mul24Exec<true, false>::run;
    if (sat) {
      if (!hi) return unsupported(in, error, ".sat needs .hi");
      return &Mad24Exec<true, true, true>::run;
    }
    return hi ? &Mad24Exec<true, true, false>::run : &Mad24Exec<true, false, false>::run;
  }
  if (in.type == ir::Type::U32 || in.type == ir::Type::B32) {
    if (sat) return unsupported(in, error, ".sat needs .s32");
    if (!mad) return hi ? &Mul24Exec<false, true>::run : &Mul24Exec<false, false>::run;
    return hi ? &Mad24Exec<false, true, false>::run : &Mad24Exec<false, false, false>::run;
  }
  return unsupported(in, error, "24-bit multiply needs .u32 or .s32");
}

ExecFn bindMadCarry(const ir::Instr& in, std::string* error, bool hi) {
  const bool carryIn = in.op == ir::Op::MadC;
  const bool carryOut = in.has(ir::kSetsCC);
  ExecFn fn;
  if (carryIn && carryOut) {
    fn = hi ? byInt32Or64<MadcHiCo>(in.type) : byInt32Or64<MadcLoCo>(in.type);
  } else if (carryIn) {
    fn = hi ? byInt32Or64<MadcHi>(in.type) : byInt32Or64<MadcLo>(in.type);
  } else {
    fn = hi ? byInt32Or64<MadHiCo>(in.type) : byInt32Or64<MadLoCo>(in.type);
  }
  return fn != nullptr ? fn : unsupported(in, error, "carry needs a 32- or 64-bit type");
}

}  // namespace

ExecFn bindMulMad(const ir::Instr& in, std::string* error) {
  if (in.op == ir::Op::Mul24 || in.op == ir::Op::Mad24) return bindMul24(in, error);
  const bool mad = in.op != ir::Op::Mul;
  if (!expectRegs(in, 1, mad ? 3 : 2, error)) return nullptr;
  if (intKind(in.type).bits == 0) return unsupported(in, error, "unsupported type");
  const ir::MulMode mode = in.mulMode;  // integer mul/mad without a mode is read as .lo
  if (mode == ir::MulMode::Wide) {
    if (in.has(ir::kSat) || in.has(ir::kSetsCC) || in.op == ir::Op::MadC) {
      return unsupported(in, error, ".wide cannot combine with .sat or carry");
    }
    return bindWide(in, error, mad);
  }
  const bool hi = mode == ir::MulMode::Hi;
  if (in.has(ir::kSat)) {
    if (!mad || in.op == ir::Op::MadC || in.has(ir::kSetsCC) || !hi ||
        in.type != ir::Type::S32) {
      return unsupported(in, error, ".sat exists only as mad.hi.sat.s32");
    }
    return &MadHiSatS32::run;
  }
  if (in.op == ir::Op::MadC || in.has(ir::kSetsCC)) {
    if (!mad) return unsupported(in, error, "mul has no carry form");
    return bindMadCarry(in, error, hi);
  }
  if (mad) return hi ? byIntType<MadHi>(in.type) : byIntType<MadLo>(in.type);
  return hi ? byIntType<MulHi>(in.type) : byIntType<MulLo>(in.type);
}

}  // namespace warpsim::func::intalu
