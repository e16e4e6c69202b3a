// Carry-flag arithmetic: add.cc/addc/sub.cc/subc/mad.cc/madc chains compute multi-word results
// that must match 128-bit references lane by lane; the flag changes only in executing lanes.
#include <gtest/gtest.h>

#include <cstdint>

#include "func/alu/int_test_support.h"

namespace warpsim::func::testing {
namespace {

using ir::MulMode;
using ir::Op;
using ir::Type;

__extension__ typedef unsigned __int128 U128;

ir::Instr carryOp(Op op, Type t, uint32_t d, std::initializer_list<ir::Operand> srcs, bool cc,
                  MulMode m = MulMode::None) {
  unsigned w = ir::bits(t);
  ir::Instr in = AluHarness::make(op, t, {AluHarness::R(d, w)}, srcs);
  if (cc) in.flags |= ir::kSetsCC;
  in.mulMode = m;
  return in;
}

class CarryChain : public ::testing::Test {
 protected:
  // Lane-dependent test values, including carries that ripple through every limb.
  static uint64_t value(unsigned lane, unsigned which) {
    uint64_t x = 0x243F6A8885A308D3ull * (lane + 1) + 0x13198A2E03707344ull * (which + 7);
    x ^= x >> 29;
    if (lane % 4 == 0) return ~0ull;  // all ones: carries propagate through all limbs
    if (lane % 4 == 1) return which % 2 ? 1 : ~0ull;
    return x;
  }
  AluHarness h{64};
};

TEST_F(CarryChain, Add128With32BitLimbs) {
  // r[0..3] = a[4..7] + b[8..11]: add.cc, addc.cc, addc.cc, addc
  for (unsigned l = 0; l < kWarpSize; ++l) {
    U128 a = (U128{value(l, 0)} << 64) | value(l, 1), b = (U128{value(l, 2)} << 64) | value(l, 3);
    for (unsigned i = 0; i < 4; ++i) {
      h.setLane(4 + i, l, static_cast<uint32_t>(a >> (32 * i)));
      h.setLane(8 + i, l, static_cast<uint32_t>(b >> (32 * i)));
    }
  }
  h.run(carryOp(Op::Add, Type::U32, 0, {AluHarness::R(4), AluHarness::R(8)}, true));
  h.run(carryOp(Op::AddC, Type::U32, 1, {AluHarness::R(5), AluHarness::R(9)}, true));
  h.run(carryOp(Op::AddC, Type::U32, 2, {AluHarness::R(6), AluHarness::R(10)}, true));
  h.run(carryOp(Op::AddC, Type::U32, 3, {AluHarness::R(7), AluHarness::R(11)}, false));
  for (unsigned l = 0; l < kWarpSize; ++l) {
    U128 a = (U128{value(l, 0)} << 64) | value(l, 1), b = (U128{value(l, 2)} << 64) | value(l, 3);
    U128 want = a + b;
    for (unsigned i = 0; i < 4; ++i) {
      EXPECT_EQ(h.get(i, l), static_cast<uint32_t>(want >> (32 * i))) << "lane " << l << " limb " << i;
    }
  }
}

TEST_F(CarryChain, Sub128With64BitLimbs) {
  for (unsigned l = 0; l < kWarpSize; ++l) {
    h.setLane(4, l, value(l, 1));  // a lo
    h.setLane(5, l, value(l, 0));  // a hi
    h.setLane(6, l, value(l, 3));  // b lo
    h.setLane(7, l, l % 2 ? value(l, 2) : 0);
  }
  h.run(carryOp(Op::Sub, Type::U64, 0, {AluHarness::R(4, 64), AluHarness::R(6, 64)}, true));
  h.run(carryOp(Op::SubC, Type::U64, 1, {AluHarness::R(5, 64), AluHarness::R(7, 64)}, false));
  for (unsigned l = 0; l < kWarpSize; ++l) {
    U128 a = (U128{h.get(5, l)} << 64) | h.get(4, l), b = (U128{h.get(7, l)} << 64) | h.get(6, l);
    U128 want = a - b;
    EXPECT_EQ(h.get(0, l), static_cast<uint64_t>(want)) << "lane " << l;
    EXPECT_EQ(h.get(1, l), static_cast<uint64_t>(want >> 64)) << "lane " << l;
  }
}

TEST_F(CarryChain, Sub96With32BitLimbsBorrowsThroughMiddle) {
  // 0x1_00000000_00000000 - 1 = 0x0_FFFFFFFF_FFFFFFFF
  h.setAll(4, 0); h.setAll(5, 0); h.setAll(6, 1);
  h.setAll(8, 1); h.setAll(9, 0); h.setAll(10, 0);
  h.run(carryOp(Op::Sub, Type::U32, 0, {AluHarness::R(4), AluHarness::R(8)}, true));
  EXPECT_EQ(h.carry(), kFullMask);
  h.run(carryOp(Op::SubC, Type::U32, 1, {AluHarness::R(5), AluHarness::R(9)}, true));
  h.run(carryOp(Op::SubC, Type::U32, 2, {AluHarness::R(6), AluHarness::R(10)}, true));
  EXPECT_EQ(h.get(0), 0xFFFFFFFFu);
  EXPECT_EQ(h.get(1), 0xFFFFFFFFu);
  EXPECT_EQ(h.get(2), 0u);
  EXPECT_EQ(h.carry(), 0u);  // no borrow out of the top limb
}

TEST_F(CarryChain, MultiplyWideWithMadCarry) {
  // {r0,r1,r2} = {a1,a0} * b with 32-bit limbs:
  //   r0 = mul.lo a0,b; r1 = mul.hi a0,b; r1 = mad.lo.cc a1,b,r1; r2 = madc.hi a1,b,0
  for (unsigned l = 0; l < kWarpSize; ++l) {
    uint64_t a = value(l, 4);
    h.setLane(4, l, static_cast<uint32_t>(a));
    h.setLane(5, l, a >> 32);
    h.setLane(6, l, static_cast<uint32_t>(value(l, 5)));
  }
  h.run(carryOp(Op::Mul, Type::U32, 0, {AluHarness::R(4), AluHarness::R(6)}, false, MulMode::Lo));
  h.run(carryOp(Op::Mul, Type::U32, 1, {AluHarness::R(4), AluHarness::R(6)}, false, MulMode::Hi));
  h.run(carryOp(Op::Mad, Type::U32, 1, {AluHarness::R(5), AluHarness::R(6), AluHarness::R(1)}, true,
                MulMode::Lo));
  h.run(carryOp(Op::MadC, Type::U32, 2, {AluHarness::R(5), AluHarness::R(6), h.Imm(0)}, false,
                MulMode::Hi));
  for (unsigned l = 0; l < kWarpSize; ++l) {
    U128 want = U128{value(l, 4)} * static_cast<uint32_t>(value(l, 5));
    EXPECT_EQ(h.get(0, l), static_cast<uint32_t>(want)) << "lane " << l;
    EXPECT_EQ(h.get(1, l), static_cast<uint32_t>(want >> 32)) << "lane " << l;
    EXPECT_EQ(h.get(2, l), static_cast<uint32_t>(want >> 64)) << "lane " << l;
  }
}

TEST_F(CarryChain, Multiply128By64WithMadWideChain64) {
  // {r0,r1,r2} = {a1,a0} * b, 64-bit limbs: r0 = mul.lo a0,b; r1 = mul.hi a0,b;
  // r1 = mad.lo.cc.u64 a1,b,r1; r2 = madc.hi.u64 a1,b,0
  for (unsigned l = 0; l < kWarpSize; ++l) {
    h.setLane(4, l, value(l, 0));
    h.setLane(5, l, value(l, 1));
    h.setLane(6, l, value(l, 2));
  }
  auto R = [](uint32_t r) { return AluHarness::R(r, 64); };
  h.run(carryOp(Op::Mul, Type::U64, 0, {R(4), R(6)}, false, MulMode::Lo));
  h.run(carryOp(Op::Mul, Type::U64, 1, {R(4), R(6)}, false, MulMode::Hi));
  h.run(carryOp(Op::Mad, Type::U64, 1, {R(5), R(6), R(1)}, true, MulMode::Lo));
  h.run(carryOp(Op::MadC, Type::U64, 2, {R(5), R(6), h.Imm(0)}, false, MulMode::Hi));
  for (unsigned l = 0; l < kWarpSize; ++l) {
    U128 lo = U128{value(l, 0)} * value(l, 2);
    U128 hi = U128{value(l, 1)} * value(l, 2);
    // 192-bit result = lo + (hi << 64)
    uint64_t r0 = static_cast<uint64_t>(lo);
    U128 mid = (lo >> 64) + static_cast<uint64_t>(hi);
    uint64_t r1 = static_cast<uint64_t>(mid);
    uint64_t r2 = static_cast<uint64_t>((hi >> 64) + (mid >> 64));
    EXPECT_EQ(h.get(0, l), r0) << "lane " << l;
    EXPECT_EQ(h.get(1, l), r1) << "lane " << l;
    EXPECT_EQ(h.get(2, l), r2) << "lane " << l;
  }
}

TEST_F(CarryChain, MadcCarryOutAndSigned) {
  // madc.lo.cc.s32: -1 * 1 + (-1) + CF=1 = -1, with unsigned carry-out of 0xFFFFFFFF+0xFFFFFFFF.
  h.setAll(4, 0xFFFFFFFF);
  h.setAll(5, 1);
  h.setCarry(kFullMask);
  h.run(carryOp(Op::MadC, Type::S32, 0, {AluHarness::R(4), AluHarness::R(5), AluHarness::R(4)}, true,
                MulMode::Lo));
  EXPECT_EQ(h.get(0), 0xFFFFFFFFu);
  EXPECT_EQ(h.carry(), kFullMask);
  // mad.hi.cc.u32: hi(2^31 * 2) = 1, + 0xFFFFFFFF carries out.
  h.setAll(6, 0x80000000u);
  h.setAll(7, 2);
  h.setCarry(0);
  h.run(carryOp(Op::Mad, Type::U32, 1, {AluHarness::R(6), AluHarness::R(7), AluHarness::R(4)}, true,
                MulMode::Hi));
  EXPECT_EQ(h.get(1), 0u);
  EXPECT_EQ(h.carry(), kFullMask);
}

TEST_F(CarryChain, CarryChangesOnlyInMask) {
  h.setAll(4, 0xFFFFFFFF);
  h.setAll(5, 1);
  h.setCarry(0x0F0F0F0Fu);
  h.run(carryOp(Op::Add, Type::U32, 0, {AluHarness::R(4), AluHarness::R(5)}, true), 0xFFFF0000u);
  EXPECT_EQ(h.carry(), 0xFFFF0F0Fu);
  // add without .cc leaves the flag alone
  h.setAll(5, 0);
  h.run(carryOp(Op::Add, Type::U32, 0, {AluHarness::R(4), AluHarness::R(5)}, false));
  EXPECT_EQ(h.carry(), 0xFFFF0F0Fu);
  // addc reads the per-lane carry: lanes with CF=1 get +1
  h.run(carryOp(Op::AddC, Type::U32, 1, {AluHarness::R(5), AluHarness::R(5)}, false));
  for (unsigned l = 0; l < kWarpSize; ++l) EXPECT_EQ(h.get(1, l), (0xFFFF0F0Fu >> l) & 1u) << l;
  EXPECT_EQ(h.carry(), 0xFFFF0F0Fu);  // addc without .cc does not write the flag
}

TEST_F(CarryChain, SubcConsumesBorrow) {
  // subc.u32 5 - 3 - CF(1) = 1; subc.cc.u32 0 - 0 - 1 = 0xFFFFFFFF with borrow out
  h.setAll(4, 5); h.setAll(5, 3); h.setAll(6, 0);
  h.setCarry(kFullMask);
  h.run(carryOp(Op::SubC, Type::U32, 0, {AluHarness::R(4), AluHarness::R(5)}, false));
  EXPECT_EQ(h.get(0), 1u);
  h.run(carryOp(Op::SubC, Type::U32, 1, {AluHarness::R(6), AluHarness::R(6)}, true));
  EXPECT_EQ(h.get(1), 0xFFFFFFFFu);
  EXPECT_EQ(h.carry(), kFullMask);
  h.setCarry(0);
  h.run(carryOp(Op::SubC, Type::U32, 1, {AluHarness::R(4), AluHarness::R(5)}, true));
  EXPECT_EQ(h.get(1), 2u);
  EXPECT_EQ(h.carry(), 0u);
}

}  // namespace
}  // namespace warpsim::func::testing
