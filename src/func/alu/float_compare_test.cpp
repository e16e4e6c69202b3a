// Tests for setp / set with floating-point comparisons, and testp.
#include <cmath>

#include "func/alu/float_test_support.h"

namespace warpsim::func::testing {
namespace {

using ir::BoolOp;
using ir::CmpOp;
using ir::Op;
using ir::Type;

constexpr uint64_t kNaN32 = 0x7FC00000u;

// setp.cmp.type p0, a, b (all lanes equal); returns whether p0 is set in lane 0.
bool setp(CmpOp c, Type t, uint64_t a, uint64_t b, uint32_t flags = 0) {
  AluHarness h;
  ir::Instr in =
      AluHarness::make(Op::Setp, t, {AluHarness::P(0)}, {AluHarness::R(1), AluHarness::R(2)});
  in.cmp = c;
  in.flags = flags;
  h.setAll(1, a);
  h.setAll(2, b);
  h.setPred(0, 0x12345678u);
  h.run(in);
  EXPECT_TRUE(h.pred(0) == 0 || h.pred(0) == kFullMask);
  return h.pred(0) != 0;
}

TEST(FloatCompare, OrderedAndUnorderedWithNaN) {
  struct Row {
    CmpOp c;
    bool lt, eq, gt, nan;
  };
  const Row rows[] = {
      {CmpOp::Eq, false, true, false, false}, {CmpOp::Ne, true, false, true, false},
      {CmpOp::Lt, true, false, false, false}, {CmpOp::Le, true, true, false, false},
      {CmpOp::Gt, false, false, true, false}, {CmpOp::Ge, false, true, true, false},
      {CmpOp::Equ, false, true, false, true}, {CmpOp::Neu, true, false, true, true},
      {CmpOp::Ltu, true, false, false, true}, {CmpOp::Leu, true, true, false, true},
      {CmpOp::Gtu, false, false, true, true}, {CmpOp::Geu, false, true, true, true},
      {CmpOp::Num, true, true, true, false},  {CmpOp::Nan, false, false, false, true},
  };
  for (const Row& r : rows) {
    SCOPED_TRACE(static_cast<int>(r.c));
    EXPECT_EQ(setp(r.c, Type::F32, f2b(1.0f), f2b(2.0f)), r.lt);
    EXPECT_EQ(setp(r.c, Type::F32, f2b(2.0f), f2b(2.0f)), r.eq);
    EXPECT_EQ(setp(r.c, Type::F32, f2b(3.0f), f2b(2.0f)), r.gt);
    EXPECT_EQ(setp(r.c, Type::F32, kNaN32, f2b(2.0f)), r.nan);
    EXPECT_EQ(setp(r.c, Type::F64, d2b(1.0), d2b(2.0)), r.lt);
    EXPECT_EQ(setp(r.c, Type::F64, d2b(2.0), 0x7FF8000000000000ull), r.nan);
    EXPECT_EQ(setp(r.c, Type::F16, 0x3C00, 0x4000), r.lt);  // 1 vs 2
    EXPECT_EQ(setp(r.c, Type::F16, 0x7E00, 0x4000), r.nan);
    EXPECT_EQ(setp(r.c, Type::BF16, 0x4040, 0x4000), r.gt);  // 3 vs 2
  }
  EXPECT_TRUE(setp(CmpOp::Eq, Type::F32, f2b(0.0f), f2b(-0.0f)));
  EXPECT_FALSE(setp(CmpOp::Lt, Type::F32, f2b(-0.0f), f2b(0.0f)));
}

TEST(FloatCompare, FtzFlushesOperands) {
  EXPECT_FALSE(setp(CmpOp::Eq, Type::F32, 0x00000001u, 0u));
  EXPECT_TRUE(setp(CmpOp::Eq, Type::F32, 0x00000001u, 0u, ir::kFtz));
  EXPECT_TRUE(setp(CmpOp::Eq, Type::F16, 0x0001u, 0x8000u, ir::kFtz));
  EXPECT_FALSE(setp(CmpOp::Eq, Type::F16, 0x0001u, 0x8000u));
}

TEST(FloatCompare, BoolCombineAndTwoDestinations) {
  AluHarness h;
  ir::Instr in = AluHarness::make(Op::Setp, Type::F32, {AluHarness::P(0), AluHarness::P(1)},
                                  {AluHarness::R(1), AluHarness::R(2), AluHarness::P(2, true)});
  in.cmp = CmpOp::Lt;
  in.boolOp = BoolOp::And;
  for (unsigned l = 0; l < kWarpSize; ++l) h.setLane(1, l, f2b(static_cast<float>(l)));
  h.setAll(2, f2b(16.0f));
  h.setPred(2, 0x0000FF00u);       // c = !p2: true outside lanes 8..15
  h.run(in, 0x00FFFFFFu);          // lanes 24..31 inactive
  const uint32_t t = 0x0000FFFFu;  // lane < 16
  const uint32_t c = ~0x0000FF00u;
  EXPECT_EQ(h.pred(0) & 0x00FFFFFFu, t & c & 0x00FFFFFFu);
  EXPECT_EQ(h.pred(1) & 0x00FFFFFFu, ~t & c & 0x00FFFFFFu);
  EXPECT_EQ(h.pred(0) & 0xFF000000u, 0u);  // inactive lanes keep their old value (0)

  in.boolOp = BoolOp::Xor;
  h.run(in);
  EXPECT_EQ(h.pred(0), t ^ c);
  EXPECT_EQ(h.pred(1), ~t ^ c);
}

TEST(FloatCompare, PairTypesWriteOnePredicatePerHalf) {
  AluHarness h;
  ir::Instr in = AluHarness::make(Op::Setp, Type::F16x2, {AluHarness::P(0), AluHarness::P(1)},
                                  {AluHarness::R(1), AluHarness::R(2)});
  in.cmp = CmpOp::Gt;
  h.setAll(1, 0x4000'3C00u);  // hi = 2, lo = 1
  h.setAll(2, 0x3C00'4000u);  // hi = 1, lo = 2
  h.run(in);
  EXPECT_EQ(h.pred(0), 0u);         // lo: 1 > 2 false
  EXPECT_EQ(h.pred(1), kFullMask);  // hi: 2 > 1 true
  in.type = Type::BF16x2;
  h.setAll(1, 0x3F80'4000u);  // hi = 1, lo = 2
  h.setAll(2, 0x4000'3F80u);  // hi = 2, lo = 1
  h.run(in);
  EXPECT_EQ(h.pred(0), kFullMask);
  EXPECT_EQ(h.pred(1), 0u);
  // An x2 comparison needs p|q.
  EXPECT_NE(h.tryRun(AluHarness::make(Op::Setp, Type::F16x2, {AluHarness::P(0)},
                                      {AluHarness::R(1), AluHarness::R(2)})),
            "");
}

TEST(FloatCompare, SetWritesAllOnesOrOne) {
  auto setLt = [](Type dst, Type src, uint64_t a, uint64_t b) {
    AluHarness h;
    ir::Instr in =
        AluHarness::make(Op::Set, dst, {AluHarness::R(0)}, {AluHarness::R(1), AluHarness::R(2)});
    in.type2 = src;
    in.cmp = CmpOp::Lt;
    h.setAll(1, a);
    h.setAll(2, b);
    h.run(in);
    return h.get(0);
  };
  EXPECT_EQ(setLt(Type::U32, Type::F32, f2b(1.0f), f2b(2.0f)), 0xFFFFFFFFu);
  EXPECT_EQ(setLt(Type::S32, Type::F32, f2b(3.0f), f2b(2.0f)), 0u);
  EXPECT_EQ(setLt(Type::B32, Type::F32, f2b(1.0f), f2b(2.0f)), 0xFFFFFFFFu);
  EXPECT_EQ(setLt(Type::F32, Type::F64, d2b(1.0), d2b(2.0)), f2b(1.0f));
  EXPECT_EQ(setLt(Type::F32, Type::F32, kNaN32, f2b(2.0f)), 0u);
  EXPECT_EQ(setLt(Type::F16, Type::F32, f2b(1.0f), f2b(2.0f)), 0x3C00u);
  EXPECT_EQ(setLt(Type::U32, Type::F16x2, 0x4000'3C00u, 0x3C00'4000u), 0x0000FFFFu);
  EXPECT_EQ(setLt(Type::F16x2, Type::F16x2, 0x3C00'4000u, 0x4000'3C00u), 0x3C00'0000u);
  EXPECT_EQ(setLt(Type::BF16x2, Type::BF16x2, 0x3F80'3F80u, 0x4000'4000u), 0x3F80'3F80u);
}

TEST(FloatCompare, TestpClasses) {
  using K = ir::TestpClass;
  auto testp = [](K k, Type t, uint64_t v) {
    AluHarness h;
    ir::Instr in = AluHarness::make(Op::Testp, t, {AluHarness::P(3)}, {AluHarness::R(1)});
    in.sub = static_cast<uint8_t>(k);
    h.setAll(1, v);
    h.run(in);
    return h.pred(3) == kFullMask;
  };
  struct Row {
    uint32_t bits;
    bool finite, infinite, number, nan, normal, subnormal;
  };
  const Row rows[] = {
      {f2b(1.5f), true, false, true, false, true, false},
      {f2b(-0.0f), true, false, true, false, true, false},  // zeros count as normal
      {0x00000001u, true, false, true, false, false, true},
      {f2b(-INFINITY), false, true, true, false, false, false},
      {0x7FC00000u, false, false, false, true, false, false},
  };
  for (const Row& r : rows) {
    SCOPED_TRACE(r.bits);
    EXPECT_EQ(testp(K::Finite, Type::F32, r.bits), r.finite);
    EXPECT_EQ(testp(K::Infinite, Type::F32, r.bits), r.infinite);
    EXPECT_EQ(testp(K::Number, Type::F32, r.bits), r.number);
    EXPECT_EQ(testp(K::NotANumber, Type::F32, r.bits), r.nan);
    EXPECT_EQ(testp(K::Normal, Type::F32, r.bits), r.normal);
    EXPECT_EQ(testp(K::Subnormal, Type::F32, r.bits), r.subnormal);
    const uint64_t d = d2b(static_cast<double>(b2f(r.bits)));
    if (!r.subnormal) {
      EXPECT_EQ(testp(K::Normal, Type::F64, d), r.normal);
    }
  }
  EXPECT_TRUE(testp(K::Subnormal, Type::F64, 0x8000000000000001ull));
  EXPECT_FALSE(testp(K::Subnormal, Type::F64, d2b(1e-300)));
}

}  // namespace
}  // namespace warpsim::func::testing
