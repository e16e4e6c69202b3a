// Half precision (tests/cuda/half_math.cu): __half2 add/mul/fma and float<->half conversions.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "test_support.h"

namespace warpsim::test {
namespace {

// IEEE binary16 bits of `d` rounded to nearest, ties to even (the reference for cvt.rn.f16).
uint16_t toHalfBits(double d) {
  if (std::isnan(d)) return 0x7e00;
  uint16_t sign = std::signbit(d) ? 0x8000 : 0;
  d = std::fabs(d);
  if (d >= 65520.0) return sign | 0x7c00;  // at or past the midpoint above 65504: infinity
  if (d < std::ldexp(1.0, -14)) {          // subnormal: multiples of 2^-24
    return sign | static_cast<uint16_t>(std::nearbyint(std::ldexp(d, 24)));
  }
  int e = std::ilogb(d);
  double q = std::nearbyint(std::ldexp(d, 10 - e));  // in [1024, 2048]
  if (q == 2048.0) {
    q = 1024.0;
    ++e;
  }
  if (e + 15 >= 31) return sign | 0x7c00;
  return sign | static_cast<uint16_t>(((e + 15) << 10) | (static_cast<int>(q) - 1024));
}

double halfValue(uint16_t h) {
  int e = (h >> 10) & 31, m = h & 1023;
  double v = e == 0 ? std::ldexp(m, -24)
             : e == 31 ? (m == 0 ? std::numeric_limits<double>::infinity()
                                 : std::numeric_limits<double>::quiet_NaN())
                       : std::ldexp(1024 + m, e - 25);
  return (h & 0x8000) ? -v : v;
}

double roundToHalf(double d) { return halfValue(toHalfBits(d)); }

TEST(Half, Half2ArithmeticRoundsEachLaneToHalf) {
  runtime::Device gpu(testOptions());
  runtime::Module mod = gpu.loadModuleFile(cudaPtx("half_math"));
  const int n = 512;  // 256 pairs
  InputGenerator gen(55);
  // Multiples of 2^-10 up to 8 in magnitude: after rounding to half, products lie on a 2^-20
  // grid below 64, so x*y+z is exact in double and rounding it once gives the fma result.
  std::vector<float> a(n), b(n), c(n);
  for (int i = 0; i < n; ++i) {
    a[i] = gen.dyadic(-8192, 8192, 10);
    b[i] = gen.dyadic(-8192, 8192, 10);
    c[i] = gen.dyadic(-8192, 8192, 10);
  }
  uint64_t dA = gpu.upload(a), dB = gpu.upload(b), dC = gpu.upload(c);
  uint64_t dOut = gpu.malloc(uint64_t(n / 2) * 6 * 4);
  gpu.launch(mod.kernel("half2_arith"), {blocksFor(n / 2, 64)}, {64}, 0, dA, dB, dC, dOut, n);
  std::vector<float> out = gpu.download<float>(dOut, size_t(n / 2) * 6);
  for (int i = 0; i < n / 2; ++i) {
    for (int lane = 0; lane < 2; ++lane) {
      double x = roundToHalf(a[2 * i + lane]), y = roundToHalf(b[2 * i + lane]);
      double z = roundToHalf(c[2 * i + lane]);
      SCOPED_TRACE(::testing::Message() << "pair " << i << " lane " << lane << ": " << x << ", "
                                        << y << ", " << z);
      EXPECT_EQ(out[6 * i + 0 + lane], roundToHalf(x + y));
      EXPECT_EQ(out[6 * i + 2 + lane], roundToHalf(x * y));
      EXPECT_EQ(out[6 * i + 4 + lane], roundToHalf(x * y + z));
    }
  }
}

TEST(Half, FloatToHalfRoundsToNearestEvenWithOverflowAndSubnormals) {
  runtime::Device gpu(testOptions());
  runtime::Module mod = gpu.loadModuleFile(cudaPtx("half_math"));
  std::vector<float> in = {1.0f, -2.5f, 0.1f, 65504.0f, 65519.0f, 65520.0f, 1e9f, -1e9f,
                           std::ldexp(1.0f, -24), std::ldexp(1.0f, -25), std::ldexp(3.0f, -25),
                           std::ldexp(1.0f, -26), 1.0f + std::ldexp(1.0f, -11),
                           1.0f + std::ldexp(3.0f, -11), std::ldexp(1.0f, -14), -0.0f,
                           std::numeric_limits<float>::infinity()};
  InputGenerator gen(66);
  while (in.size() < 128) in.push_back(static_cast<float>(gen.uniform(-7000000, 7000000)) / 97.0f);
  const int n = static_cast<int>(in.size());
  uint64_t dIn = gpu.upload(in), dRound = gpu.malloc(n * 4), dBits = gpu.malloc(n * 2);
  gpu.launch(mod.kernel("half_convert"), {blocksFor(n, 64)}, {64}, 0, dIn, dRound, dBits, n);
  std::vector<float> round = gpu.download<float>(dRound, n);
  std::vector<uint16_t> bits = gpu.download<uint16_t>(dBits, n);
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(bits[i], toHalfBits(in[i])) << "input " << in[i];
    EXPECT_EQ(round[i], static_cast<float>(halfValue(bits[i]))) << "input " << in[i];
  }
  // Known encodings, independent of the reference function.
  EXPECT_EQ(bits[0], 0x3c00);   // 1
  EXPECT_EQ(bits[1], 0xc100);   // -2.5
  EXPECT_EQ(bits[2], 0x2e66);   // 0.1
  EXPECT_EQ(bits[3], 0x7bff);   // 65504, the largest half
  EXPECT_EQ(bits[5], 0x7c00);   // 65520 rounds to infinity
  EXPECT_EQ(bits[8], 0x0001);   // 2^-24, the smallest subnormal
  EXPECT_EQ(bits[9], 0x0000);   // 2^-25: tie, rounds to even (zero)
  EXPECT_EQ(bits[10], 0x0002);  // 3 * 2^-25: tie, rounds to even (2 * 2^-24)
  EXPECT_EQ(bits[12], 0x3c00);  // 1 + 2^-11: tie, rounds to even (1)
  EXPECT_EQ(bits[15], 0x8000);  // -0
}

}  // namespace
}  // namespace warpsim::test
