// Floating point: float->int rounding modes and saturation, fast and library single-precision
// functions (tests/cuda/float_convert.cu), double-precision library functions
// (tests/cuda/double_math.cu).
//
// Tolerances: values computed by one IEEE-rounded instruction (cvt, sqrt.rn, add/mul/fma) are
// compared exactly. The library functions are sequences whose error CUDA documents (CUDA C++
// Programming Guide, "Mathematical Functions" appendix): sinf, cosf, expf 2 ulp; rsqrtf 2 ulp;
// __fdividef 2 ulp for divisors in [2^-126, 2^126]; exp, log 1 ulp; pow 2 ulp; __sinf absolute
// error 2^-21.41 in [-pi, pi]. The CPU reference (glibc, double precision rounded once) is within
// 1/2 ulp of the true value for the float functions, and within 1 ulp for the double ones, so
// the bounds below are the documented error plus the reference's.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "test_support.h"

namespace warpsim::test {
namespace {

int32_t saturateToInt(double r) {
  if (std::isnan(r)) return 0;
  if (r >= 2147483647.0) return INT32_MAX;
  if (r <= -2147483648.0) return INT32_MIN;
  return static_cast<int32_t>(r);
}

bool within(float got, double exact, uint64_t ulps) {
  float ref = static_cast<float>(exact);
  if (std::isnan(ref)) return std::isnan(got);
  return ulpDistance(got, ref) <= ulps;
}

TEST(FloatMath, ConversionsRoundingModesAndLibraryFunctions) {
  runtime::Device gpu(testOptions());
  runtime::Module mod = gpu.loadModuleFile(cudaPtx("float_convert"));
  std::vector<float> x = {0.0f, -0.0f, 0.5f, 1.5f, 2.5f, -2.5f, 3.5f, -0.5f, 0.49999997f,
                          -1.0000001f, 0.99999994f, 1e10f, -1e10f, 2147483520.0f, -2147483648.0f,
                          std::numeric_limits<float>::quiet_NaN(), 1.1754944e-38f, 3.1415927f,
                          -3.1415927f, 100.25f, 4194304.5f, 8388607.5f};
  InputGenerator gen(33);
  while (x.size() < 256) x.push_back(static_cast<float>(gen.uniform(-2000000, 2000000)) / 9973.0f);
  const int n = static_cast<int>(x.size());
  uint64_t dX = gpu.upload(x), dI = gpu.malloc(uint64_t(n) * 16), dF = gpu.malloc(uint64_t(n) * 32);
  gpu.launch(mod.kernel("float_convert"), {blocksFor(n, 64)}, {64}, 0, dX, dI, dF, n);
  std::vector<int32_t> ints = gpu.download<int32_t>(dI, size_t(n) * 4);
  std::vector<float> f = gpu.download<float>(dF, size_t(n) * 8);

  for (int i = 0; i < n; ++i) {
    float v = x[i];
    double d = v;
    SCOPED_TRACE(::testing::Message() << "x = " << v << " (element " << i << ")");
    EXPECT_EQ(ints[4 * i + 0], saturateToInt(std::nearbyint(d)));  // ties to even
    EXPECT_EQ(ints[4 * i + 1], saturateToInt(std::trunc(d)));
    EXPECT_EQ(ints[4 * i + 2], saturateToInt(std::floor(d)));
    EXPECT_EQ(ints[4 * i + 3], saturateToInt(std::ceil(d)));
    float sat = std::isnan(v) ? 0.0f : std::fmin(std::fmax(v, 0.0f), 1.0f);
    EXPECT_EQ(f[8 * i + 0], sat);
    EXPECT_TRUE(within(f[8 * i + 1], d / 3.0, 2)) << "__fdividef " << f[8 * i + 1];
    float arg = std::fabs(v) + 1.0f;
    EXPECT_TRUE(within(f[8 * i + 2], 1.0 / std::sqrt(double(arg)), 2)) << "rsqrtf " << f[8 * i + 2];
    EXPECT_TRUE(within(f[8 * i + 3], std::sin(d), 2)) << "sinf " << f[8 * i + 3];
    EXPECT_TRUE(within(f[8 * i + 4], std::cos(d), 2)) << "cosf " << f[8 * i + 4];
    EXPECT_TRUE(within(f[8 * i + 5], std::exp(double(v * 0.25f)), 2)) << "expf " << f[8 * i + 5];
    if (std::fabs(v) <= 3.1415927f) {
      EXPECT_NEAR(f[8 * i + 6], std::sin(d), std::ldexp(1.0, -21)) << "__sinf";
    }
    float scaled = std::fabs(v) * 1000.0f;
    double u = std::isnan(scaled) ? 0.0
               : scaled >= 4294967295.0 ? 4294967295.0
                                        : std::nearbyint(double(scaled));
    EXPECT_EQ(f[8 * i + 7], static_cast<float>(u)) << "__float2uint_rn";
  }
}

TEST(FloatMath, DoublePrecisionLibraryFunctions) {
  runtime::Device gpu(testOptions());
  runtime::Module mod = gpu.loadModuleFile(cudaPtx("double_math"));
  std::vector<double> x = {1.0, 2.0, 4.0, 0.5, 1e-300, 1e300, 10.0, 7.25};
  std::vector<double> y = {0.0, 1.0, -1.0, 0.5, 2.0, -0.25, 3.0, -700.0};
  InputGenerator gen(44);
  while (x.size() < 200) {
    x.push_back(static_cast<double>(gen.uniform(1, 1000000000)) / 1e6);
    y.push_back(static_cast<double>(gen.uniform(-40000000, 40000000)) / 1e6);
  }
  const int n = static_cast<int>(x.size());
  uint64_t dX = gpu.upload(x), dY = gpu.upload(y), dOut = gpu.malloc(uint64_t(n) * 32);
  gpu.launch(mod.kernel("double_math"), {blocksFor(n, 64)}, {64}, 0, dX, dY, dOut, n);
  std::vector<double> out = gpu.download<double>(dOut, size_t(n) * 4);
  for (int i = 0; i < n; ++i) {
    SCOPED_TRACE(::testing::Message() << "x = " << x[i] << ", y = " << y[i]);
    EXPECT_EQ(out[4 * i + 0], std::sqrt(x[i]));  // sqrt.rn.f64: correctly rounded
    EXPECT_LE(ulpDistance(out[4 * i + 1], std::exp(y[i])), 2u) << "exp " << out[4 * i + 1];
    EXPECT_LE(ulpDistance(out[4 * i + 2], std::log(x[i])), 2u) << "log " << out[4 * i + 2];
    EXPECT_LE(ulpDistance(out[4 * i + 3], std::pow(x[i], y[i])), 3u) << "pow " << out[4 * i + 3];
  }
  // Exact special cases.
  EXPECT_EQ(out[4 * 0 + 2], 0.0);  // log(1)
  EXPECT_EQ(out[4 * 0 + 3], 1.0);  // pow(1, 0)
  EXPECT_EQ(out[4 * 1 + 3], 2.0);  // pow(2, 1)
  EXPECT_EQ(out[4 * 2 + 3], 0.25); // pow(4, -1)
  EXPECT_EQ(out[4 * 1 + 0], std::sqrt(2.0));
}

}  // namespace
}  // namespace warpsim::test
