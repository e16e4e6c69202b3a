// Tests for the .approx / .full executors: PTX special-value tables and error bounds.
#include <cmath>
#include <random>

#include "func/alu/float_test_support.h"

namespace warpsim::func::testing {
namespace {

using ir::Op;
using ir::Type;

uint32_t approx(Op op, float a, uint32_t flags = ir::kApprox) {
  return static_cast<uint32_t>(run1(op, Type::F32, {f2b(a)}, {.flags = flags}));
}

constexpr uint32_t kNaN = 0x7FFFFFFFu;
const float kInf = INFINITY;

TEST(FloatApprox, SpecialValueTables) {
  // ex2
  EXPECT_EQ(approx(Op::Ex2, -kInf), 0u);
  EXPECT_EQ(approx(Op::Ex2, -0.0f), f2b(1.0f));
  EXPECT_EQ(approx(Op::Ex2, kInf), f2b(kInf));
  EXPECT_EQ(approx(Op::Ex2, b2f(0x7FC00001u)), kNaN);
  // lg2
  EXPECT_EQ(approx(Op::Lg2, -kInf), kNaN);
  EXPECT_EQ(approx(Op::Lg2, -1.0f), kNaN);
  EXPECT_EQ(approx(Op::Lg2, -0.0f), f2b(-kInf));
  EXPECT_EQ(approx(Op::Lg2, 0.0f), f2b(-kInf));
  EXPECT_EQ(approx(Op::Lg2, kInf), f2b(kInf));
  // sin / cos
  EXPECT_EQ(approx(Op::Sin, -0.0f), 0x80000000u);
  EXPECT_EQ(approx(Op::Sin, kInf), kNaN);
  EXPECT_EQ(approx(Op::Cos, -0.0f), f2b(1.0f));
  EXPECT_EQ(approx(Op::Cos, -kInf), kNaN);
  // rsqrt / sqrt / rcp
  EXPECT_EQ(approx(Op::Rsqrt, -0.0f), f2b(-kInf));
  EXPECT_EQ(approx(Op::Rsqrt, 0.0f), f2b(kInf));
  EXPECT_EQ(approx(Op::Rsqrt, kInf), 0u);
  EXPECT_EQ(approx(Op::Rsqrt, -4.0f), kNaN);
  EXPECT_EQ(approx(Op::Rsqrt, 4.0f), f2b(0.5f));
  EXPECT_EQ(approx(Op::Sqrt, -0.0f), 0x80000000u);
  EXPECT_EQ(approx(Op::Sqrt, -2.0f), kNaN);
  EXPECT_EQ(approx(Op::Rcp, -kInf), 0x80000000u);
  EXPECT_EQ(approx(Op::Rcp, -0.0f), f2b(-kInf));
  // tanh
  EXPECT_EQ(approx(Op::Tanh, -kInf), f2b(-1.0f));
  EXPECT_EQ(approx(Op::Tanh, -0.0f), 0x80000000u);
  EXPECT_EQ(approx(Op::Tanh, b2f(0x00000005u)), 0x00000005u);  // subnormals pass through
}

TEST(FloatApprox, FtzOnApproxOps) {
  const float sub = std::ldexp(1.0f, -130);
  EXPECT_EQ(approx(Op::Lg2, sub), f2b(-130.0f));
  EXPECT_EQ(approx(Op::Lg2, sub, ir::kApprox | ir::kFtz), f2b(-kInf));
  EXPECT_EQ(approx(Op::Ex2, -140.0f), f2b(std::ldexp(1.0f, -140)));
  EXPECT_EQ(approx(Op::Ex2, -140.0f, ir::kApprox | ir::kFtz), 0u);
  EXPECT_EQ(approx(Op::Rcp, sub, ir::kApprox | ir::kFtz), f2b(kInf));
  // Legacy spelling without .approx means .approx.ftz.
  EXPECT_EQ(approx(Op::Ex2, -140.0f, 0), 0u);
}

TEST(FloatApprox, ErrorBounds) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> angle(-6.28f, 6.28f);
  std::uniform_real_distribution<float> expo(-100.0f, 100.0f);
  std::uniform_real_distribution<float> pos(1e-30f, 1e30f);
  auto ulps = [](float got, double exact) {
    const float e = static_cast<float>(exact);
    const double ulp = std::ldexp(1.0, std::ilogb(e) - 23);
    return std::fabs(got - exact) / ulp;
  };
  for (int i = 0; i < 2000; ++i) {
    const float x = angle(rng);
    EXPECT_LE(std::fabs(b2f(approx(Op::Sin, x)) - std::sin(double{x})), std::ldexp(1.0, -20));
    EXPECT_LE(std::fabs(b2f(approx(Op::Cos, x)) - std::cos(double{x})), std::ldexp(1.0, -20));
    const float e = expo(rng);
    EXPECT_LE(ulps(b2f(approx(Op::Ex2, e)), std::exp2(double{e})), 2.0);
    const float p = pos(rng);
    EXPECT_LE(std::fabs(b2f(approx(Op::Lg2, p)) - std::log2(double{p})),
              std::ldexp(std::fabs(std::log2(double{p})), -22) + 1e-7);
    EXPECT_LE(ulps(b2f(approx(Op::Rcp, p)), 1.0 / p), 1.0);
    EXPECT_LE(std::fabs(b2f(approx(Op::Rsqrt, p)) * std::sqrt(double{p}) - 1.0),
              std::ldexp(1.0, -22));
    EXPECT_LE(std::fabs(b2f(approx(Op::Tanh, x)) - std::tanh(double{x})) /
                  std::fabs(std::tanh(double{x})),
              std::ldexp(1.0, -11));
  }
}

TEST(FloatApprox, DivApproxAndFull) {
  auto div = [](float a, float b, uint32_t flags) {
    return static_cast<uint32_t>(run1(Op::Div, Type::F32, {f2b(a), f2b(b)}, {.flags = flags}));
  };
  EXPECT_EQ(div(1.0f, 4.0f, ir::kApprox), f2b(0.25f));
  EXPECT_EQ(div(6.0f, 3.0f, ir::kFull), f2b(2.0f));
  // |b| > 2^126: the reciprocal underflows, giving a signed zero, or NaN for an infinite a.
  const float big = std::ldexp(1.5f, 126);
  EXPECT_EQ(div(3.0f, big, ir::kApprox), 0u);
  EXPECT_EQ(div(-3.0f, big, ir::kApprox), 0x80000000u);
  EXPECT_EQ(div(kInf, big, ir::kApprox), kNaN);
  EXPECT_EQ(div(3.0f, big, ir::kFull), f2b(3.0f / big));  // full range
  EXPECT_EQ(div(1.0f, 0.0f, ir::kApprox), f2b(kInf));
  EXPECT_EQ(div(0.0f, 0.0f, ir::kFull), kNaN);
}

TEST(FloatApprox, F64Forms) {
  auto rcpFtz = [](uint64_t a) {
    return run1(Op::Rcp, Type::F64, {a}, {.flags = ir::kApprox | ir::kFtz});
  };
  auto rsqrtFtz = [](uint64_t a) {
    return run1(Op::Rsqrt, Type::F64, {a}, {.flags = ir::kApprox | ir::kFtz});
  };
  EXPECT_EQ(rcpFtz(d2b(2.0)), d2b(0.5));
  EXPECT_EQ(rcpFtz(d2b(3.0)), 0x3FD5555500000000ull);  // upper word only
  EXPECT_EQ(rcpFtz(d2b(-0.0)), d2b(-INFINITY));
  EXPECT_EQ(rcpFtz(0x000FFFFFFFFFFFFFull), d2b(INFINITY));  // subnormal input flushed
  EXPECT_EQ(rcpFtz(d2b(-INFINITY)), d2b(-0.0));
  EXPECT_EQ(rcpFtz(0x7FF8000000000000ull), 0x7FFFFFFF00000000ull);
  EXPECT_EQ(rcpFtz(0x7FF0000000000001ull), 0u);  // only the upper word counts: +Inf -> +0
  EXPECT_EQ(rsqrtFtz(d2b(4.0)), d2b(0.5));
  EXPECT_EQ(rsqrtFtz(d2b(-0.0)), d2b(-INFINITY));
  EXPECT_EQ(rsqrtFtz(d2b(-1.0)), 0x7FFFFFFF00000000ull);
  EXPECT_EQ(run1(Op::Rsqrt, Type::F64, {d2b(16.0)}, {.flags = ir::kApprox}), d2b(0.25));
  EXPECT_NE(bindErr(Op::Rcp, Type::F64, 1, {.flags = ir::kApprox}), "");
  EXPECT_NE(bindErr(Op::Sin, Type::F64, 1, {.flags = ir::kApprox}), "");
  EXPECT_NE(bindErr(Op::Tanh, Type::F32, 1, {.flags = ir::kApprox | ir::kFtz}), "");
}

}  // namespace
}  // namespace warpsim::func::testing
