// Lane-loop building blocks shared by the ALU executors: iterate over the lanes of a mask,
// reach a register's 32 lane slots, and keep the register invariant (a value in the low bits of
// the destination's declared width, zeros above).
//
// Everything here is header-only and inlined into the per-(op, type, variant) executors, so the
// loops compile to straight code with no per-lane dispatch.
#pragma once
#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "func/exec_context.h"
#include "ir/instr.h"

namespace warpsim::func::lanes {

// ---- iteration ----------------------------------------------------------------------------

// Calls f(lane) for every lane set in `mask`, in increasing lane order. The full-warp case is a
// plain counted loop the compiler can unroll and vectorise.
template <class F>
inline void forEachLane(uint32_t mask, F&& f) {
  if (mask == kFullMask) {
    for (unsigned lane = 0; lane < kWarpSize; ++lane) f(lane);
    return;
  }
  while (mask != 0) {
    f(static_cast<unsigned>(std::countr_zero(mask)));
    mask &= mask - 1;
  }
}

// ---- register access ----------------------------------------------------------------------

// The 32 lane slots of value register `reg` in the current frame.
inline uint64_t* lanePtr(ExecCtx& ctx, uint32_t reg) {
  return ctx.regs + static_cast<uint64_t>(reg) * kWarpSize;
}
// The lane slots of a Reg or Imm operand (immediates live in a hidden constant register).
inline const uint64_t* srcPtr(ExecCtx& ctx, const ir::Operand& op) { return lanePtr(ctx, op.reg); }
inline uint64_t* dstPtr(ExecCtx& ctx, const ir::Operand& op) { return lanePtr(ctx, op.reg); }

// ---- widths and masks ---------------------------------------------------------------------

// All-ones in the low `bits` bits; bits >= 64 gives all ones, 0 gives 0.
constexpr uint64_t widthMask(unsigned bits) {
  return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
}

// Mask for writing a result of `resultBits` into destination operand `dst`: the narrower of the
// result width and the register's declared width (a register with no declared width takes the
// result width).
inline uint64_t dstMask(const ir::Operand& dst, unsigned resultBits) {
  unsigned regBits = dst.regBits == 0 ? resultBits : dst.regBits;
  return widthMask(regBits < resultBits ? regBits : resultBits);
}

// Sign-extends the low `bits` bits of v (1 <= bits <= 64) to 64 bits, without UB.
constexpr int64_t signExtend(uint64_t v, unsigned bits) {
  if (bits >= 64) return static_cast<int64_t>(v);
  uint64_t m = uint64_t{1} << (bits - 1);
  v &= (m << 1) - 1;
  return static_cast<int64_t>((v ^ m) - m);
}
template <unsigned Bits>
constexpr int64_t signExtend(uint64_t v) {
  return signExtend(v, Bits);
}

// The C++ integer of exactly `Bits` bits (8/16/32/64) and signedness.
template <unsigned Bits, bool Signed>
struct IntOf;
template <> struct IntOf<8, false> { using type = uint8_t; };
template <> struct IntOf<16, false> { using type = uint16_t; };
template <> struct IntOf<32, false> { using type = uint32_t; };
template <> struct IntOf<64, false> { using type = uint64_t; };
template <> struct IntOf<8, true> { using type = int8_t; };
template <> struct IntOf<16, true> { using type = int16_t; };
template <> struct IntOf<32, true> { using type = int32_t; };
template <> struct IntOf<64, true> { using type = int64_t; };
template <unsigned Bits, bool Signed>
using IntOfT = typename IntOf<Bits, Signed>::type;

// Reinterprets a lane slot as T (the low sizeof(T) bytes, sign- or zero-extended by C++ rules
// when T is later widened) and back. Conversions between integer types are modular since C++20.
template <class T>
constexpr T as(uint64_t slot) {
  return static_cast<T>(slot);
}
// The slot bits of a T value: sign-extended for signed T; callers mask to the destination width.
template <class T>
constexpr uint64_t bitsOf(T v) {
  if constexpr (std::is_signed_v<T>) {
    return static_cast<uint64_t>(static_cast<int64_t>(v));
  } else {
    return static_cast<uint64_t>(v);
  }
}

// ---- predicates and carry -----------------------------------------------------------------

// The lane mask of a predicate source operand, with `!` applied.
inline uint32_t predValue(const ExecCtx& ctx, const ir::Operand& op) {
  uint32_t v = ctx.preds[op.reg];
  return op.negate ? ~v : v;
}
// Sets predicate register p to `value` in the lanes of `mask`, keeping the others.
inline void writePred(ExecCtx& ctx, uint32_t p, uint32_t value, uint32_t mask) {
  ctx.preds[p] = (ctx.preds[p] & ~mask) | (value & mask);
}
// Sets the carry flag to `value` in the lanes of `mask`, keeping the others.
inline void writeCarry(ExecCtx& ctx, uint32_t value, uint32_t mask) {
  ctx.carry = (ctx.carry & ~mask) | (value & mask);
}

// Packs 32 flags (each 0 or 1) into a lane mask: bit l = flags[l].
inline uint32_t packFlags(const uint8_t (&flags)[kWarpSize]) {
  uint32_t out = 0;
  if constexpr (std::endian::native == std::endian::little) {
    // Eight 0/1 bytes b0..b7 times 0x0102040810204080 put b_i at bit 56+i (no carries).
    for (unsigned g = 0; g < kWarpSize / 8; ++g) {
      uint64_t x;
      std::memcpy(&x, flags + 8 * g, sizeof x);
      out |= static_cast<uint32_t>((x * 0x0102040810204080ull) >> 56) << (8 * g);
    }
  } else {
    for (unsigned l = 0; l < kWarpSize; ++l) out |= static_cast<uint32_t>(flags[l] & 1u) << l;
  }
  return out;
}

// Builds a lane mask from a per-lane condition; bits outside `mask` are 0. cond(lane) is
// evaluated for all 32 lanes (so the loop has no mask-dependent control flow) and must be a pure
// function of the lane's register values: inactive lanes hold stale but valid data.
template <class F>
inline uint32_t collectMask(uint32_t mask, F&& cond) {
  uint8_t flags[kWarpSize];
  for (unsigned lane = 0; lane < kWarpSize; ++lane) flags[lane] = cond(lane) ? 1 : 0;
  return packFlags(flags) & mask;
}

// Lane-select masks: kNibbleLanes[n][j] is all ones when bit j of the 4-bit value n is set.
inline constexpr uint64_t kNibbleLanes[16][4] = {
    {0, 0, 0, 0},   {~0ull, 0, 0, 0},   {0, ~0ull, 0, 0},   {~0ull, ~0ull, 0, 0},
    {0, 0, ~0ull, 0},   {~0ull, 0, ~0ull, 0},   {0, ~0ull, ~0ull, 0},   {~0ull, ~0ull, ~0ull, 0},
    {0, 0, 0, ~0ull},   {~0ull, 0, 0, ~0ull},   {0, ~0ull, 0, ~0ull},   {~0ull, ~0ull, 0, ~0ull},
    {0, 0, ~0ull, ~0ull},   {~0ull, 0, ~0ull, ~0ull},   {0, ~0ull, ~0ull, ~0ull},
    {~0ull, ~0ull, ~0ull, ~0ull},
};

// Expands a lane mask to one 64-bit select mask per lane (all ones where the lane's bit is set),
// for branch-free, vectorisable per-lane selection.
inline void expandMask(uint32_t mask, uint64_t (&sel)[kWarpSize]) {
  for (unsigned g = 0; g < kWarpSize / 4; ++g) {
    std::memcpy(sel + 4 * g, kNibbleLanes[(mask >> (4 * g)) & 0xFu], sizeof kNibbleLanes[0]);
  }
}

// Stores r[lane] into d[lane] for the lanes of `mask`, keeping the others.
inline void storeLanes(uint64_t* d, const uint64_t (&r)[kWarpSize], uint32_t mask) {
  if (mask == kFullMask) {
    std::memcpy(d, r, sizeof r);
    return;
  }
  uint64_t sel[kWarpSize];
  expandMask(mask, sel);
  for (unsigned lane = 0; lane < kWarpSize; ++lane) d[lane] = (d[lane] & ~sel[lane]) | (r[lane] & sel[lane]);
}

// ---- common lane maps ---------------------------------------------------------------------

// d[lane] = f(a[lane], ...) & m for every lane in ctx.mask. The results are computed for all 32
// lanes into a local buffer and then stored under the mask, so the loop vectorises, does not
// depend on the mask, and sources may alias the destination. f must be a pure function of its
// arguments (it also sees the stale values of inactive lanes) and must not have UB for any input.
template <class F>
inline void map1(ExecCtx& ctx, const ir::Operand& dst, const ir::Operand& a, uint64_t m, F&& f) {
  const uint64_t* pa = srcPtr(ctx, a);
  uint64_t r[kWarpSize];
  for (unsigned l = 0; l < kWarpSize; ++l) r[l] = f(pa[l]) & m;
  storeLanes(dstPtr(ctx, dst), r, ctx.mask);
}
template <class F>
inline void map2(ExecCtx& ctx, const ir::Operand& dst, const ir::Operand& a, const ir::Operand& b,
                 uint64_t m, F&& f) {
  const uint64_t* pa = srcPtr(ctx, a);
  const uint64_t* pb = srcPtr(ctx, b);
  uint64_t r[kWarpSize];
  for (unsigned l = 0; l < kWarpSize; ++l) r[l] = f(pa[l], pb[l]) & m;
  storeLanes(dstPtr(ctx, dst), r, ctx.mask);
}
template <class F>
inline void map3(ExecCtx& ctx, const ir::Operand& dst, const ir::Operand& a, const ir::Operand& b,
                 const ir::Operand& c, uint64_t m, F&& f) {
  const uint64_t* pa = srcPtr(ctx, a);
  const uint64_t* pb = srcPtr(ctx, b);
  const uint64_t* pc = srcPtr(ctx, c);
  uint64_t r[kWarpSize];
  for (unsigned l = 0; l < kWarpSize; ++l) r[l] = f(pa[l], pb[l], pc[l]) & m;
  storeLanes(dstPtr(ctx, dst), r, ctx.mask);
}

}  // namespace warpsim::func::lanes
