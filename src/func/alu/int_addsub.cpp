// add, sub (with .sat on s32 and .cc carry-out) and addc, subc (carry-in, optional .cc).
//
// Carry flag (PTX ISA 9.0, "Extended-Precision Integer Arithmetic Instructions"): add.cc/addc.cc
// write the unsigned carry-out of a + b (+ CF); sub.cc/subc.cc write the unsigned borrow-out of
// a - (b + CF), which subc reads back as its borrow-in. The flag is one bit per lane
// (ExecCtx::carry); only lanes in the execution mask change it.
#include "func/alu/int_common.h"

namespace warpsim::func::intalu {
namespace {

using lanes::dstMask;

// Modular add/sub of the low bits; signedness does not matter for the result bits.
template <class U, bool Subtract>
struct AddWrap {
  static void run(const ir::Instr& in, ExecCtx& ctx) {
    lanes::map2(ctx, in.dst(), in.src(0), in.src(1), dstMask(in.dst(), kBits<U>),
                [](uint64_t a, uint64_t b) -> uint64_t {
                  // Computed in uint64_t: no promotion to int, no overflow UB.
                  return Subtract ? a - b : a + b;
                });
  }
};

// add.sat.s32 / sub.sat.s32: the exact result clamped to [INT32_MIN, INT32_MAX].
template <bool Subtract>
struct AddSatS32 {
  static void run(const ir::Instr& in, ExecCtx& ctx) {
    lanes::map2(ctx, in.dst(), in.src(0), in.src(1), dstMask(in.dst(), 32),
                [](uint64_t a, uint64_t b) -> uint64_t {
                  int64_t x = static_cast<int32_t>(a), y = static_cast<int32_t>(b);
                  int64_t r = Subtract ? x - y : x + y;
                  if (r > INT32_MAX) r = INT32_MAX;
                  if (r < INT32_MIN) r = INT32_MIN;
                  return static_cast<uint32_t>(r);
                });
  }
};

// add/sub with carry-in (addc/subc) and/or carry-out (.cc), 32 or 64 bits.
template <class U, bool Subtract, bool CarryIn, bool CarryOut>
struct AddCarry {
  static void run(const ir::Instr& in, ExecCtx& ctx) {
    const uint64_t* pa = lanes::srcPtr(ctx, in.src(0));
    const uint64_t* pb = lanes::srcPtr(ctx, in.src(1));
    const uint64_t m = dstMask(in.dst(), kBits<U>);
    const uint32_t cin = ctx.carry;
    uint64_t out[kWarpSize];
    uint8_t flags[kWarpSize];
    for (unsigned l = 0; l < kWarpSize; ++l) {
      U a = static_cast<U>(pa[l]), b = static_cast<U>(pb[l]);
      U c = CarryIn ? static_cast<U>((cin >> l) & 1u) : U{0};
      U r;
      uint32_t flag;
      if constexpr (Subtract) {
        U t = static_cast<U>(a - b);
        r = static_cast<U>(t - c);
        flag = static_cast<uint32_t>((a < b) | (t < c));  // borrow out
      } else {
        U t = static_cast<U>(a + b);
        r = static_cast<U>(t + c);
        flag = static_cast<uint32_t>((t < a) | (r < t));  // carry out
      }
      out[l] = static_cast<uint64_t>(r) & m;
      flags[l] = static_cast<uint8_t>(flag);
    }
    lanes::storeLanes(lanes::dstPtr(ctx, in.dst()), out, ctx.mask);
    if constexpr (CarryOut) lanes::writeCarry(ctx, lanes::packFlags(flags), ctx.mask);
  }
};

template <class U, bool Subtract>
ExecFn pickCarry(bool carryIn, bool carryOut) {
  if (carryIn) {
    return carryOut ? &AddCarry<U, Subtract, true, true>::run
                    : &AddCarry<U, Subtract, true, false>::run;
  }
  return &AddCarry<U, Subtract, false, true>::run;
}

}  // namespace

ExecFn bindAddSub(const ir::Instr& in, std::string* error) {
  if (!expectRegs(in, 1, 2, error)) return nullptr;
  const bool subtract = in.op == ir::Op::Sub || in.op == ir::Op::SubC;
  const bool carryIn = in.op == ir::Op::AddC || in.op == ir::Op::SubC;
  const bool carryOut = in.has(ir::kSetsCC);
  const bool sat = in.has(ir::kSat);
  const IntKind k = intKind(in.type);
  if (k.bits == 0) return unsupported(in, error, "unsupported type");

  if (sat) {
    if (carryIn || carryOut) return unsupported(in, error, ".sat cannot combine with carry");
    if (in.type != ir::Type::S32) return unsupported(in, error, ".sat needs .s32");
    return subtract ? &AddSatS32<true>::run : &AddSatS32<false>::run;
  }
  if (carryIn || carryOut) {
    if (k.bits == 32) {
      return subtract ? pickCarry<uint32_t, true>(carryIn, carryOut)
                      : pickCarry<uint32_t, false>(carryIn, carryOut);
    }
    if (k.bits == 64) {
      return subtract ? pickCarry<uint64_t, true>(carryIn, carryOut)
                      : pickCarry<uint64_t, false>(carryIn, carryOut);
    }
    return unsupported(in, error, "carry needs a 32- or 64-bit type");
  }
  switch (k.bits) {
    case 16: return subtract ? &AddWrap<uint16_t, true>::run : &AddWrap<uint16_t, false>::run;
    case 32: return subtract ? &AddWrap<uint32_t, true>::run : &AddWrap<uint32_t, false>::run;
    default: return subtract ? &AddWrap<uint64_t, true>::run : &AddWrap<uint64_t, false>::run;
  }
}

}  // namespace warpsim::func::intalu
