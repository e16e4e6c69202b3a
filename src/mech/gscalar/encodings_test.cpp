// The comparators: leading-one lane, byte-prefix count (prefix rule, divergent masks, halves),
// thermometer code and BDI delta sizes, on the paper's examples (digest s5.10).
#include <gtest/gtest.h>

#include <array>

#include "mech/gscalar/register_state.h"

namespace warpsim::mech::gscalar {
namespace {

using Lanes = std::array<uint32_t, kLanes>;

Lanes uniformLanes(uint32_t value) {
  Lanes v;
  v.fill(value);
  return v;
}

// Common MSB bytes of the active lanes measured against one chosen active lane, byte by byte.
unsigned prefixAgainstLane(const Lanes& v, uint32_t mask, unsigned refLane) {
  for (unsigned b = 0; b < 4; ++b) {
    const unsigned shift = 24 - 8 * b;
    for (unsigned l = 0; l < kLanes; ++l) {
      if ((mask >> l & 1u) && ((v[l] >> shift) & 0xFFu) != ((v[refLane] >> shift) & 0xFFu)) return b;
    }
  }
  return 4;
}

TEST(GscalarEncodings, LeadingOneLaneIsTheMostSignificantActiveLane) {
  EXPECT_EQ(leadingOneLane(0x40FAu), 14);  // Fig. 7(a)
  EXPECT_EQ(leadingOneLane(0u), -1);
  EXPECT_EQ(leadingOneLane(1u), 0);
  EXPECT_EQ(leadingOneLane(0x80000001u), 31);
}

TEST(GscalarEncodings, WorkedExampleKeepsThreeCommonBytes) {
  Lanes v;
  for (unsigned l = 0; l < kLanes; ++l) v[l] = 0xC04039C0u + 8 * (l % 8);
  EXPECT_EQ(commonMsbBytes(v.data(), kFullMask, kFullMask), 3u);
  EXPECT_EQ(thermometer(3), 0b1110);
}

TEST(GscalarEncodings, PrefixRuleStopsAtTheFirstDifferingByte) {
  Lanes v = uniformLanes(0x12345678u);
  EXPECT_EQ(commonMsbBytes(v.data(), kFullMask, kFullMask), 4u);
  v[9] = 0x92345678u;  // only the MSB differs: nothing is common, though three low bytes agree
  EXPECT_EQ(commonMsbBytes(v.data(), kFullMask, kFullMask), 0u);
  v[9] = 0x12355678u;
  EXPECT_EQ(commonMsbBytes(v.data(), kFullMask, kFullMask), 1u);
  v[9] = 0x12344678u;
  EXPECT_EQ(commonMsbBytes(v.data(), kFullMask, kFullMask), 2u);
  v[9] = 0x12345679u;
  EXPECT_EQ(commonMsbBytes(v.data(), kFullMask, kFullMask), 3u);
}

TEST(GscalarEncodings, OnlySelectedLanesCount) {
  Lanes v = uniformLanes(0xAAAA0000u);
  v[3] = 0x55550000u;
  v[20] = 0xAAAA0001u;
  EXPECT_EQ(commonMsbBytes(v.data(), kFullMask, ~(1u << 3)), 3u);        // lane 3 inactive
  EXPECT_EQ(commonMsbBytes(v.data(), kFullMask, ~(1u << 3 | 1u << 20)), 4u);
  EXPECT_EQ(commonMsbBytes(v.data(), 0x0000FFFFu, kFullMask), 0u);       // low half holds lane 3
  EXPECT_EQ(commonMsbBytes(v.data(), 0xFFFF0000u, kFullMask), 3u);       // high half holds lane 20
  EXPECT_EQ(commonMsbBytes(v.data(), 0x0000FFFFu, 0xFFFF0000u), 4u);     // nothing selected
}

TEST(GscalarEncodings, DivergentCountDoesNotDependOnTheChosenLane) {
  Lanes v;
  for (unsigned l = 0; l < kLanes; ++l) v[l] = 0xDEAD0000u + l * 0x01010101u;  // inactive lanes differ
  const uint32_t mask = 0x40FAu;  // lanes 1, 3-7, 14
  for (unsigned l = 0; l < kLanes; ++l) {
    if (mask >> l & 1u) v[l] = 0x7F3E2100u + (l % 2);  // active lanes share three bytes
  }
  EXPECT_EQ(commonMsbBytes(v.data(), kFullMask, mask), 3u);
  for (unsigned l = 0; l < kLanes; ++l) {
    if (mask >> l & 1u) {
      EXPECT_EQ(prefixAgainstLane(v, mask, l), 3u) << "reference lane " << l;
    }
  }
  for (unsigned l = 0; l < kLanes; ++l) {
    if (mask >> l & 1u) v[l] = 0x7F3E2100u;
  }
  EXPECT_EQ(commonMsbBytes(v.data(), kFullMask, mask), 4u);
  EXPECT_EQ(commonMsbBytes(v.data(), kFullMask, mask | 1u), 0u);  // lane 0 (0xDEAD0000) joins
}

TEST(GscalarEncodings, ThermometerCodes) {
  EXPECT_EQ(thermometer(0), 0b0000);
  EXPECT_EQ(thermometer(1), 0b1000);
  EXPECT_EQ(thermometer(2), 0b1100);
  EXPECT_EQ(thermometer(3), 0b1110);
  EXPECT_EQ(thermometer(4), 0b1111);
}

TEST(GscalarEncodings, BdiDeltaSizesAtTheSignedByteBoundaries) {
  Lanes v = uniformLanes(100);
  EXPECT_EQ(bdiDeltaBytes(v.data()), 0u);
  v[31] = 100 + 127;
  EXPECT_EQ(bdiDeltaBytes(v.data()), 1u);
  v[31] = 100 + 128;
  EXPECT_EQ(bdiDeltaBytes(v.data()), 2u);
  v[31] = 100 - 128;
  EXPECT_EQ(bdiDeltaBytes(v.data()), 1u);
  v[31] = 100 - 129;
  EXPECT_EQ(bdiDeltaBytes(v.data()), 2u);
  v[31] = 100 + 32767;
  EXPECT_EQ(bdiDeltaBytes(v.data()), 2u);
  v[31] = 100 + 32768;
  EXPECT_EQ(bdiDeltaBytes(v.data()), 4u);
  v[31] = 100 - 32768;
  EXPECT_EQ(bdiDeltaBytes(v.data()), 2u);
  v[31] = 100 - 32769;
  EXPECT_EQ(bdiDeltaBytes(v.data()), 4u);
  v = uniformLanes(5);
  v[0] = 0;  // the base is lane 0, not the smallest value
  v[7] = 200;
  EXPECT_EQ(bdiDeltaBytes(v.data()), 2u);
}

TEST(GscalarEncodings, CarryBoundaryFavoursBdi) {
  Lanes v;
  for (unsigned l = 0; l < kLanes; ++l) v[l] = l % 2 ? 0x0100u : 0x00FFu;
  EXPECT_EQ(commonMsbBytes(v.data(), kFullMask, kFullMask), 2u);  // 0x00 0x00 | 0x00/0x01 ...
  EXPECT_EQ(bdiDeltaBytes(v.data()), 1u);                          // numerically 1 apart
}

}  // namespace
}  // namespace warpsim::mech::gscalar
