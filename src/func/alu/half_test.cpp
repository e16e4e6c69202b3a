// Tests for the binary16 / bfloat16 / binary32 conversions of half.h.
#include "func/alu/half.h"

#include <gtest/gtest.h>

#include <bit>
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <random>

namespace warpsim::func::fp {
namespace {

uint32_t f2b(float f) { return std::bit_cast<uint32_t>(f); }
uint64_t d2b(double d) { return std::bit_cast<uint64_t>(d); }

constexpr Rounding kRn = Rounding::NearestEven;
constexpr Rounding kRz = Rounding::TowardZero;
constexpr Rounding kRm = Rounding::Down;
constexpr Rounding kRp = Rounding::Up;

TEST(Half, F32ToF16Boundaries) {
  EXPECT_EQ(f32ToF16(f2b(1.0f), kRn), 0x3C00);
  EXPECT_EQ(f32ToF16(f2b(-2.0f), kRn), 0xC000);
  EXPECT_EQ(f32ToF16(f2b(65504.0f), kRn), 0x7BFF);  // largest finite
  EXPECT_EQ(f32ToF16(f2b(65519.0f), kRn), 0x7BFF);  // below the midpoint to 2^16
  EXPECT_EQ(f32ToF16(f2b(65520.0f), kRn), 0x7C00);  // the midpoint rounds (to even) to inf
  EXPECT_EQ(f32ToF16(f2b(65520.0f), kRz), 0x7BFF);
  EXPECT_EQ(f32ToF16(f2b(1e10f), kRz), 0x7BFF);
  EXPECT_EQ(f32ToF16(f2b(1e10f), kRm), 0x7BFF);
  EXPECT_EQ(f32ToF16(f2b(1e10f), kRp), 0x7C00);
  EXPECT_EQ(f32ToF16(f2b(-1e10f), kRm), 0xFC00);
  EXPECT_EQ(f32ToF16(f2b(-1e10f), kRp), 0xFBFF);
  EXPECT_EQ(f32ToF16(f2b(INFINITY), kRz), 0x7C00);  // infinities stay infinite
  EXPECT_EQ(f32ToF16(f2b(-0.0f), kRn), 0x8000);
  EXPECT_EQ(f32ToF16(0x7FC00001u, kRn), 0x7FFF);  // NaN -> canonical
  EXPECT_EQ(f32ToF16(0xFF800001u, kRn), 0x7FFF);
}

TEST(Half, F32ToF16SubnormalsAndTies) {
  EXPECT_EQ(f32ToF16(f2b(std::ldexp(1.0f, -24)), kRn), 0x0001);  // smallest subnormal
  EXPECT_EQ(f32ToF16(f2b(std::ldexp(1.0f, -14)), kRn), 0x0400);  // smallest normal
  EXPECT_EQ(f32ToF16(f2b(std::ldexp(1.0f, -25)), kRn), 0x0000);  // tie -> even (0)
  EXPECT_EQ(f32ToF16(f2b(std::ldexp(3.0f, -25)), kRn), 0x0002);  // 1.5 ulp tie -> even (2)
  EXPECT_EQ(f32ToF16(f2b(std::ldexp(1.0f, -25) * 1.5f), kRn), 0x0001);
  EXPECT_EQ(f32ToF16(f2b(std::ldexp(1.0f, -30)), kRp), 0x0001);
  EXPECT_EQ(f32ToF16(f2b(-std::ldexp(1.0f, -30)), kRm), 0x8001);
  EXPECT_EQ(f32ToF16(f2b(-std::ldexp(1.0f, -30)), kRn), 0x8000);
  EXPECT_EQ(f32ToF16(f2b(1.0f + std::ldexp(1.0f, -11)), kRn), 0x3C00);      // tie -> even
  EXPECT_EQ(f32ToF16(f2b(1.0f + 3 * std::ldexp(1.0f, -11)), kRn), 0x3C02);  // tie -> even
  EXPECT_EQ(f32ToF16(f2b(1.0f + std::ldexp(1.0f, -11)), kRp), 0x3C01);
  EXPECT_EQ(f32ToF16(f2b(-1.0f - std::ldexp(1.0f, -11)), kRm), 0xBC01);
  EXPECT_EQ(f32ToF16(f2b(-1.0f - std::ldexp(1.0f, -11)), kRz), 0xBC00);
  // Rounding up out of the subnormal range gives the smallest normal.
  EXPECT_EQ(f32ToF16(f2b(std::ldexp(1023.9f, -24)), kRn), 0x0400);
}

TEST(Half, F64ToF16RoundsOnce) {
  // 1 + 2^-11 + 2^-40: via f32 it would become the tie 1 + 2^-11 and round to 1.0.
  const double v = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  EXPECT_EQ(f64ToF16(d2b(v), kRn), 0x3C01);
  EXPECT_EQ(f32ToF16(f2b(static_cast<float>(v)), kRn), 0x3C00);
  EXPECT_EQ(f64ToF16(d2b(std::ldexp(1.0, -1074)), kRn), 0x0000);
  EXPECT_EQ(f64ToF16(d2b(std::ldexp(1.0, -1074)), kRp), 0x0001);
  EXPECT_EQ(f64ToF16(d2b(1e300), kRn), 0x7C00);
  EXPECT_EQ(f64ToBf16(d2b(1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40)), kRn), 0x3F81);
}

TEST(Half, Bf16Conversions) {
  EXPECT_EQ(f32ToBf16(f2b(1.0f), kRn), 0x3F80);
  EXPECT_EQ(f32ToBf16(f2b(1.0f + std::ldexp(1.0f, -8)), kRn), 0x3F80);  // tie -> even
  EXPECT_EQ(f32ToBf16(f2b(1.0f + 3 * std::ldexp(1.0f, -8)), kRn), 0x3F82);
  EXPECT_EQ(f32ToBf16(f2b(1.0f + std::ldexp(1.0f, -8)), kRp), 0x3F81);
  EXPECT_EQ(f32ToBf16(0x7F7FFFFFu, kRn), 0x7F80);  // FLT_MAX rounds to infinity
  EXPECT_EQ(f32ToBf16(0x7F7FFFFFu, kRz), 0x7F7F);
  EXPECT_EQ(f32ToBf16(0x00000001u, kRn), 0x0000);  // f32 subnormals below bf16's
  EXPECT_EQ(f32ToBf16(0x00400000u, kRn), 0x0040);  // f32 subnormal representable in bf16
  EXPECT_EQ(f32ToBf16(0x7FC12345u, kRn), 0x7FFF);
  EXPECT_EQ(bf16ToF32(0x3F80), f2b(1.0f));
  EXPECT_EQ(bf16ToF32(0x8001), 0x80010000u);
  EXPECT_EQ(f16ToBf16(0x3C01, kRn), 0x3F80);  // 1 + 2^-10 needs more than 7 fraction bits
  EXPECT_EQ(f16ToBf16(0x3C01, kRp), 0x3F81);
  EXPECT_EQ(bf16ToF16(0x4780, kRn), 0x7C00);  // 65536 overflows f16
  EXPECT_EQ(bf16ToF16(0x4780, kRz), 0x7BFF);
  EXPECT_EQ(bf16ToF16(0x3380, kRn), 0x0001);  // 2^-24, the smallest f16 subnormal
  EXPECT_EQ(bf16ToF16(0x3300, kRn), 0x0000);  // 2^-25: the tie with zero rounds to even
  EXPECT_EQ(bf16ToF16(0x3300, kRp), 0x0001);
}

TEST(Half, EveryF16RoundTripsThroughF32) {
  for (uint32_t h = 0; h <= 0xFFFF; ++h) {
    const uint32_t f = f16ToF32(static_cast<uint16_t>(h));
    const bool nan = (h & 0x7C00) == 0x7C00 && (h & 0x3FF) != 0;
    if (nan) {
      EXPECT_EQ(f, 0x7FFFFFFFu);
      continue;
    }
    ASSERT_EQ(f32ToF16(f, kRn), h) << std::hex << h;
    ASSERT_EQ(f32ToF16(f, kRz), h);
    ASSERT_EQ(f64ToF16(d2b(static_cast<double>(std::bit_cast<float>(f))), kRm), h);
  }
  EXPECT_EQ(f16ToF32(0x0001), f2b(std::ldexp(1.0f, -24)));
  EXPECT_EQ(f16ToF32(0x03FF), f2b(std::ldexp(1023.0f, -24)));
  EXPECT_EQ(f16ToF32(0xFC00), f2b(-INFINITY));
}

TEST(Half, EveryBf16RoundTripsThroughF32) {
  for (uint32_t h = 0; h <= 0xFFFF; ++h) {
    const uint32_t f = bf16ToF32(static_cast<uint16_t>(h));
    if ((h & 0x7F80) == 0x7F80 && (h & 0x7F) != 0) continue;
    ASSERT_EQ(f, h << 16);
    ASSERT_EQ(f32ToBf16(f, kRp), h);
  }
}

// Directed f64 -> f32 narrowing agrees with the host FPU's conversion in that mode.
TEST(Half, F64ToF32MatchesHostInEveryMode) {
  std::mt19937_64 rng(7);
  const Rounding modes[] = {kRn, kRz, kRm, kRp};
  const int hostModes[] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
  for (int m = 0; m < 4; ++m) {
    for (int i = 0; i < 20000; ++i) {
      uint64_t bits = rng();
      // Concentrate exponents around the f32 range, including its subnormals and overflow.
      const uint64_t exp = 1023 - 160 + rng() % 300;
      bits = (bits & 0x800FFFFFFFFFFFFFull) | (exp << 52);
      volatile double d = std::bit_cast<double>(bits);
      std::fesetround(hostModes[m]);
      volatile float host = static_cast<float>(d);
      std::fesetround(FE_TONEAREST);
      ASSERT_EQ(f64ToF32(bits, modes[m]), f2b(host)) << std::hexfloat << d << " mode " << m;
    }
  }
}

// Integer sources round once in every direction, like the host's conversions.
TEST(Half, IntegersMatchHostInEveryMode) {
  std::mt19937_64 rng(11);
  const Rounding modes[] = {kRn, kRz, kRm, kRp};
  const int hostModes[] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
  for (int m = 0; m < 4; ++m) {
    for (int i = 0; i < 20000; ++i) {
      const uint64_t u = rng() >> (rng() % 64);
      const int64_t s = static_cast<int64_t>(rng()) >> (rng() % 64);
      volatile uint64_t vu = u;
      volatile int64_t vs = s;
      std::fesetround(hostModes[m]);
      volatile float hu = static_cast<float>(vu);
      volatile double hs = static_cast<double>(vs);
      std::fesetround(FE_TONEAREST);
      ASSERT_EQ(fromInteger<kF32>(false, u, modes[m]), f2b(hu)) << u;
      const uint64_t mag =
          s < 0 ? uint64_t{0} - static_cast<uint64_t>(s) : static_cast<uint64_t>(s);
      ASSERT_EQ(fromInteger<kF64>(s < 0, mag, modes[m]), d2b(hs)) << s;
    }
  }
  EXPECT_EQ(fromInteger<kF16>(false, 2049, kRn), 0x6800);  // tie -> even (2048)
  EXPECT_EQ(fromInteger<kF16>(false, 2051, kRn), 0x6802);  // tie -> even (2052)
  EXPECT_EQ(fromInteger<kF16>(true, 70000, kRz), 0xFBFF);
  EXPECT_EQ(fromInteger<kF16>(false, 0, kRm), 0x0000);
}

TEST(Half, RoundToOddAvoidsDoubleRounding) {
  // 261 + 2^-100: binary64 keeps 261 (a bf16 tie between 260 and 262); rounded to odd it stays
  // above the tie and rounds up correctly.
  const double p = 261.0;
  const double c = std::ldexp(1.0, -100);
  const double s = p + c;
  EXPECT_EQ(s, 261.0);
  const double odd = roundToOdd(s, twoSumError(p, c, s));
  EXPECT_EQ(fromDouble<kBf16>(s, kRn), 0x4382u);
  EXPECT_EQ(fromDouble<kBf16>(odd, kRn), 0x4383u);
  EXPECT_EQ(roundToOdd(2.0, 0.0), 2.0);
  EXPECT_LT(roundToOdd(2.0, -std::ldexp(1.0, -80)), 2.0);
}

}  // namespace
}  // namespace warpsim::func::fp
