// Tests for cvt with floating-point destinations: int -> float, float -> float, packing forms.
#include <cmath>

#include "func/alu/float_test_support.h"

namespace warpsim::func::testing {
namespace {

using ir::Round;
using ir::Type;

TEST(CvtFloat, IntToFloatRounding) {
  const uint64_t big = 16777217;  // 2^24 + 1
  EXPECT_EQ(cvt(Type::F32, Type::S32, big, Round::Rn), f2b(16777216.0f));
  EXPECT_EQ(cvt(Type::F32, Type::S32, big, Round::Rz), f2b(16777216.0f));
  EXPECT_EQ(cvt(Type::F32, Type::S32, big, Round::Rp), f2b(16777218.0f));
  EXPECT_EQ(cvt(Type::F32, Type::S32, static_cast<uint32_t>(-16777217), Round::Rm),
            f2b(-16777218.0f));
  EXPECT_EQ(cvt(Type::F32, Type::S32, static_cast<uint32_t>(-16777217), Round::Rp),
            f2b(-16777216.0f));
  EXPECT_EQ(cvt(Type::F32, Type::U64, ~uint64_t{0}, Round::Rn), 0x5F800000u);  // 2^64
  EXPECT_EQ(cvt(Type::F32, Type::U64, ~uint64_t{0}, Round::Rz), 0x5F7FFFFFu);
  EXPECT_EQ(cvt(Type::F32, Type::S64, 0x8000000000000000ull, Round::Rn), 0xDF000000u);
  EXPECT_EQ(cvt(Type::F32, Type::U8, 0x1FF, Round::Rn), f2b(255.0f));  // low 8 bits
  EXPECT_EQ(cvt(Type::F32, Type::S8, 0x80, Round::Rn), f2b(-128.0f));
  EXPECT_EQ(cvt(Type::F32, Type::S32, 7), f2b(7.0f));  // no modifier: .rn
  const uint64_t p53 = (uint64_t{1} << 53) + 1;
  EXPECT_EQ(cvt(Type::F64, Type::S64, p53, Round::Rn), d2b(9007199254740992.0));
  EXPECT_EQ(cvt(Type::F64, Type::S64, p53, Round::Rp), d2b(9007199254740994.0));
  EXPECT_EQ(cvt(Type::F64, Type::U32, 0xFFFFFFFF, Round::Rn), d2b(4294967295.0));
  EXPECT_EQ(cvt(Type::F16, Type::S32, 65520, Round::Rn), 0x7C00u);
  EXPECT_EQ(cvt(Type::F16, Type::S32, 65520, Round::Rz), 0x7BFFu);
  EXPECT_EQ(cvt(Type::F16, Type::U32, 2049, Round::Rn), 0x6800u);
  EXPECT_EQ(cvt(Type::F16, Type::S16, 0xFFFF, Round::Rn), 0xBC00u);  // -1
  EXPECT_EQ(cvt(Type::BF16, Type::S32, 257, Round::Rn), 0x4380u);
  EXPECT_EQ(cvt(Type::BF16, Type::S32, 257, Round::Rp), 0x4381u);
  EXPECT_EQ(cvt(Type::F32, Type::S32, 5, Round::Rn, ir::kSat), f2b(1.0f));
  EXPECT_EQ(cvt(Type::F32, Type::S32, static_cast<uint32_t>(-5), Round::Rn, ir::kSat), 0u);
}

TEST(CvtFloat, NarrowingFloatConversions) {
  EXPECT_EQ(cvt(Type::F16, Type::F32, f2b(65504.0f), Round::Rn), 0x7BFFu);
  EXPECT_EQ(cvt(Type::F16, Type::F32, f2b(65520.0f), Round::Rn), 0x7C00u);
  EXPECT_EQ(cvt(Type::F16, Type::F32, f2b(65520.0f), Round::Rz), 0x7BFFu);
  EXPECT_EQ(cvt(Type::F16, Type::F32, f2b(std::ldexp(1.0f, -24)), Round::Rn), 0x0001u);
  EXPECT_EQ(cvt(Type::F16, Type::F32, f2b(1.0f + std::ldexp(1.0f, -11)), Round::Rn), 0x3C00u);
  EXPECT_EQ(cvt(Type::F16, Type::F32, f2b(1.0f + std::ldexp(1.0f, -11)), Round::Rp), 0x3C01u);
  EXPECT_EQ(cvt(Type::F16, Type::F32, f2b(-1.0f - std::ldexp(1.0f, -11)), Round::Rm), 0xBC01u);
  EXPECT_EQ(cvt(Type::F16, Type::F32, 0x7FC00001u, Round::Rn), 0x7FFFu);
  // f64 -> f16 rounds once (no double rounding through f32).
  const double v = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  EXPECT_EQ(cvt(Type::F16, Type::F64, d2b(v), Round::Rn), 0x3C01u);
  EXPECT_EQ(cvt(Type::BF16, Type::F32, f2b(1.0f + std::ldexp(1.0f, -8)), Round::Rn), 0x3F80u);
  EXPECT_EQ(cvt(Type::BF16, Type::F32, f2b(1.0f + 3 * std::ldexp(1.0f, -8)), Round::Rn), 0x3F82u);
  EXPECT_EQ(cvt(Type::BF16, Type::F32, 0x7F7FFFFFu, Round::Rz), 0x7F7Fu);
  EXPECT_EQ(cvt(Type::F32, Type::F64, d2b(1.0 / 3.0), Round::Rn), 0x3EAAAAABu);
  EXPECT_EQ(cvt(Type::F32, Type::F64, d2b(1.0 / 3.0), Round::Rz), 0x3EAAAAAAu);
  EXPECT_EQ(cvt(Type::F32, Type::F64, d2b(-1.0 / 3.0), Round::Rm), 0xBEAAAAABu);
  EXPECT_EQ(cvt(Type::F32, Type::F64, d2b(1e300), Round::Rn), f2b(INFINITY));
  EXPECT_EQ(cvt(Type::F32, Type::F64, d2b(1e300), Round::Rz), 0x7F7FFFFFu);
  EXPECT_EQ(cvt(Type::F32, Type::F64, d2b(1e-40), Round::Rn), f2b(1e-40f));  // f32 subnormal
  EXPECT_EQ(cvt(Type::F32, Type::F64, d2b(1e-40), Round::Rn, ir::kFtz), 0u);
  EXPECT_EQ(cvt(Type::F32, Type::F64, 0x7FF8000000000001ull, Round::Rn), 0x7FFFFFFFu);
  EXPECT_EQ(cvt(Type::F16, Type::BF16, 0x3F81, Round::Rn), 0x3C08u);  // 1 + 2^-7
  EXPECT_EQ(cvt(Type::BF16, Type::F16, 0x3C01, Round::Rz), 0x3F80u);
}

TEST(CvtFloat, WideningIsExact) {
  EXPECT_EQ(cvt(Type::F32, Type::F16, 0x0001u), f2b(std::ldexp(1.0f, -24)));
  EXPECT_EQ(cvt(Type::F32, Type::F16, 0xFBFFu), f2b(-65504.0f));
  EXPECT_EQ(cvt(Type::F32, Type::F16, 0xFFFF3C00u), f2b(1.0f));  // low 16 bits of the register
  EXPECT_EQ(cvt(Type::F32, Type::BF16, 0x4049u), 0x40490000u);
  EXPECT_EQ(cvt(Type::F64, Type::F32, f2b(0.1f)), d2b(static_cast<double>(0.1f)));
  EXPECT_EQ(cvt(Type::F64, Type::F32, 0x00000001u), d2b(std::ldexp(1.0, -149)));
  EXPECT_EQ(cvt(Type::F64, Type::F32, 0x00000001u, Round::None, ir::kFtz), 0u);
  EXPECT_EQ(cvt(Type::F64, Type::F16, 0x7C00u), d2b(INFINITY));
  EXPECT_EQ(cvt(Type::F64, Type::F16, 0x8000u), d2b(-0.0));
  // f16 in a wider register: zero-extended.
  EXPECT_EQ(cvt(Type::F16, Type::F32, f2b(-2.0f), Round::Rn, 0, 32), 0xC000u);
}

TEST(CvtFloat, RoundToIntegralInSameType) {
  EXPECT_EQ(cvt(Type::F32, Type::F32, f2b(2.5f), Round::Rni), f2b(2.0f));
  EXPECT_EQ(cvt(Type::F32, Type::F32, f2b(3.5f), Round::Rni), f2b(4.0f));
  EXPECT_EQ(cvt(Type::F32, Type::F32, f2b(-2.5f), Round::Rzi), f2b(-2.0f));
  EXPECT_EQ(cvt(Type::F32, Type::F32, f2b(-0.5f), Round::Rpi), f2b(-0.0f));
  EXPECT_EQ(cvt(Type::F32, Type::F32, 0x00000001u, Round::Rpi), f2b(1.0f));
  EXPECT_EQ(cvt(Type::F32, Type::F32, 0x00000001u, Round::Rpi, ir::kFtz), 0u);
  EXPECT_EQ(cvt(Type::F64, Type::F64, d2b(-2.5), Round::Rmi), d2b(-3.0));
  EXPECT_EQ(cvt(Type::F64, Type::F64, d2b(1e300), Round::Rni), d2b(1e300));
  EXPECT_EQ(cvt(Type::F16, Type::F16, 0x4100u, Round::Rpi), 0x4200u);    // 2.5 -> 3
  EXPECT_EQ(cvt(Type::BF16, Type::BF16, 0x4020u, Round::Rmi), 0x4000u);  // 2.5 -> 2
  EXPECT_EQ(cvt(Type::F32, Type::F32, 0x7FC00001u, Round::Rni), 0x7FFFFFFFu);
  EXPECT_NE(bindErr(ir::Op::Cvt, Type::F32, 1, {.round = Round::Rni, .type2 = Type::F64}), "");
}

TEST(CvtFloat, FtzSatRelu) {
  EXPECT_EQ(cvt(Type::F32, Type::F32, 0x80000001u, Round::None, ir::kFtz), 0x80000000u);
  EXPECT_EQ(cvt(Type::F32, Type::F32, 0x80000001u), 0x80000001u);
  EXPECT_EQ(cvt(Type::F32, Type::F32, f2b(1.5f), Round::None, ir::kSat), f2b(1.0f));
  EXPECT_EQ(cvt(Type::F32, Type::F32, 0x7FC00000u, Round::None, ir::kSat), 0u);
  EXPECT_EQ(cvt(Type::F64, Type::F64, d2b(-3.0), Round::None, ir::kSat), 0u);
  EXPECT_EQ(cvt(Type::F16, Type::F32, f2b(7.0f), Round::Rn, ir::kSat), 0x3C00u);
  EXPECT_EQ(cvt(Type::F16, Type::F32, f2b(-1.0f), Round::Rn, ir::kRelu), 0u);
  EXPECT_EQ(cvt(Type::F16, Type::F32, f2b(1.0f), Round::Rn, ir::kRelu), 0x3C00u);
  EXPECT_EQ(cvt(Type::F16, Type::F32, 0xFFC00000u, Round::Rn, ir::kRelu), 0x7FFFu);
  EXPECT_EQ(cvt(Type::BF16, Type::F32, f2b(-2.0f), Round::Rz, ir::kRelu), 0u);
  EXPECT_NE(bindErr(ir::Op::Cvt, Type::F32, 1,
                    {.round = Round::Rn, .flags = ir::kRelu, .type2 = Type::F64}),
            "");
  EXPECT_NE(bindErr(ir::Op::Cvt, Type::F16, 1,
                    {.round = Round::Rn, .flags = ir::kFtz, .type2 = Type::F64}),
            "");
}

TEST(CvtFloat, PackingPutsTheFirstSourceHigh) {
  const FOpt rn{.round = Round::Rn, .type2 = Type::F32, .dstBits = 32};
  EXPECT_EQ(run1(ir::Op::Cvt, Type::F16x2, {f2b(1.0f), f2b(2.0f)}, rn), 0x3C00'4000u);
  EXPECT_EQ(run1(ir::Op::Cvt, Type::BF16x2, {f2b(1.0f), f2b(-2.0f)}, rn), 0x3F80'C000u);
  const FOpt rzRelu{.round = Round::Rz, .flags = ir::kRelu, .type2 = Type::F32, .dstBits = 32};
  EXPECT_EQ(run1(ir::Op::Cvt, Type::F16x2, {f2b(-1.0f), f2b(65520.0f)}, rzRelu), 0x0000'7BFFu);
  EXPECT_NE(bindErr(ir::Op::Cvt, Type::F16x2, 1, {.round = Round::Rn, .type2 = Type::F32}), "");
  EXPECT_NE(bindErr(ir::Op::Cvt, Type::F16x2, 2, {.round = Round::Rn, .type2 = Type::F64}), "");
}

TEST(CvtFloat, EveryPairBinds) {
  const Type all[] = {Type::U8,  Type::U16, Type::U32, Type::U64,  Type::S8,  Type::S16,
                      Type::S32, Type::S64, Type::F16, Type::BF16, Type::F32, Type::F64};
  const Type floats[] = {Type::F16, Type::BF16, Type::F32, Type::F64};
  for (Type d : floats) {
    for (Type s : all) {
      for (Round r : {Round::Rn, Round::Rz, Round::Rm, Round::Rp}) {
        EXPECT_EQ(bindErr(ir::Op::Cvt, d, 1, {.round = r, .type2 = s}), "")
            << static_cast<int>(d) << " " << static_cast<int>(s);
      }
    }
  }
  std::string err;
  ir::Instr in = buildOp(ir::Op::Cvt, Type::F32, 1, {.round = Round::Rna, .type2 = Type::F64});
  EXPECT_EQ(bindFloatAlu(in, &err), nullptr);
  EXPECT_EQ(err, "cvt.rna.f32.f64: unsupported rounding modifier");
}

}  // namespace
}  // namespace warpsim::func::testing
