// Tests for f16 / f16x2 / bf16 / bf16x2 arithmetic executors.
#include <cmath>
#include <random>

#include "func/alu/float_test_support.h"
#include "func/alu/half.h"

namespace warpsim::func::testing {
namespace {

using ir::Op;
using ir::Type;

constexpr uint16_t kOne = 0x3C00;
constexpr uint16_t kTwo = 0x4000;

uint64_t h16(Op op, std::initializer_list<uint64_t> srcs, uint32_t flags = 0, Type t = Type::F16) {
  const ir::Round r = (op == Op::Fma) ? ir::Round::Rn : ir::Round::None;
  return run1(op, t, srcs, {.round = r, .flags = flags});
}

uint16_t f16Of(float f) { return fp::f32ToF16(f2b(f), fp::Rounding::NearestEven); }

TEST(FloatHalf, AddRoundsToNearestEven) {
  EXPECT_EQ(h16(Op::Add, {kOne, kOne}), kTwo);
  EXPECT_EQ(h16(Op::Add, {f16Of(2048.0f), kOne}), f16Of(2048.0f));    // 2049: tie -> 2048
  EXPECT_EQ(h16(Op::Add, {f16Of(2050.0f), kOne}), f16Of(2052.0f));    // 2051: tie -> 2052
  EXPECT_EQ(h16(Op::Add, {f16Of(65504.0f), f16Of(16.0f)}), 0x7C00u);  // 65520 -> inf
  EXPECT_EQ(h16(Op::Add, {f16Of(65504.0f), f16Of(8.0f)}), 0x7BFFu);
  EXPECT_EQ(h16(Op::Sub, {kOne, kOne}), 0u);
  EXPECT_EQ(h16(Op::Mul, {0x0001u, 0x3800u}), 0u);       // 2^-25: tie -> 0
  EXPECT_EQ(h16(Op::Mul, {0x0003u, 0x3800u}), 0x0002u);  // 1.5 units -> 2
  EXPECT_EQ(h16(Op::Mul, {f16Of(-3.0f), f16Of(0.5f)}), f16Of(-1.5f));
  EXPECT_EQ(h16(Op::Add, {0x7C00u, 0xFC00u}), 0x7FFFu);  // inf - inf: NaN
  EXPECT_EQ(h16(Op::Add, {0x7E01u, kOne}), 0x7FFFu);
}

TEST(FloatHalf, FtzSatRelu) {
  EXPECT_EQ(h16(Op::Add, {0x0001u, 0x0000u}), 0x0001u);
  EXPECT_EQ(h16(Op::Add, {0x0001u, 0x0000u}, ir::kFtz), 0x0000u);
  EXPECT_EQ(h16(Op::Add, {0x8001u, 0x8000u}, ir::kFtz), 0x8000u);
  EXPECT_EQ(h16(Op::Mul, {0x0400u, 0x3800u}, ir::kFtz), 0u);  // result subnormal -> flushed
  EXPECT_EQ(h16(Op::Add, {kOne, kOne}, ir::kSat), kOne);
  EXPECT_EQ(h16(Op::Sub, {kOne, kTwo}, ir::kSat), 0u);
  EXPECT_EQ(h16(Op::Add, {0x7C00u, 0xFC00u}, ir::kSat), 0u);
  EXPECT_EQ(h16(Op::Fma, {kOne, f16Of(-3.0f), kOne}, ir::kRelu), 0u);
  EXPECT_EQ(h16(Op::Fma, {kOne, f16Of(3.0f), kOne}, ir::kRelu), f16Of(4.0f));
  EXPECT_EQ(h16(Op::Fma, {0x7C00u, 0u, kOne}, ir::kRelu), 0x7FFFu);
  EXPECT_EQ(h16(Op::Fma, {0x3F80u, 0xC000u, 0x3F80u}, ir::kRelu, Type::BF16), 0u);  // 1*-2+1 < 0
}

TEST(FloatHalf, FmaIsSingleRounding) {
  // bf16: 3 * 87 = 261 is a tie between 260 and 262; the tiny addend decides: 262.
  const uint16_t three = 0x4040, e87 = 0x42AE, tiny = 0x0D80;  // tiny = 2^-100
  EXPECT_EQ(fp::bf16ToF32(e87), f2b(87.0f));
  EXPECT_EQ(h16(Op::Fma, {three, e87, tiny}, 0, Type::BF16), 0x4383u);
  EXPECT_EQ(h16(Op::Fma, {three, e87, 0x8D80u}, 0, Type::BF16), 0x4382u);  // minus tiny: 260
  EXPECT_EQ(h16(Op::Fma, {three, e87, 0}, 0, Type::BF16), 0x4382u);        // exact tie: even
  // f16: fused product 1 + 2^-10 + 2^-20, not rounded before the add.
  const uint16_t a = 0x3C01;                          // 1 + 2^-10
  EXPECT_EQ(h16(Op::Fma, {a, a, 0xBC00u}), 0x1800u);  // (1 + 2^-10)^2 - 1 = 2^-9 + 2^-20 -> 2^-9
  EXPECT_EQ(h16(Op::Mul, {a, a}), 0x3C02u);
}

TEST(FloatHalf, RandomOpsMatchSingleRoundingReference) {
  std::mt19937 rng(99);
  for (int iter = 0; iter < 100; ++iter) {
    std::vector<std::array<uint64_t, kWarpSize>> srcs(3);
    for (auto& s : srcs) {
      for (auto& v : s) {
        v = rng() & 0x7FFF;
        if ((v & 0x7C00) == 0x7C00) v &= 0x3FFF;  // finite only
        v |= rng() & 0x8000;
      }
    }
    const auto add = runLanes(Op::Add, Type::F16, {srcs[0], srcs[1]});
    const auto fma = runLanes(Op::Fma, Type::F16, srcs, {.round = ir::Round::Rn});
    for (unsigned l = 0; l < kWarpSize; ++l) {
      const double a = fp::toDouble<fp::kF16>(srcs[0][l]);
      const double b = fp::toDouble<fp::kF16>(srcs[1][l]);
      const double c = fp::toDouble<fp::kF16>(srcs[2][l]);
      // f16 sums are exact in binary64; a binary64 fma is inexact only where the f16 result
      // cannot change (overflow, or an addend far below half an ulp), so the reference holds.
      ASSERT_EQ(add[l], fp::fromDouble<fp::kF16>(a + b, fp::Rounding::NearestEven));
      ASSERT_EQ(fma[l], fp::fromDouble<fp::kF16>(std::fma(a, b, c), fp::Rounding::NearestEven));
    }
  }
}

TEST(FloatHalf, PairsAreIndependentLanes) {
  const uint64_t a = (uint64_t{kTwo} << 16) | kOne;         // hi 2, lo 1
  const uint64_t b = (uint64_t{f16Of(3.0f)} << 16) | kOne;  // hi 3, lo 1
  EXPECT_EQ(h16(Op::Add, {a, b}, 0, Type::F16x2), (uint64_t{f16Of(5.0f)} << 16) | kTwo);
  EXPECT_EQ(h16(Op::Mul, {a, b}, 0, Type::F16x2), (uint64_t{f16Of(6.0f)} << 16) | kOne);
  EXPECT_EQ(h16(Op::Neg, {a}, 0, Type::F16x2), 0xC000BC00u);
  EXPECT_EQ(h16(Op::Max, {a, b}, 0, Type::F16x2), (uint64_t{f16Of(3.0f)} << 16) | kOne);
  const uint64_t bfa = 0x4000'3F80u, bfb = 0x4040'3F80u;  // (2, 1) and (3, 1)
  EXPECT_EQ(h16(Op::Add, {bfa, bfb}, 0, Type::BF16x2), 0x40A0'4000u);
  EXPECT_EQ(h16(Op::Fma, {bfa, bfb, bfa}, 0, Type::BF16x2), 0x4100'4000u);  // (8, 2)
}

TEST(FloatHalf, SignAndMinMax) {
  EXPECT_EQ(h16(Op::Abs, {0xBC00u}), kOne);
  EXPECT_EQ(h16(Op::Neg, {0x0000u}), 0x8000u);
  EXPECT_EQ(h16(Op::Neg, {0x0001u}, ir::kFtz), 0x8000u);
  EXPECT_EQ(h16(Op::Abs, {0xFE00u}), 0x7FFFu);
  EXPECT_EQ(h16(Op::Min, {0x7E00u, kTwo}), kTwo);
  EXPECT_EQ(h16(Op::Min, {0x0000u, 0x8000u}), 0x8000u);
  EXPECT_EQ(h16(Op::Max, {0x8000u, 0x0000u}), 0x0000u);
  EXPECT_EQ(h16(Op::Max, {0x7E00u, 0xFE00u}), 0x7FFFu);
  EXPECT_EQ(h16(Op::Min, {0xC000u, 0x3F80u}, 0, Type::BF16), 0xC000u);
}

TEST(FloatHalf, Ex2AndTanh) {
  const uint32_t approx = ir::kApprox;
  EXPECT_EQ(h16(Op::Ex2, {kOne}, approx), kTwo);
  EXPECT_EQ(h16(Op::Ex2, {0xFC00u}, approx), 0u);
  EXPECT_EQ(h16(Op::Ex2, {0x8000u}, approx), kOne);
  EXPECT_EQ(h16(Op::Ex2, {f16Of(-20.0f)}, approx),
            f16Of(std::ldexp(1.0f, -20)));  // subnormal result
  EXPECT_EQ(h16(Op::Ex2, {0x3F80u}, approx | ir::kFtz, Type::BF16), 0x4000u);
  EXPECT_EQ(h16(Op::Ex2, {0x8001u}, approx | ir::kFtz, Type::BF16), 0x3F80u);  // -subnormal -> 1
  EXPECT_EQ(h16(Op::Tanh, {0xFC00u}, approx), 0xBC00u);
  EXPECT_EQ(h16(Op::Tanh, {0x8000u}, approx), 0x8000u);
  EXPECT_EQ(h16(Op::Tanh, {0x7E00u}, approx), 0x7FFFu);
}

TEST(FloatHalf, BindErrors) {
  EXPECT_NE(bindErr(Op::Add, Type::F16, 2, {.round = ir::Round::Rz}), "");
  EXPECT_NE(bindErr(Op::Add, Type::BF16, 2, {.flags = ir::kFtz}), "");
  EXPECT_NE(bindErr(Op::Add, Type::BF16, 2, {.flags = ir::kSat}), "");
  EXPECT_NE(bindErr(Op::Add, Type::F16, 2, {.flags = ir::kRelu}), "");
  EXPECT_NE(bindErr(Op::Sqrt, Type::F16, 1, {.round = ir::Round::Rn}), "");
}

}  // namespace
}  // namespace warpsim::func::testing
