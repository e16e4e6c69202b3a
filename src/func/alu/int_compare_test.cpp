// setp / set with integer comparisons (incl. predicate combine and two destinations), selp for
// all types, slct with s32 and f32 comparison operands.
#include <gtest/gtest.h>

#include <cstdint>

#include "func/alu/int_test_support.h"

namespace warpsim::func::testing {
namespace {

using ir::BoolOp;
using ir::CmpOp;
using ir::Op;
using ir::Type;

// setp.<cmp>.<type> %p0, a, b on a full warp with uniform sources; true when lane 0's p0 is set.
bool setpUniform(CmpOp cmp, Type t, uint64_t a, uint64_t b) {
  AluHarness h;
  h.setAll(1, a);
  h.setAll(2, b);
  unsigned w = ir::bits(t);
  ir::Instr in = AluHarness::make(Op::Setp, t, {AluHarness::P(0)},
                                  {AluHarness::R(1, w), AluHarness::R(2, w)});
  in.cmp = cmp;
  h.run(in);
  EXPECT_TRUE(h.pred(0) == 0 || h.pred(0) == kFullMask);
  return h.pred(0) != 0;
}

struct CmpCase {
  CmpOp cmp;
  Type type;
  uint64_t a, b;
  bool want;
};

void PrintTo(const CmpCase& c, std::ostream* os) {
  *os << "cmp " << static_cast<int>(c.cmp) << " type " << static_cast<int>(c.type) << std::hex
      << " a 0x" << c.a << " b 0x" << c.b;
}

class SetpTable : public ::testing::TestWithParam<CmpCase> {};
TEST_P(SetpTable, Compares) {
  const CmpCase& c = GetParam();
  EXPECT_EQ(setpUniform(c.cmp, c.type, c.a, c.b), c.want)
      << "cmp " << static_cast<int>(c.cmp) << " type " << static_cast<int>(c.type) << std::hex
      << " a 0x" << c.a << " b 0x" << c.b;
}

const CmpCase kCmp[] = {
    {CmpOp::Lt, Type::S32, 0xFFFFFFFFu, 1, true},   // -1 < 1 signed
    {CmpOp::Lt, Type::U32, 0xFFFFFFFFu, 1, false},  // unsigned
    {CmpOp::Lo, Type::U32, 1, 0xFFFFFFFFu, true},
    {CmpOp::Lo, Type::S32, 0xFFFFFFFFu, 1, false},  // lo compares unsigned on any type
    {CmpOp::Ls, Type::U32, 5, 5, true},
    {CmpOp::Hi, Type::U32, 0x80000000u, 0x7FFFFFFFu, true},
    {CmpOp::Hs, Type::U64, 0, 0, true},
    {CmpOp::Hs, Type::U64, 0, 1, false},
    {CmpOp::Le, Type::S32, 0x80000000u, 0x7FFFFFFFu, true},
    {CmpOp::Gt, Type::S32, 0x80000000u, 0x7FFFFFFFu, false},
    {CmpOp::Ge, Type::S64, 0xFFFFFFFFFFFFFFFFull, 0xFFFFFFFFFFFFFFFFull, true},
    {CmpOp::Gt, Type::S64, 0, 0x8000000000000000ull, true},
    {CmpOp::Gt, Type::U64, 0, 0x8000000000000000ull, false},
    {CmpOp::Lt, Type::S16, 0x8000, 0x7FFF, true},
    {CmpOp::Lt, Type::U16, 0x8000, 0x7FFF, false},
    {CmpOp::Eq, Type::B32, 0x1234, 0x1234, true},
    {CmpOp::Ne, Type::B32, 0x1234, 0x1234, false},
    {CmpOp::Eq, Type::B64, 0x100000000ull, 0, false},
    {CmpOp::Ne, Type::B16, 1, 2, true},
    {CmpOp::Eq, Type::S32, 0xFFFFFFFFu, 0xFFFFFFFFu, true},
};
INSTANTIATE_TEST_SUITE_P(Integer, SetpTable, ::testing::ValuesIn(kCmp));

TEST(Setp, PerLaneValuesAndTwoDestinations) {
  AluHarness h;
  for (unsigned l = 0; l < kWarpSize; ++l) {
    h.setLane(1, l, l);
    h.setLane(2, l, 10);
  }
  h.setPred(0, 0x5555AAAAu);
  h.setPred(1, 0x5555AAAAu);
  ir::Instr in = AluHarness::make(Op::Setp, Type::S32, {AluHarness::P(0), AluHarness::P(1)},
                                  {AluHarness::R(1), AluHarness::R(2)});
  in.cmp = CmpOp::Lt;
  h.run(in, 0x0000FFFFu);  // lanes 16..31 keep their old predicate bits
  EXPECT_EQ(h.pred(0), 0x55550000u | 0x03FFu);
  EXPECT_EQ(h.pred(1), 0x55550000u | 0xFC00u);
}

struct CombineCase {
  BoolOp op;
  bool negate;
  uint32_t wantP, wantQ;
};

void PrintTo(const CombineCase& c, std::ostream* os) {
  *os << "bop " << static_cast<int>(c.op) << (c.negate ? " negated" : "");
}

class SetpCombine : public ::testing::TestWithParam<CombineCase> {};
TEST_P(SetpCombine, CombinesWithPredicate) {
  // cmp is true in lanes 0..15 (l < 16); c = 0x00FF00FF.
  const CombineCase& t = GetParam();
  AluHarness h;
  for (unsigned l = 0; l < kWarpSize; ++l) h.setLane(1, l, l);
  h.setAll(2, 16);
  h.setPred(3, 0x00FF00FFu);
  ir::Instr in = AluHarness::make(Op::Setp, Type::U32, {AluHarness::P(0), AluHarness::P(1)},
                                  {AluHarness::R(1), AluHarness::R(2), AluHarness::P(3, t.negate)});
  in.cmp = CmpOp::Lo;
  in.boolOp = t.op;
  h.run(in);
  EXPECT_EQ(h.pred(0), t.wantP);
  EXPECT_EQ(h.pred(1), t.wantQ);
}
// cmp = 0x0000FFFF, !cmp = 0xFFFF0000, c = 0x00FF00FF, !c = 0xFF00FF00
INSTANTIATE_TEST_SUITE_P(
    AllOps, SetpCombine,
    ::testing::Values(CombineCase{BoolOp::And, false, 0x000000FFu, 0x00FF0000u},
                      CombineCase{BoolOp::Or, false, 0x00FFFFFFu, 0xFFFF00FFu},
                      CombineCase{BoolOp::Xor, false, 0x00FFFF00u, 0xFF0000FFu},
                      CombineCase{BoolOp::And, true, 0x0000FF00u, 0xFF000000u},
                      CombineCase{BoolOp::Or, true, 0xFF00FFFFu, 0xFFFFFF00u},
                      CombineCase{BoolOp::Xor, true, 0xFF0000FFu, 0x00FFFF00u}));

TEST(Setp, SinkDestinationIsSkipped) {
  AluHarness h;
  h.setAll(1, 1);
  h.setAll(2, 2);
  ir::Operand sink;
  sink.kind = ir::OperandKind::Sink;
  h.setPred(1, 0);
  ir::Instr in = AluHarness::make(Op::Setp, Type::U32, {sink, AluHarness::P(1)},
                                  {AluHarness::R(1), AluHarness::R(2)});
  in.cmp = CmpOp::Eq;
  h.run(in);
  EXPECT_EQ(h.pred(1), kFullMask);
}

TEST(Setp, FloatComparisonTypeIsNotClaimed) {
  ir::Instr in = AluHarness::make(Op::Setp, Type::F32, {AluHarness::P(0)},
                                  {AluHarness::R(1), AluHarness::R(2)});
  in.cmp = CmpOp::Lt;
  std::string err = "x";
  EXPECT_EQ(bindIntAlu(in, &err), nullptr);
  EXPECT_EQ(err, "");
}

TEST(Setp, RejectsFloatOnlyComparisonOnIntegers) {
  AluHarness h;
  ir::Instr in = AluHarness::make(Op::Setp, Type::S32, {AluHarness::P(0)},
                                  {AluHarness::R(1), AluHarness::R(2)});
  in.cmp = CmpOp::Nan;
  std::string err;
  EXPECT_EQ(bindIntAlu(in, &err), nullptr);
  EXPECT_NE(err, "");
}

// ---- set ------------------------------------------------------------------------------------

uint64_t setUniform(Type dst, Type cmpType, CmpOp cmp, uint64_t a, uint64_t b) {
  OpOptions o;
  o.type2 = cmpType;
  AluHarness h;
  unsigned w = ir::bits(cmpType);
  h.setAll(1, a);
  h.setAll(2, b);
  h.setAll(0, 0x5555);
  ir::Instr in = AluHarness::make(Op::Set, dst, {AluHarness::R(0)},
                                  {AluHarness::R(1, w), AluHarness::R(2, w)});
  in.cmp = cmp;
  in.type2 = cmpType;
  h.run(in);
  return h.get(0, 5);
}

TEST(Set, IntegerAndFloatDestinations) {
  EXPECT_EQ(setUniform(Type::U32, Type::S32, CmpOp::Lt, 0xFFFFFFFFu, 0), 0xFFFFFFFFu);
  EXPECT_EQ(setUniform(Type::S32, Type::S32, CmpOp::Gt, 0xFFFFFFFFu, 0), 0u);
  EXPECT_EQ(setUniform(Type::F32, Type::U64, CmpOp::Hi, 2, 1), 0x3F800000u);
  EXPECT_EQ(setUniform(Type::F32, Type::U64, CmpOp::Hi, 1, 2), 0u);
  EXPECT_EQ(setUniform(Type::U32, Type::B16, CmpOp::Eq, 7, 7), 0xFFFFFFFFu);
}

TEST(Set, CombinesWithPredicate) {
  AluHarness h;
  h.setAll(1, 1);
  h.setAll(2, 1);
  h.setPred(0, 0x0000FFFFu);
  ir::Instr in = AluHarness::make(Op::Set, Type::U32, {AluHarness::R(0)},
                                  {AluHarness::R(1), AluHarness::R(2), AluHarness::P(0, true)});
  in.cmp = CmpOp::Eq;
  in.type2 = Type::U32;
  in.boolOp = BoolOp::And;
  h.run(in);
  EXPECT_EQ(h.get(0, 3), 0u);
  EXPECT_EQ(h.get(0, 20), 0xFFFFFFFFu);
}

// ---- selp -----------------------------------------------------------------------------------

TEST(Selp, SelectsBitsForEveryType) {
  struct { Type t; uint64_t a, b; unsigned w; } cases[] = {
      {Type::U32, 1, 2, 32},
      {Type::S64, 0xFFFFFFFFFFFFFFFFull, 5, 64},
      {Type::F32, 0x3F800000u, 0xBF800000u, 32},
      {Type::F64, 0x3FF0000000000000ull, 0x7FF8000000000000ull, 64},
      {Type::F16, 0x3C00, 0xFC00, 16},
      {Type::B16, 0xFFFF, 0, 16},
  };
  for (const auto& c : cases) {
    AluHarness h;
    h.setAll(1, c.a);
    h.setAll(2, c.b);
    h.setPred(2, 0x0F0F0F0Fu);
    ir::Instr in = AluHarness::make(Op::Selp, c.t, {AluHarness::R(0, c.w)},
                                    {AluHarness::R(1, c.w), AluHarness::R(2, c.w), AluHarness::P(2)});
    h.run(in);
    for (unsigned l = 0; l < kWarpSize; ++l) {
      EXPECT_EQ(h.get(0, l), (0x0F0F0F0Fu >> l) & 1u ? c.a : c.b) << "type " << int(c.t) << " lane " << l;
    }
    in.ops[3] = AluHarness::P(2, true);  // !p swaps
    h.run(in);
    EXPECT_EQ(h.get(0, 0), c.b);
    EXPECT_EQ(h.get(0, 4), c.a);
  }
}

TEST(Selp, ImmediateSourcesAndMask) {
  AluHarness h;
  h.setPred(1, kFullMask);
  h.setAll(0, 99);
  ir::Instr in = AluHarness::make(Op::Selp, Type::S32, {AluHarness::R(0)},
                                  {h.Imm(0xFFFFFFFFu), h.Imm(0), AluHarness::P(1)});
  h.run(in, 0x1u);
  EXPECT_EQ(h.get(0, 0), 0xFFFFFFFFu);
  EXPECT_EQ(h.get(0, 1), 99u);
}

// ---- slct -----------------------------------------------------------------------------------

uint64_t slct(Type dst, Type cmpType, uint64_t c, uint32_t flags = 0) {
  AluHarness h;
  unsigned w = ir::bits(dst);
  h.setAll(1, 0xAAAA);
  h.setAll(2, 0xBBBB);
  h.setAll(3, c);
  ir::Instr in = AluHarness::make(Op::Slct, dst, {AluHarness::R(0, w)},
                                  {AluHarness::R(1, w), AluHarness::R(2, w), AluHarness::R(3)});
  in.type2 = cmpType;
  in.flags = flags;
  h.run(in);
  return h.get(0, 9);
}

TEST(Slct, S32Comparison) {
  EXPECT_EQ(slct(Type::U32, Type::S32, 0), 0xAAAAu);
  EXPECT_EQ(slct(Type::U32, Type::S32, 5), 0xAAAAu);
  EXPECT_EQ(slct(Type::U32, Type::S32, 0xFFFFFFFFu), 0xBBBBu);
  EXPECT_EQ(slct(Type::U64, Type::S32, 0x80000000u), 0xBBBBu);
  EXPECT_EQ(slct(Type::B16, Type::S32, 0x7FFFFFFFu), 0xAAAAu);
}

TEST(Slct, F32Comparison) {
  EXPECT_EQ(slct(Type::F32, Type::F32, 0x3F800000u), 0xAAAAu);  // 1.0
  EXPECT_EQ(slct(Type::F32, Type::F32, 0x00000000u), 0xAAAAu);  // +0
  EXPECT_EQ(slct(Type::F32, Type::F32, 0x80000000u), 0xAAAAu);  // -0 counts as >= 0
  EXPECT_EQ(slct(Type::F32, Type::F32, 0xBF800000u), 0xBBBBu);  // -1.0
  EXPECT_EQ(slct(Type::F32, Type::F32, 0xFF800000u), 0xBBBBu);  // -inf
  EXPECT_EQ(slct(Type::F32, Type::F32, 0x7F800000u), 0xAAAAu);  // +inf
  EXPECT_EQ(slct(Type::F32, Type::F32, 0x7FC00000u), 0xBBBBu);  // NaN selects b
  EXPECT_EQ(slct(Type::F32, Type::F32, 0xFFC00000u), 0xBBBBu);  // negative NaN
  EXPECT_EQ(slct(Type::F64, Type::F32, 0x80000001u), 0xBBBBu);  // negative subnormal
  EXPECT_EQ(slct(Type::F64, Type::F32, 0x80000001u, ir::kFtz), 0xAAAAu);  // flushed to -0
}

TEST(Slct, RejectsOtherComparisonTypes) {
  EXPECT_NE(bindError(Op::Slct, Type::U32, 3, OpOptions{0, ir::MulMode::None, Type::U32}), "");
}

}  // namespace
}  // namespace warpsim::func::testing
