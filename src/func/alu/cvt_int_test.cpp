// Tests for cvt with integer destinations: int -> int and float -> int.
#include <cmath>
#include <limits>

#include "func/alu/float_test_support.h"

namespace warpsim::func::testing {
namespace {

using ir::Round;
using ir::Type;

TEST(CvtInt, ExtensionAndTruncation) {
  EXPECT_EQ(cvt(Type::U32, Type::U8, 0x1FF), 0xFFu);       // low 8 bits of the source
  EXPECT_EQ(cvt(Type::S32, Type::S8, 0x80), 0xFFFFFF80u);  // sign-extended source
  EXPECT_EQ(cvt(Type::S64, Type::S32, 0xFFFFFFFF), 0xFFFFFFFFFFFFFFFFull);
  EXPECT_EQ(cvt(Type::U64, Type::S32, 0xFFFFFFFF), 0xFFFFFFFFFFFFFFFFull);
  EXPECT_EQ(cvt(Type::U64, Type::U32, 0xFFFFFFFF), 0xFFFFFFFFull);
  EXPECT_EQ(cvt(Type::U16, Type::U32, 0x12345678), 0x5678u);
  EXPECT_EQ(cvt(Type::U32, Type::U64, 0x123456789ull), 0x23456789u);
  // Narrow signed destinations are sign-extended to the register width, zeros above it.
  EXPECT_EQ(cvt(Type::S8, Type::S32, 0x1FF, Round::None, 0, 32), 0xFFFFFFFFu);
  EXPECT_EQ(cvt(Type::S8, Type::S32, 0x17F, Round::None, 0, 32), 0x7Fu);
  EXPECT_EQ(cvt(Type::S16, Type::S32, 0x8000, Round::None, 0, 64), 0xFFFFFFFFFFFF8000ull);
  EXPECT_EQ(cvt(Type::U8, Type::S32, 0xFFFFFFFF, Round::None, 0, 32), 0xFFu);
  EXPECT_EQ(cvt(Type::S8, Type::U16, 0x80, Round::None, 0, 16), 0xFF80u);
}

TEST(CvtInt, SatClampsToTheDestinationRange) {
  const uint32_t sat = ir::kSat;
  EXPECT_EQ(cvt(Type::S8, Type::S32, 300, Round::None, sat, 32), 127u);
  EXPECT_EQ(cvt(Type::S8, Type::S32, static_cast<uint32_t>(-300), Round::None, sat, 32),
            0xFFFFFF80u);
  EXPECT_EQ(cvt(Type::U8, Type::S32, static_cast<uint32_t>(-5), Round::None, sat), 0u);
  EXPECT_EQ(cvt(Type::U8, Type::U32, 256, Round::None, sat), 255u);
  EXPECT_EQ(cvt(Type::U32, Type::S64, ~uint64_t{0}, Round::None, sat), 0u);
  EXPECT_EQ(cvt(Type::S32, Type::U32, 0xFFFFFFFF, Round::None, sat), 0x7FFFFFFFu);
  EXPECT_EQ(cvt(Type::U64, Type::S64, ~uint64_t{0}, Round::None, sat), 0u);
  EXPECT_EQ(cvt(Type::S64, Type::U64, ~uint64_t{0}, Round::None, sat), 0x7FFFFFFFFFFFFFFFull);
  EXPECT_EQ(cvt(Type::S16, Type::S64, 0x8000000000000000ull, Round::None, sat), 0x8000u);
  EXPECT_EQ(cvt(Type::U16, Type::S16, 0x1234, Round::None, sat), 0x1234u);
}

TEST(CvtInt, FloatRoundingModes) {
  struct Row {
    float x;
    int32_t rni, rzi, rmi, rpi;
  };
  const Row rows[] = {
      {2.5f, 2, 2, 2, 3},   {-2.5f, -2, -2, -3, -2}, {3.5f, 4, 3, 3, 4},
      {-0.5f, 0, 0, -1, 0}, {0.7f, 1, 0, 0, 1},      {-7.0f, -7, -7, -7, -7},
  };
  for (const Row& r : rows) {
    SCOPED_TRACE(r.x);
    auto s32 = [&](Round m) {
      return static_cast<int32_t>(cvt(Type::S32, Type::F32, f2b(r.x), m));
    };
    EXPECT_EQ(s32(Round::Rni), r.rni);
    EXPECT_EQ(s32(Round::Rzi), r.rzi);
    EXPECT_EQ(s32(Round::Rmi), r.rmi);
    EXPECT_EQ(s32(Round::Rpi), r.rpi);
    auto s64 = [&](Round m) {
      return static_cast<int64_t>(cvt(Type::S64, Type::F64, d2b(r.x), m));
    };
    EXPECT_EQ(s64(Round::Rni), r.rni);
    EXPECT_EQ(s64(Round::Rmi), r.rmi);
  }
  EXPECT_EQ(cvt(Type::S32, Type::F16, 0xC100, Round::Rni), static_cast<uint32_t>(-2));  // -2.5
  EXPECT_EQ(cvt(Type::U8, Type::BF16, 0x4040, Round::Rzi), 3u);
}

TEST(CvtInt, FloatToIntSaturatesAndHandlesNaN) {
  const Round rzi = Round::Rzi;
  EXPECT_EQ(cvt(Type::S32, Type::F32, f2b(3e9f), rzi), 0x7FFFFFFFu);
  EXPECT_EQ(cvt(Type::S32, Type::F32, f2b(-3e9f), rzi), 0x80000000u);
  EXPECT_EQ(cvt(Type::S32, Type::F32, f2b(INFINITY), rzi), 0x7FFFFFFFu);
  EXPECT_EQ(cvt(Type::U32, Type::F32, f2b(-1.0f), rzi), 0u);
  EXPECT_EQ(cvt(Type::U32, Type::F32, f2b(-0.9f), rzi), 0u);
  EXPECT_EQ(cvt(Type::U32, Type::F32, f2b(4294967040.0f), rzi), 4294967040u);
  EXPECT_EQ(cvt(Type::U32, Type::F32, f2b(4294967296.0f), rzi), 0xFFFFFFFFu);
  EXPECT_EQ(cvt(Type::U8, Type::F32, f2b(300.0f), rzi), 255u);
  EXPECT_EQ(cvt(Type::S8, Type::F32, f2b(-300.0f), rzi, 0, 32), 0xFFFFFF80u);
  EXPECT_EQ(cvt(Type::S8, Type::F32, f2b(-5.7f), rzi, 0, 16), 0xFFFBu);
  EXPECT_EQ(cvt(Type::S64, Type::F64, d2b(9.3e18), rzi), 0x7FFFFFFFFFFFFFFFull);
  EXPECT_EQ(cvt(Type::S64, Type::F64, d2b(-9.3e18), rzi), 0x8000000000000000ull);
  EXPECT_EQ(cvt(Type::U64, Type::F64, d2b(1.8e19), rzi), 18000000000000000000ull);
  EXPECT_EQ(cvt(Type::U64, Type::F64, d2b(1.9e19), rzi), ~uint64_t{0});
  EXPECT_EQ(cvt(Type::S64, Type::F32, f2b(-9.223372e18f), rzi), 0x8000000000000000ull);
  // NaN: 0, except 1 << (width - 1) for an .f64 source or a 64-bit destination.
  EXPECT_EQ(cvt(Type::S32, Type::F32, 0x7FC00000u, rzi), 0u);
  EXPECT_EQ(cvt(Type::U16, Type::F16, 0x7E00u, rzi), 0u);
  EXPECT_EQ(cvt(Type::S32, Type::F64, 0x7FF8000000000000ull, rzi), 0x80000000u);
  EXPECT_EQ(cvt(Type::U32, Type::F64, 0x7FF8000000000000ull, rzi), 0x80000000u);
  EXPECT_EQ(cvt(Type::U16, Type::F64, 0x7FF8000000000000ull, rzi), 0x8000u);
  EXPECT_EQ(cvt(Type::S64, Type::F32, 0x7FC00000u, rzi), 0x8000000000000000ull);
  EXPECT_EQ(cvt(Type::U64, Type::F32, 0x7FC00000u, rzi), 0x8000000000000000ull);
  EXPECT_EQ(cvt(Type::S8, Type::F64, 0x7FF8000000000000ull, rzi, 0, 16), 0xFF80u);
}

TEST(CvtInt, FtzOnF32Source) {
  const uint32_t sub = 0x00000001u;
  EXPECT_EQ(cvt(Type::S32, Type::F32, sub, Round::Rpi), 1u);
  EXPECT_EQ(cvt(Type::S32, Type::F32, sub, Round::Rpi, ir::kFtz), 0u);
  EXPECT_EQ(cvt(Type::S32, Type::F32, 0x80000001u, Round::Rmi), static_cast<uint32_t>(-1));
  EXPECT_EQ(cvt(Type::S32, Type::F32, 0x80000001u, Round::Rmi, ir::kFtz), 0u);
}

TEST(CvtInt, EveryPairBinds) {
  const Type ints[] = {Type::U8, Type::U16, Type::U32, Type::U64,
                       Type::S8, Type::S16, Type::S32, Type::S64};
  const Type floats[] = {Type::F16, Type::BF16, Type::F32, Type::F64};
  for (Type d : ints) {
    for (Type s : ints) {
      EXPECT_EQ(bindErr(ir::Op::Cvt, d, 1, {.type2 = s}), "");
      EXPECT_EQ(bindErr(ir::Op::Cvt, d, 1, {.flags = ir::kSat, .type2 = s}), "");
    }
    for (Type s : floats) {
      EXPECT_EQ(bindErr(ir::Op::Cvt, d, 1, {.round = Round::Rni, .type2 = s}), "");
      EXPECT_NE(bindErr(ir::Op::Cvt, d, 1, {.type2 = s}), "");  // integer rounding required
    }
  }
  EXPECT_NE(bindErr(ir::Op::Cvt, Type::S32, 1, {.round = Round::Rn, .type2 = Type::S16}), "");
  EXPECT_NE(bindErr(ir::Op::Cvt, Type::S32, 1,
                    {.round = Round::Rzi, .flags = ir::kFtz, .type2 = Type::F64}),
            "");
  EXPECT_NE(bindErr(ir::Op::Cvt, Type::S32, 2, {.round = Round::Rzi, .type2 = Type::F32}), "");
  // A special register is not a register-file source.
  ir::Instr special = buildOp(ir::Op::Cvt, Type::U32, 1, {.type2 = Type::U16});
  special.ops[1].kind = ir::OperandKind::Special;
  special.ops[1].reg = ir::kNoReg;
  std::string err;
  EXPECT_EQ(bindFloatAlu(special, &err), nullptr);
  EXPECT_EQ(err, "cvt.u32.u16: sources must be registers or immediates");
}

}  // namespace
}  // namespace warpsim::func::testing
