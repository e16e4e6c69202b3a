// Integer arithmetic executors: add sub (.sat) mul mad (.lo .hi .wide .sat) mul24 mad24 sad div
// rem abs neg min max dp4a dp2a, with exact values at the edges of every width.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "func/alu/int_test_support.h"

namespace warpsim::func::testing {
namespace {

using ir::MulMode;
using ir::Op;
using ir::Type;

struct ArithCase {
  const char* name;
  Op op;
  Type type;
  std::vector<uint64_t> srcs;
  uint64_t want;
  OpOptions opts = {};
};

constexpr uint64_t kI32Min = 0x80000000u;
constexpr uint64_t kI32Max = 0x7FFFFFFFu;
constexpr uint64_t kI64Min = 0x8000000000000000ull;

OpOptions mode(MulMode m, uint32_t flags = 0, unsigned dstBits = 0) {
  OpOptions o;
  o.mode = m;
  o.flags = flags;
  o.dstBits = dstBits;
  return o;
}
OpOptions flags(uint32_t f) {
  OpOptions o;
  o.flags = f;
  return o;
}
OpOptions types2(Type t2, MulMode m = MulMode::None) {
  OpOptions o;
  o.type2 = t2;
  o.mode = m;
  return o;
}

void PrintTo(const ArithCase& c, std::ostream* os) { *os << c.name; }

class ArithTable : public ::testing::TestWithParam<ArithCase> {};

TEST_P(ArithTable, ExactResult) {
  const ArithCase& c = GetParam();
  uint64_t got;
  switch (c.srcs.size()) {
    case 1: got = evalUniform(c.op, c.type, {c.srcs[0]}, c.opts); break;
    case 2: got = evalUniform(c.op, c.type, {c.srcs[0], c.srcs[1]}, c.opts); break;
    default: got = evalUniform(c.op, c.type, {c.srcs[0], c.srcs[1], c.srcs[2]}, c.opts); break;
  }
  EXPECT_EQ(got, c.want) << c.name << std::hex << " got 0x" << got << " want 0x" << c.want;
}

const ArithCase kAddSub[] = {
    {"add.u32 wraps", Op::Add, Type::U32, {kU32Max, 1}, 0},
    {"add.s32 overflows to min", Op::Add, Type::S32, {kI32Max, 1}, kI32Min},
    {"add.u16 wraps", Op::Add, Type::U16, {0xFFFF, 2}, 1},
    {"add.s16 negative stays 16-bit", Op::Add, Type::S16, {0xFFFF, 0xFFFF}, 0xFFFE},
    {"add.s64 overflows", Op::Add, Type::S64, {0x7FFFFFFFFFFFFFFFull, 1}, kI64Min},
    {"add.u64", Op::Add, Type::U64, {0x00000001FFFFFFFFull, 1}, 0x0000000200000000ull},
    {"sub.u32 borrows", Op::Sub, Type::U32, {0, 1}, kU32Max},
    {"sub.s16 min - 1 wraps", Op::Sub, Type::S16, {0x8000, 1}, 0x7FFF},
    {"sub.s64", Op::Sub, Type::S64, {5, 7}, kU64Max - 1},
    {"add.sat.s32 clamps high", Op::Add, Type::S32, {kI32Max, 1}, kI32Max, flags(ir::kSat)},
    {"add.sat.s32 clamps low", Op::Add, Type::S32, {kI32Min, kU32Max}, kI32Min, flags(ir::kSat)},
    {"add.sat.s32 in range", Op::Add, Type::S32, {5, 0xFFFFFFFD}, 2, flags(ir::kSat)},
    {"sub.sat.s32 clamps low", Op::Sub, Type::S32, {kI32Min, 1}, kI32Min, flags(ir::kSat)},
    {"sub.sat.s32 clamps high", Op::Sub, Type::S32, {kI32Max, kU32Max}, kI32Max, flags(ir::kSat)},
    {"sub.sat.s32 min - min", Op::Sub, Type::S32, {kI32Min, kI32Min}, 0, flags(ir::kSat)},
};
INSTANTIATE_TEST_SUITE_P(AddSub, ArithTable, ::testing::ValuesIn(kAddSub));

const ArithCase kMul[] = {
    {"mul.lo.u32 max*max", Op::Mul, Type::U32, {kU32Max, kU32Max}, 1, mode(MulMode::Lo)},
    {"mul.hi.u32 max*max", Op::Mul, Type::U32, {kU32Max, kU32Max}, 0xFFFFFFFE, mode(MulMode::Hi)},
    {"mul.hi.s32 -1*-1", Op::Mul, Type::S32, {kU32Max, kU32Max}, 0, mode(MulMode::Hi)},
    {"mul.hi.s32 min*min", Op::Mul, Type::S32, {kI32Min, kI32Min}, 0x40000000, mode(MulMode::Hi)},
    {"mul.hi.s32 min*max", Op::Mul, Type::S32, {kI32Min, kI32Max}, 0xC0000000, mode(MulMode::Hi)},
    {"mul.lo.s32 min*-1", Op::Mul, Type::S32, {kI32Min, kU32Max}, kI32Min, mode(MulMode::Lo)},
    {"mul.lo.u16 max*max (no int promotion overflow)", Op::Mul, Type::U16, {0xFFFF, 0xFFFF}, 1,
     mode(MulMode::Lo)},
    {"mul.hi.u16 max*max", Op::Mul, Type::U16, {0xFFFF, 0xFFFF}, 0xFFFE, mode(MulMode::Hi)},
    {"mul.hi.s16 min*min", Op::Mul, Type::S16, {0x8000, 0x8000}, 0x4000, mode(MulMode::Hi)},
    {"mul.hi.s16 -1*5", Op::Mul, Type::S16, {0xFFFF, 5}, 0xFFFF, mode(MulMode::Hi)},
    {"mul.lo.u64 wraps", Op::Mul, Type::U64, {kU64Max, 3}, kU64Max - 2, mode(MulMode::Lo)},
    {"mul.hi.u64 max*max", Op::Mul, Type::U64, {kU64Max, kU64Max}, kU64Max - 1, mode(MulMode::Hi)},
    {"mul.hi.s64 min*min", Op::Mul, Type::S64, {kI64Min, kI64Min}, 0x4000000000000000ull,
     mode(MulMode::Hi)},
    {"mul.hi.s64 -1*5", Op::Mul, Type::S64, {kU64Max, 5}, kU64Max, mode(MulMode::Hi)},
    {"mul.lo.s64 min*-1", Op::Mul, Type::S64, {kI64Min, kU64Max}, kI64Min, mode(MulMode::Lo)},
    {"mul.wide.s32 -2*3", Op::Mul, Type::S32, {0xFFFFFFFE, 3}, 0xFFFFFFFFFFFFFFFAull,
     mode(MulMode::Wide, 0, 64)},
    {"mul.wide.u32 max*max", Op::Mul, Type::U32, {kU32Max, kU32Max}, 0xFFFFFFFE00000001ull,
     mode(MulMode::Wide, 0, 64)},
    {"mul.wide.s32 min*min", Op::Mul, Type::S32, {kI32Min, kI32Min}, 0x4000000000000000ull,
     mode(MulMode::Wide, 0, 64)},
    {"mul.wide.s16 min*min", Op::Mul, Type::S16, {0x8000, 0x8000}, 0x40000000,
     mode(MulMode::Wide, 0, 32)},
    {"mul.wide.s16 -1*1", Op::Mul, Type::S16, {0xFFFF, 1}, 0xFFFFFFFF, mode(MulMode::Wide, 0, 32)},
    {"mul.wide.u16 max*max", Op::Mul, Type::U16, {0xFFFF, 0xFFFF}, 0xFFFE0001,
     mode(MulMode::Wide, 0, 32)},
    {"mad.lo.s32", Op::Mad, Type::S32, {3, 0xFFFFFFFC, 20}, 8, mode(MulMode::Lo)},
    {"mad.lo.u16 wraps", Op::Mad, Type::U16, {0xFFFF, 0xFFFF, 0xFFFF}, 0, mode(MulMode::Lo)},
    {"mad.hi.u32", Op::Mad, Type::U32, {kU32Max, kU32Max, 1}, kU32Max, mode(MulMode::Hi)},
    {"mad.hi.s64", Op::Mad, Type::S64, {kI64Min, kI64Min, 1}, 0x4000000000000001ull,
     mode(MulMode::Hi)},
    {"mad.wide.u32", Op::Mad, Type::U32, {kU32Max, kU32Max, 0xFFFFFFFF}, 0xFFFFFFFF00000000ull,
     mode(MulMode::Wide, 0, 64)},
    {"mad.wide.u32 wraps at 64 bits", Op::Mad, Type::U32, {kU32Max, kU32Max, 0x1FFFFFFFFull}, 0,
     mode(MulMode::Wide, 0, 64)},
    {"mad.wide.s32", Op::Mad, Type::S32, {kU32Max, 1, 0}, kU64Max, mode(MulMode::Wide, 0, 64)},
    {"mad.wide.s16", Op::Mad, Type::S16, {0xFFFF, 2, 5}, 3, mode(MulMode::Wide, 0, 32)},
    {"mad.hi.sat.s32 clamps high", Op::Mad, Type::S32, {kI32Max, kI32Max, kI32Max}, kI32Max,
     mode(MulMode::Hi, ir::kSat)},
    {"mad.hi.sat.s32 clamps low", Op::Mad, Type::S32, {kI32Min, kI32Max, kI32Min}, kI32Min,
     mode(MulMode::Hi, ir::kSat)},
    {"mad.hi.sat.s32 in range", Op::Mad, Type::S32, {0x10000, 0x10000, 5}, 6,
     mode(MulMode::Hi, ir::kSat)},
    {"mul24.lo.u32 ignores high byte", Op::Mul24, Type::U32, {0xABFFFFFF, 0x00FFFFFF}, 0xFE000001,
     mode(MulMode::Lo)},
    {"mul24.hi.u32 bits 47..16", Op::Mul24, Type::U32, {0x00FFFFFF, 0x00FFFFFF}, 0xFFFFFE00,
     mode(MulMode::Hi)},
    {"mul24.lo.s32 sign of bit 23", Op::Mul24, Type::S32, {0x00FFFFFF, 5}, 0xFFFFFFFB,
     mode(MulMode::Lo)},
    {"mul24.hi.s32 negative", Op::Mul24, Type::S32, {0x00FFFFFF, 5}, 0xFFFFFFFF, mode(MulMode::Hi)},
    {"mad24.lo.u32", Op::Mad24, Type::U32, {0x1000, 0x1000, 1}, 0x1000001, mode(MulMode::Lo)},
    {"mad24.hi.s32", Op::Mad24, Type::S32, {0x7FFFFF, 0x7FFFFF, 1}, 0x3FFFFF01, mode(MulMode::Hi)},
    {"mad24.hi.sat.s32 clamps", Op::Mad24, Type::S32, {0x7FFFFF, 0x7FFFFF, kI32Max}, kI32Max,
     mode(MulMode::Hi, ir::kSat)},
};
INSTANTIATE_TEST_SUITE_P(MulMad, ArithTable, ::testing::ValuesIn(kMul));

// Division by zero follows the hardware convention documented in int_divrem.cpp.
const ArithCase kDivRem[] = {
    {"div.u32", Op::Div, Type::U32, {7, 2}, 3},
    {"div.u32 by zero is all ones", Op::Div, Type::U32, {7, 0}, kU32Max},
    {"div.u16 by zero is all ones", Op::Div, Type::U16, {7, 0}, 0xFFFF},
    {"div.u64 by zero is all ones", Op::Div, Type::U64, {7, 0}, kU64Max},
    {"div.s32 truncates toward zero", Op::Div, Type::S32, {0xFFFFFFF9, 2}, 0xFFFFFFFD},
    {"div.s32 positive by zero is -1", Op::Div, Type::S32, {5, 0}, kU32Max},
    {"div.s32 zero by zero is -1", Op::Div, Type::S32, {0, 0}, kU32Max},
    {"div.s32 negative by zero is 1", Op::Div, Type::S32, {0xFFFFFFFB, 0}, 1},
    {"div.s32 min / -1 is min", Op::Div, Type::S32, {kI32Min, kU32Max}, kI32Min},
    {"div.s16 min / -1 is min", Op::Div, Type::S16, {0x8000, 0xFFFF}, 0x8000},
    {"div.s64 min / -1 is min", Op::Div, Type::S64, {kI64Min, kU64Max}, kI64Min},
    {"div.s64 negative by zero is 1", Op::Div, Type::S64, {kI64Min, 0}, 1},
    {"div.u64 large", Op::Div, Type::U64, {kU64Max, 0x100000000ull}, 0xFFFFFFFF},
    {"rem.u32", Op::Rem, Type::U32, {7, 3}, 1},
    {"rem.u32 by zero is the dividend", Op::Rem, Type::U32, {7, 0}, 7},
    {"rem.s32 takes dividend sign", Op::Rem, Type::S32, {0xFFFFFFF9, 2}, kU32Max},
    {"rem.s32 positive by negative", Op::Rem, Type::S32, {7, 0xFFFFFFFE}, 1},
    {"rem.s32 min % -1 is 0", Op::Rem, Type::S32, {kI32Min, kU32Max}, 0},
    {"rem.s64 min % -1 is 0", Op::Rem, Type::S64, {kI64Min, kU64Max}, 0},
    {"rem.s16 by zero is the dividend", Op::Rem, Type::S16, {0xFFFB, 0}, 0xFFFB},
    {"rem.u64 by zero is the dividend", Op::Rem, Type::U64, {kU64Max, 0}, kU64Max},
};
INSTANTIATE_TEST_SUITE_P(DivRem, ArithTable, ::testing::ValuesIn(kDivRem));

OpOptions relu() { return flags(ir::kRelu); }

const ArithCase kSimple[] = {
    {"abs.s32", Op::Abs, Type::S32, {0xFFFFFFFB}, 5},
    {"abs.s32 min is min", Op::Abs, Type::S32, {kI32Min}, kI32Min},
    {"abs.s16", Op::Abs, Type::S16, {0xFFFF}, 1},
    {"abs.s64 min is min", Op::Abs, Type::S64, {kI64Min}, kI64Min},
    {"abs.s64 positive", Op::Abs, Type::S64, {12}, 12},
    {"neg.s32", Op::Neg, Type::S32, {5}, 0xFFFFFFFB},
    {"neg.s32 min is min", Op::Neg, Type::S32, {kI32Min}, kI32Min},
    {"neg.s16", Op::Neg, Type::S16, {1}, 0xFFFF},
    {"neg.s64", Op::Neg, Type::S64, {1}, kU64Max},
    {"min.s32 signed", Op::Min, Type::S32, {kU32Max, 1}, kU32Max},
    {"min.u32 unsigned", Op::Min, Type::U32, {kU32Max, 1}, 1},
    {"max.s16", Op::Max, Type::S16, {0x8000, 0x7FFF}, 0x7FFF},
    {"max.u16", Op::Max, Type::U16, {0x8000, 0x7FFF}, 0x8000},
    {"max.s64", Op::Max, Type::S64, {kI64Min, 0}, 0},
    {"min.u64", Op::Min, Type::U64, {kU64Max, kI64Min}, kI64Min},
    {"max.relu.s32 negative gives 0", Op::Max, Type::S32, {0xFFFFFFFB, 0xFFFFFFFD}, 0, relu()},
    {"max.relu.s32 positive", Op::Max, Type::S32, {7, 0xFFFFFFFD}, 7, relu()},
    {"min.relu.s32", Op::Min, Type::S32, {0xFFFFFFFB, 3}, 0, relu()},
    {"sad.u32", Op::Sad, Type::U32, {3, 10, 100}, 107},
    {"sad.s32", Op::Sad, Type::S32, {0xFFFFFFFB, 3, 1}, 9},
    {"sad.u32 wraps", Op::Sad, Type::U32, {0, kU32Max, 1}, 0},
    {"sad.s32 extreme distance", Op::Sad, Type::S32, {kI32Min, kI32Max, 0}, kU32Max},
    {"sad.u16", Op::Sad, Type::U16, {0xFFFF, 1, 2}, 0x0000},
    {"sad.s64", Op::Sad, Type::S64, {kU64Max, 1, 0}, 2},
};
INSTANTIATE_TEST_SUITE_P(Simple, ArithTable, ::testing::ValuesIn(kSimple));

const ArithCase kDot[] = {
    {"dp4a.u32.u32", Op::Dp4a, Type::U32, {0x01020304, 0x01010101, 10}, 20, types2(Type::U32)},
    {"dp4a.s32.s32", Op::Dp4a, Type::S32, {kU32Max, 0x02020202, 0}, 0xFFFFFFF8, types2(Type::S32)},
    {"dp4a.s32.u32", Op::Dp4a, Type::S32, {kU32Max, 0xFF000000, 0}, 0xFFFFFF01, types2(Type::U32)},
    {"dp4a.u32.s32", Op::Dp4a, Type::U32, {0x000000FF, 0x000000FF, 1}, 0xFFFFFF02,
     types2(Type::S32)},
    {"dp4a.u32.u32 wraps", Op::Dp4a, Type::U32, {0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF},
     (4 * 255 * 255 - 1) & 0xFFFFFFFFu, types2(Type::U32)},
    {"dp2a.lo.u32.u32", Op::Dp2a, Type::U32, {0x00020003, 0x04030201, 0}, 7,
     types2(Type::U32, MulMode::Lo)},
    {"dp2a.hi.u32.u32", Op::Dp2a, Type::U32, {0x00020003, 0x04030201, 0}, 17,
     types2(Type::U32, MulMode::Hi)},
    {"dp2a.lo.s32.s32", Op::Dp2a, Type::S32, {0xFFFF0001, 0x000002FF, 0}, 0xFFFFFFFD,
     types2(Type::S32, MulMode::Lo)},
    {"dp2a.hi.u32.s32", Op::Dp2a, Type::U32, {0x00010001, 0xFF010000, 5}, 5,
     types2(Type::S32, MulMode::Hi)},
};
INSTANTIATE_TEST_SUITE_P(Dot, ArithTable, ::testing::ValuesIn(kDot));

// ---- bind errors and family routing ---------------------------------------------------------

TEST(IntArithBind, RejectsInvalidVariants) {
  EXPECT_NE(bindError(Op::Add, Type::U32, 2, flags(ir::kSat)), "");
  EXPECT_NE(bindError(Op::Mul, Type::U64, 2, mode(MulMode::Wide)), "");
  EXPECT_NE(bindError(Op::Mad, Type::U32, 3, mode(MulMode::Lo, ir::kSat)), "");
  EXPECT_NE(bindError(Op::Add, Type::U16, 2, flags(ir::kSetsCC)), "");
  EXPECT_NE(bindError(Op::Abs, Type::U32, 1), "");
  EXPECT_NE(bindError(Op::Max, Type::U32, 2, relu()), "");
  EXPECT_NE(bindError(Op::Add, Type::U32, 1), "");  // wrong operand count
  EXPECT_NE(bindError(Op::Dp4a, Type::U16, 3), "");
  EXPECT_NE(bindError(Op::Mul24, Type::U64, 2), "");
}

TEST(IntArithBind, ErrorNamesTheInstruction) {
  std::string err = bindError(Op::Add, Type::U32, 2, flags(ir::kSat));
  EXPECT_NE(err.find("add.u32"), std::string::npos) << err;
}

TEST(IntArithBind, FloatTypedSharedOpsBelongToTheFloatFamily) {
  AluHarness h;
  for (Op op : {Op::Add, Op::Sub, Op::Mul, Op::Mad, Op::Div, Op::Abs, Op::Neg, Op::Min, Op::Max}) {
    ir::Instr in = AluHarness::make(op, Type::F32, {AluHarness::R(0)},
                                    {AluHarness::R(1), AluHarness::R(2)});
    std::string err = "unchanged";
    EXPECT_EQ(bindIntAlu(in, &err), nullptr) << ir::opName(op);
    EXPECT_EQ(err, "") << ir::opName(op);
  }
}

TEST(IntArithBind, OtherFamiliesOpsAreNotClaimed) {
  for (Op op : {Op::Cvt, Op::Ld, Op::St, Op::Bra, Op::Fma, Op::Shfl}) {
    ir::Instr in = AluHarness::make(op, Type::U32, {AluHarness::R(0)}, {AluHarness::R(1)});
    std::string err;
    EXPECT_EQ(bindIntAlu(in, &err), nullptr);
    EXPECT_EQ(err, "");
  }
}

// ---- immediates, masks and per-lane values --------------------------------------------------

TEST(IntArith, ImmediateSourceIsReadFromItsConstantRegister) {
  AluHarness h;
  h.setAll(1, 40);
  ir::Instr in = AluHarness::make(Op::Add, Type::S32, {AluHarness::R(0)}, {AluHarness::R(1), h.Imm(2)});
  h.run(in);
  for (unsigned l = 0; l < kWarpSize; ++l) EXPECT_EQ(h.get(0, l), 42u);
}

TEST(IntArith, LanesOutsideMaskAreUntouched) {
  AluHarness h;
  for (unsigned l = 0; l < kWarpSize; ++l) {
    h.setLane(0, l, 0x1234);
    h.setLane(1, l, l);
    h.setLane(2, l, 100);
  }
  ir::Instr in = AluHarness::make(Op::Sub, Type::U32, {AluHarness::R(0)}, {AluHarness::R(1), AluHarness::R(2)});
  const uint32_t mask = 0xA5A5000Fu;
  h.run(in, mask);
  for (unsigned l = 0; l < kWarpSize; ++l) {
    uint64_t want = (mask >> l) & 1u ? static_cast<uint32_t>(l - 100u) : 0x1234u;
    EXPECT_EQ(h.get(0, l), want) << "lane " << l;
  }
}

TEST(IntArith, PerLaneValuesMatchReference) {
  AluHarness h;
  uint64_t x = 0x9E3779B97F4A7C15ull;
  auto next = [&] { x ^= x << 13; x ^= x >> 7; x ^= x << 17; return x; };
  std::vector<uint64_t> a(kWarpSize), b(kWarpSize);
  for (unsigned l = 0; l < kWarpSize; ++l) {
    a[l] = next();
    b[l] = l == 3 ? 0 : next() >> (l % 40);  // include a zero divisor and small values
    h.setLane(1, l, a[l]);
    h.setLane(2, l, b[l]);
  }
  auto run = [&](Op op, Type t, MulMode m, unsigned dstBits) {
    ir::Instr in = AluHarness::make(op, t, {AluHarness::R(0, dstBits)},
                                    {AluHarness::R(1, 64), AluHarness::R(2, 64)});
    in.mulMode = m;
    h.run(in);
  };
  run(Op::Mul, Type::S32, MulMode::Wide, 64);
  for (unsigned l = 0; l < kWarpSize; ++l) {
    int64_t want = int64_t{static_cast<int32_t>(a[l])} * static_cast<int32_t>(b[l]);
    EXPECT_EQ(h.get(0, l), static_cast<uint64_t>(want)) << "lane " << l;
  }
  run(Op::Div, Type::U64, MulMode::None, 64);
  for (unsigned l = 0; l < kWarpSize; ++l) {
    EXPECT_EQ(h.get(0, l), b[l] == 0 ? ~0ull : a[l] / b[l]) << "lane " << l;
  }
  run(Op::Rem, Type::S64, MulMode::None, 64);
  for (unsigned l = 0; l < kWarpSize; ++l) {
    int64_t sa = static_cast<int64_t>(a[l]), sb = static_cast<int64_t>(b[l]);
    int64_t want = sb == 0 ? sa : sb == -1 ? 0 : sa % sb;
    EXPECT_EQ(h.get(0, l), static_cast<uint64_t>(want)) << "lane " << l;
  }
  run(Op::Mul, Type::U64, MulMode::Hi, 64);
  for (unsigned l = 0; l < kWarpSize; ++l) {
    __extension__ unsigned __int128 p = static_cast<unsigned __int128>(a[l]) * b[l];
    EXPECT_EQ(h.get(0, l), static_cast<uint64_t>(p >> 64)) << "lane " << l;
  }
}

TEST(IntArith, ResultIsMaskedToDestinationWidth) {
  // add.u32 into a 64-bit register leaves zeros above bit 31.
  EXPECT_EQ(evalUniform(Op::Add, Type::U32, {kU32Max, kU32Max}, OpOptions{0, MulMode::None,
                                                                           Type::None, 0, 64, 64}),
            0xFFFFFFFEu);
  // sources wider than the type are read in their low bits only.
  EXPECT_EQ(evalUniform(Op::Add, Type::U16, {0x12345FFFFull, 1}, OpOptions{0, MulMode::None,
                                                                            Type::None, 0, 16, 64}),
            0u);
}

}  // namespace
}  // namespace warpsim::func::testing
