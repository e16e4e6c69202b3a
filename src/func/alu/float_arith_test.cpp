// Tests for IEEE f32/f64 arithmetic executors: rounding modes, .ftz, .sat, NaN results, fma.
#include <cfenv>
#include <cmath>
#include <random>

#include "func/alu/float_test_support.h"
#include "func/alu/half.h"

namespace warpsim::func::testing {
namespace {

using ir::Op;
using ir::Round;
using ir::Type;

const float kTiny24 = std::ldexp(1.0f, -24);  // half an ulp of 1.0f
const double kTiny53 = std::ldexp(1.0, -53);

uint32_t f32Op(Op op, Round r, float a, float b, uint32_t flags = 0) {
  return static_cast<uint32_t>(run1(op, Type::F32, {f2b(a), f2b(b)}, {.round = r, .flags = flags}));
}

TEST(FloatArith, AddRoundsInEveryMode) {
  const float a = 1.0f;
  EXPECT_EQ(f32Op(Op::Add, Round::Rn, a, kTiny24), f2b(1.0f));  // tie -> even
  EXPECT_EQ(f32Op(Op::Add, Round::None, a, kTiny24), f2b(1.0f));
  EXPECT_EQ(f32Op(Op::Add, Round::Rz, a, kTiny24), f2b(1.0f));
  EXPECT_EQ(f32Op(Op::Add, Round::Rm, a, kTiny24), f2b(1.0f));
  EXPECT_EQ(f32Op(Op::Add, Round::Rp, a, kTiny24), f2b(1.0f) + 1);
  EXPECT_EQ(f32Op(Op::Add, Round::Rn, a, 3 * kTiny24), f2b(1.0f) + 2);  // 1.5 ulp tie -> even
  EXPECT_EQ(f32Op(Op::Add, Round::Rz, a, 3 * kTiny24), f2b(1.0f) + 1);
  // Negative values: .rm rounds away from zero, .rp toward it.
  EXPECT_EQ(f32Op(Op::Add, Round::Rm, -a, -kTiny24), f2b(-1.0f) + 1);
  EXPECT_EQ(f32Op(Op::Add, Round::Rp, -a, -kTiny24), f2b(-1.0f));
  EXPECT_EQ(f32Op(Op::Sub, Round::Rm, -a, kTiny24), f2b(-1.0f) + 1);
  EXPECT_EQ(f32Op(Op::Sub, Round::Rz, -a, kTiny24), f2b(-1.0f));
  // Exact zero sums are +0, except -0 under .rm.
  EXPECT_EQ(f32Op(Op::Add, Round::Rn, 1.0f, -1.0f), 0u);
  EXPECT_EQ(f32Op(Op::Add, Round::Rm, 1.0f, -1.0f), 0x80000000u);
  // Overflow: to infinity or to the largest finite value.
  EXPECT_EQ(f32Op(Op::Mul, Round::Rn, 3e38f, 10.0f), f2b(INFINITY));
  EXPECT_EQ(f32Op(Op::Mul, Round::Rz, 3e38f, 10.0f), 0x7F7FFFFFu);
  EXPECT_EQ(f32Op(Op::Mul, Round::Rm, -3e38f, 10.0f), f2b(-INFINITY));
  EXPECT_EQ(f32Op(Op::Mul, Round::Rp, -3e38f, 10.0f), 0xFF7FFFFFu);
  EXPECT_EQ(std::fegetround(), FE_TONEAREST);  // the host mode is restored
}

TEST(FloatArith, F64RoundsInEveryMode) {
  auto add = [](Round r, double a, double b) {
    return run1(Op::Add, Type::F64, {d2b(a), d2b(b)}, {.round = r});
  };
  EXPECT_EQ(add(Round::Rn, 1.0, kTiny53), d2b(1.0));
  EXPECT_EQ(add(Round::Rp, 1.0, kTiny53), d2b(1.0) + 1);
  EXPECT_EQ(add(Round::Rm, -1.0, -kTiny53), d2b(-1.0) + 1);
  EXPECT_EQ(add(Round::Rz, -1.0, -kTiny53), d2b(-1.0));
  const uint64_t third = run1(Op::Div, Type::F64, {d2b(1.0), d2b(3.0)}, {.round = Round::Rz});
  EXPECT_EQ(third, 0x3FD5555555555555ull);
  EXPECT_EQ(run1(Op::Div, Type::F64, {d2b(1.0), d2b(3.0)}, {.round = Round::Rp}),
            0x3FD5555555555556ull);
  EXPECT_EQ(run1(Op::Sqrt, Type::F64, {d2b(2.0)}, {.round = Round::Rn}), 0x3FF6A09E667F3BCDull);
  EXPECT_EQ(run1(Op::Sqrt, Type::F64, {d2b(2.0)}, {.round = Round::Rz}), 0x3FF6A09E667F3BCCull);
  EXPECT_EQ(run1(Op::Rcp, Type::F64, {d2b(3.0)}, {.round = Round::Rm}), 0x3FD5555555555555ull);
  EXPECT_EQ(std::fegetround(), FE_TONEAREST);
}

TEST(FloatArith, DivSqrtRcpF32) {
  EXPECT_EQ(f32Op(Op::Div, Round::Rn, 1.0f, 3.0f), 0x3EAAAAABu);
  EXPECT_EQ(f32Op(Op::Div, Round::Rz, 1.0f, 3.0f), 0x3EAAAAAAu);
  EXPECT_EQ(f32Op(Op::Div, Round::Rm, -1.0f, 3.0f), 0xBEAAAAABu);
  EXPECT_EQ(run1(Op::Rcp, Type::F32, {f2b(3.0f)}, {.round = Round::Rn}), 0x3EAAAAABu);
  EXPECT_EQ(run1(Op::Rcp, Type::F32, {f2b(3.0f)}, {.round = Round::Rz}), 0x3EAAAAAAu);
  EXPECT_EQ(run1(Op::Sqrt, Type::F32, {f2b(2.0f)}, {.round = Round::Rn}), 0x3FB504F3u);
  EXPECT_EQ(run1(Op::Sqrt, Type::F32, {f2b(2.0f)}, {.round = Round::Rp}), 0x3FB504F4u);
  EXPECT_EQ(run1(Op::Sqrt, Type::F32, {f2b(-0.0f)}, {.round = Round::Rn}), 0x80000000u);
  EXPECT_EQ(run1(Op::Sqrt, Type::F32, {f2b(-1.0f)}, {.round = Round::Rn}), 0x7FFFFFFFu);
  EXPECT_EQ(f32Op(Op::Div, Round::Rn, 1.0f, 0.0f), f2b(INFINITY));
  EXPECT_EQ(f32Op(Op::Div, Round::Rn, 0.0f, 0.0f), 0x7FFFFFFFu);
}

TEST(FloatArith, FmaIsFusedAndMadDefaultsToFma) {
  const float a = 1.0f + std::ldexp(1.0f, -12);  // a * a = 1 + 2^-11 + 2^-24, not an f32
  const uint32_t fused = static_cast<uint32_t>(
      run1(Op::Fma, Type::F32, {f2b(a), f2b(a), f2b(-1.0f)}, {.round = Round::Rn}));
  EXPECT_EQ(fused, f2b(std::ldexp(1.0f, -11) + std::ldexp(1.0f, -24)));
  const uint32_t product = f32Op(Op::Mul, Round::Rn, a, a);
  EXPECT_EQ(f32Op(Op::Add, Round::Rn, b2f(product), -1.0f), f2b(std::ldexp(1.0f, -11)));
  EXPECT_EQ(run1(Op::Mad, Type::F32, {f2b(a), f2b(a), f2b(-1.0f)}), fused);
  EXPECT_EQ(run1(Op::Mad, Type::F32, {f2b(a), f2b(a), f2b(-1.0f)}, {.round = Round::Rn}), fused);
  const double da = 1.0 + std::ldexp(1.0, -27);
  EXPECT_EQ(run1(Op::Fma, Type::F64, {d2b(da), d2b(da), d2b(-1.0)}, {.round = Round::Rn}),
            d2b(std::ldexp(1.0, -26) + std::ldexp(1.0, -54)));
  // fma.rp: the exact result lies just above 1.
  EXPECT_EQ(run1(Op::Fma, Type::F32, {f2b(1.0f), f2b(1.0f), f2b(std::ldexp(1.0f, -60))},
                 {.round = Round::Rp}),
            f2b(1.0f) + 1);
}

TEST(FloatArith, FtzFlushesInputsAndResults) {
  const float sub = std::ldexp(1.0f, -140);
  const uint32_t ftz = ir::kFtz;
  EXPECT_EQ(f32Op(Op::Add, Round::None, sub, 0.0f), f2b(sub));
  EXPECT_EQ(f32Op(Op::Add, Round::None, sub, 0.0f, ftz), 0u);
  EXPECT_EQ(f32Op(Op::Add, Round::None, -sub, -0.0f, ftz), 0x80000000u);  // sign-preserving
  EXPECT_EQ(f32Op(Op::Mul, Round::None, std::ldexp(1.0f, -126), 0.5f), f2b(std::ldexp(1.0f, -127)));
  EXPECT_EQ(f32Op(Op::Mul, Round::None, std::ldexp(1.0f, -126), 0.5f, ftz), 0u);
  EXPECT_EQ(f32Op(Op::Mul, Round::None, -std::ldexp(1.0f, -126), 0.5f, ftz), 0x80000000u);
  EXPECT_EQ(f32Op(Op::Div, Round::Rn, 1.0f, sub, ftz), f2b(INFINITY));  // 1 / flushed 0
}

TEST(FloatArith, SatClampsAndZeroesNaN) {
  const uint32_t sat = ir::kSat;
  EXPECT_EQ(f32Op(Op::Add, Round::None, 0.75f, 0.5f, sat), f2b(1.0f));
  EXPECT_EQ(f32Op(Op::Add, Round::None, 0.25f, 0.5f, sat), f2b(0.75f));
  EXPECT_EQ(f32Op(Op::Sub, Round::None, 1.0f, 4.0f, sat), 0u);
  EXPECT_EQ(f32Op(Op::Mul, Round::None, -0.0f, 1.0f, sat), 0u);          // -0 -> +0
  EXPECT_EQ(f32Op(Op::Add, Round::None, INFINITY, -INFINITY, sat), 0u);  // NaN -> +0
  EXPECT_EQ(run1(Op::Fma, Type::F32, {f2b(2.0f), f2b(2.0f), f2b(1.0f)},
                 {.round = Round::Rn, .flags = sat}),
            f2b(1.0f));
}

TEST(FloatArith, NaNResults) {
  // f32: canonical NaN; f64: input payload kept (quiet), invalid operations give the default NaN.
  EXPECT_EQ(f32Op(Op::Add, Round::None, b2f(0x7FC00123u), 1.0f), 0x7FFFFFFFu);
  EXPECT_EQ(f32Op(Op::Mul, Round::Rz, b2f(0xFF800001u), 1.0f), 0x7FFFFFFFu);
  EXPECT_EQ(f32Op(Op::Mul, Round::None, INFINITY, 0.0f), 0x7FFFFFFFu);
  EXPECT_EQ(run1(Op::Add, Type::F64, {0x7FF8000000000123ull, d2b(1.0)}), 0x7FF8000000000123ull);
  EXPECT_EQ(run1(Op::Mul, Type::F64, {d2b(2.0), 0xFFF8000000000456ull}), 0xFFF8000000000456ull);
  EXPECT_TRUE(std::isnan(b2d(run1(Op::Sub, Type::F64, {d2b(INFINITY), d2b(INFINITY)}))));
}

TEST(FloatArith, InactiveLanesAreUntouched) {
  AluHarness h;
  ir::Instr in = AluHarness::make(Op::Add, Type::F32, {AluHarness::R(0)},
                                  {AluHarness::R(1), AluHarness::R(2)});
  in.round = Round::Rz;
  h.setAll(0, 7);
  h.setAll(1, f2b(1.0f));
  h.setAll(2, f2b(2.0f));
  h.run(in, 0x0000F00Fu);
  for (unsigned l = 0; l < kWarpSize; ++l) {
    const bool active = ((0x0000F00Fu >> l) & 1) != 0;
    EXPECT_EQ(h.get(0, l), active ? f2b(3.0f) : 7u) << l;
  }
}

// Reference results for directed rounding computed without the host rounding mode: the exact
// value's binary64 rounding-to-odd, narrowed once in the requested direction.
uint32_t refF32(Op op, fp::Rounding r, float fa, float fb, float fc) {
  const double a = fa, b = fb, c = fc;
  double odd;
  switch (op) {
    case Op::Add: {
      const double s = a + b;
      odd = fp::roundToOdd(s, fp::twoSumError(a, b, s));
      break;
    }
    case Op::Mul: odd = a * b; break;
    case Op::Fma: {
      const double p = a * b;
      const double s = p + c;
      odd = fp::roundToOdd(s, fp::twoSumError(p, c, s));
      break;
    }
    case Op::Div: {
      const double q = a / b;
      const double rem = std::fma(-q, b, a);
      odd = rem == 0 ? q : fp::roundToOdd(q, std::copysign(1.0, rem) * std::copysign(1.0, b));
      break;
    }
    default: {  // sqrt
      const double s = std::sqrt(a);
      const double rem = std::fma(-s, s, a);
      odd = rem == 0 ? s : fp::roundToOdd(s, rem);
      break;
    }
  }
  const uint32_t out = fp::f64ToF32(d2b(odd), r);
  return fp::isNaN<fp::kF32>(out) ? 0x7FFFFFFFu : out;
}

float randomFloat(std::mt19937& rng, bool positive) {
  const uint32_t exp = 1 + rng() % 253;  // finite, normal; products and quotients reach the edges
  const uint32_t bits = (positive ? 0u : (rng() & 0x80000000u)) | (exp << 23) | (rng() & 0x7FFFFFu);
  return b2f(bits);
}

TEST(FloatArith, DirectedRoundingMatchesExactReference) {
  std::mt19937 rng(1234);
  const std::pair<Round, fp::Rounding> modes[] = {{Round::Rn, fp::Rounding::NearestEven},
                                                  {Round::Rz, fp::Rounding::TowardZero},
                                                  {Round::Rm, fp::Rounding::Down},
                                                  {Round::Rp, fp::Rounding::Up}};
  const Op ops[] = {Op::Add, Op::Mul, Op::Fma, Op::Div, Op::Sqrt};
  for (Op op : ops) {
    const unsigned n = op == Op::Fma ? 3 : op == Op::Sqrt ? 1 : 2;
    for (auto [round, mode] : modes) {
      for (int iter = 0; iter < 200; ++iter) {
        std::vector<std::array<uint64_t, kWarpSize>> srcs(n);
        for (unsigned l = 0; l < kWarpSize; ++l) {
          for (unsigned i = 0; i < n; ++i) srcs[i][l] = f2b(randomFloat(rng, op == Op::Sqrt));
          if (op == Op::Add && l % 2 == 0)
            srcs[1][l] = f2b(b2f(srcs[1][l]) * std::ldexp(1.0f, -20));
        }
        const auto out = runLanes(op, Type::F32, srcs, {.round = round});
        for (unsigned l = 0; l < kWarpSize; ++l) {
          const float a = b2f(srcs[0][l]);
          const float b = n > 1 ? b2f(srcs[1][l]) : 0.0f;
          const float c = n > 2 ? b2f(srcs[2][l]) : 0.0f;
          ASSERT_EQ(out[l], refF32(op, mode, a, b, c))
              << ir::opName(op) << " mode " << static_cast<int>(mode) << " " << std::hexfloat << a
              << " " << b << " " << c;
        }
      }
    }
  }
}

TEST(FloatArith, BindErrors) {
  EXPECT_NE(bindErr(Op::Add, Type::F64, 2, {.flags = ir::kFtz}), "");
  EXPECT_NE(bindErr(Op::Div, Type::F32, 2, {.round = Round::Rn, .flags = ir::kSat}), "");
  EXPECT_NE(bindErr(Op::Add, Type::F32, 2, {.round = Round::Rni}), "");
  EXPECT_NE(bindErr(Op::Fma, Type::F32, 2, {.round = Round::Rn}), "");  // operand count
  EXPECT_NE(bindErr(Op::Fma, Type::S32, 3, {.round = Round::Rn}), "");
  std::string err;
  ir::Instr addInt = buildOp(Op::Add, Type::S32, 2, {});
  EXPECT_EQ(bindFloatAlu(addInt, &err), nullptr);  // integer add: not the float family
  EXPECT_EQ(err, "");
  ir::Instr bad = buildOp(Op::Add, Type::F64, 2, {.round = Round::Rz, .flags = ir::kSat});
  EXPECT_EQ(bindFloatAlu(bad, &err), nullptr);
  EXPECT_EQ(err, "add.rz.sat.f64: .ftz and .sat apply to .f32 only");
}

}  // namespace
}  // namespace warpsim::func::testing
