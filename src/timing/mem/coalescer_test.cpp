#include "timing/mem/coalescer.h"

#include <gtest/gtest.h>

namespace warpsim::timing::mem {
namespace {

constexpr uint64_t kLineAddress = 0x7f00'0000'1000ull;  // 128-byte aligned

struct Out {
  LineRequest r[kMaxRequestsPerInstruction];
  uint32_t n = 0;
};

Out strided(uint64_t base, uint64_t stride, uint32_t bytes, uint32_t mask = ~0u,
            bool atomic = false) {
  uint64_t addr[32];
  for (int l = 0; l < 32; ++l) addr[l] = base + stride * l;
  Out o;
  o.n = coalesce(addr, mask, bytes, 128, 32, o.r, 0, atomic);
  return o;
}

TEST(Coalescer, UnitStrideFourBytesIsOneLineFourSectors) {
  const Out o = strided(kLineAddress, 4, 4);
  ASSERT_EQ(o.n, 1u);
  EXPECT_EQ(o.r[0].line, kLineAddress);
  EXPECT_EQ(o.r[0].sectors, 0xFu);
  EXPECT_EQ(o.r[0].lanes, ~0u);
  EXPECT_EQ(o.r[0].bytes, 128u);
  EXPECT_EQ(o.r[0].atomicOps, 1u);
}

TEST(Coalescer, Stride128IsThirtyTwoLinesInLaneOrder) {
  const Out o = strided(kLineAddress, 128, 4);
  ASSERT_EQ(o.n, 32u);
  for (uint32_t i = 0; i < 32; ++i) {
    EXPECT_EQ(o.r[i].line, kLineAddress + 128 * i);
    EXPECT_EQ(o.r[i].sectors, 0x1u);
    EXPECT_EQ(o.r[i].lanes, 1u << i);
  }
}

TEST(Coalescer, Stride32IsOneSectorPerLaneOverEightLines) {
  const Out o = strided(kLineAddress, 32, 4);
  ASSERT_EQ(o.n, 8u);
  for (uint32_t i = 0; i < 8; ++i) EXPECT_EQ(o.r[i].sectors, 0xFu);
}

TEST(Coalescer, MisalignedWarpTouchesTwoLines) {
  // Bytes [100, 228) of the line pair: line 0 sectors 3, line 1 sectors 0..3 (up to byte 99).
  const Out o = strided(kLineAddress + 100, 4, 4);
  ASSERT_EQ(o.n, 2u);
  EXPECT_EQ(o.r[0].line, kLineAddress);
  EXPECT_EQ(o.r[0].sectors, 0x8u);
  EXPECT_EQ(o.r[0].lanes, 0x7Fu);  // lanes 0..6 cover bytes 100..127
  EXPECT_EQ(o.r[1].line, kLineAddress + 128);
  EXPECT_EQ(o.r[1].sectors, 0xFu);
  EXPECT_EQ(o.r[1].bytes, 100u);
}

TEST(Coalescer, AccessCrossingALineIsSplit) {
  uint64_t addr[32] = {kLineAddress + 124};
  Out o;
  o.n = coalesce(addr, 1u, 8, 128, 32, o.r);
  ASSERT_EQ(o.n, 2u);
  EXPECT_EQ(o.r[0].sectors, 0x8u);
  EXPECT_EQ(o.r[0].bytes, 4u);
  EXPECT_EQ(o.r[1].line, kLineAddress + 128);
  EXPECT_EQ(o.r[1].sectors, 0x1u);
  EXPECT_EQ(o.r[1].bytes, 4u);
}

TEST(Coalescer, VectorAccesses) {
  const Out v2 = strided(kLineAddress, 8, 8);
  ASSERT_EQ(v2.n, 2u);
  EXPECT_EQ(v2.r[0].sectors, 0xFu);
  EXPECT_EQ(v2.r[1].sectors, 0xFu);
  EXPECT_EQ(v2.r[1].lanes, 0xFFFF0000u);
  const Out v4 = strided(kLineAddress, 16, 16);
  ASSERT_EQ(v4.n, 4u);
  EXPECT_EQ(v4.r[3].line, kLineAddress + 384);
  EXPECT_EQ(v4.r[3].lanes, 0xFF000000u);
}

TEST(Coalescer, BroadcastIsOneSectorAndCountsSharedAddresses) {
  const Out o = strided(kLineAddress + 64, 0, 4, ~0u, true);
  ASSERT_EQ(o.n, 1u);
  EXPECT_EQ(o.r[0].sectors, 0x4u);
  EXPECT_EQ(o.r[0].atomicOps, 32u);
  EXPECT_EQ(strided(kLineAddress + 64, 0, 4).r[0].atomicOps, 1u);  // loads do not count
  uint64_t addr[32];
  for (int l = 0; l < 32; ++l) addr[l] = kLineAddress + 4 * (l % 4);
  Out pairs;
  pairs.n = coalesce(addr, ~0u, 4, 128, 32, pairs.r, 0, true);
  EXPECT_EQ(pairs.r[0].atomicOps, 8u);
}

TEST(Coalescer, PartialMaskTouchesOnlyActiveLanes) {
  const Out o = strided(kLineAddress, 4, 4, 0x000000FFu);
  ASSERT_EQ(o.n, 1u);
  EXPECT_EQ(o.r[0].sectors, 0x1u);
  EXPECT_EQ(strided(kLineAddress, 4, 4, 0).n, 0u);
}

LocalWarp warpOf(uint32_t cta, uint32_t warp, uint32_t slot = 0, uint32_t rowBlocks = 1) {
  LocalWarp w;
  w.ctaLinear = cta;
  w.warpInCta = warp;
  w.slot = slot;
  w.rowBlocks = rowBlocks;
  return w;
}

TEST(Coalescer, LocalMemoryIsWordInterleavedAcrossTheWarp) {
  constexpr LocalLayout kWarp = LocalLayout::WarpMajor;
  EXPECT_EQ(localAddress(kWarp, warpOf(0, 0), 0, 0), kLocalRegionBase);
  EXPECT_EQ(localAddress(kWarp, warpOf(0, 0), 5, 0), kLocalRegionBase + 20);
  EXPECT_EQ(localAddress(kWarp, warpOf(0, 0), 0, 4), kLocalRegionBase + 128);
  EXPECT_EQ(localAddress(kWarp, warpOf(0, 0), 3, 6), kLocalRegionBase + 128 + 12 + 2);
  EXPECT_EQ(localAddress(kWarp, warpOf(0, 1), 0, 0), kLocalRegionBase + kLocalBytesPerThread * 32);
  EXPECT_EQ(localAddress(kWarp, warpOf(1, 0), 0, 0),
            kLocalRegionBase + 32 * kLocalBytesPerThread * 32);

  uint64_t offset[32], scratch[32];
  for (auto& o : offset) o = 8;
  Out o;
  o.n = coalesceLocal(offset, ~0u, 4, kWarp, warpOf(0, 0), 128, 32, o.r, 0, scratch);
  ASSERT_EQ(o.n, 1u);
  EXPECT_EQ(o.r[0].line, kLocalRegionBase + 256);
  EXPECT_EQ(o.r[0].sectors, 0xFu);
  // An 8-byte access is two words: two blocks.
  o.n = coalesceLocal(offset, ~0u, 8, kWarp, warpOf(0, 0), 128, 32, o.r, 0, scratch);
  ASSERT_EQ(o.n, 2u);
  EXPECT_EQ(o.r[1].line, kLocalRegionBase + 384);
  // Lanes at different offsets spread over blocks.
  for (int l = 0; l < 32; ++l) offset[l] = 4 * l;
  o.n = coalesceLocal(offset, ~0u, 4, kWarp, warpOf(0, 0), 128, 32, o.r, 0, scratch);
  EXPECT_EQ(o.n, 32u);
}

TEST(Coalescer, WordMajorLocalLayoutPutsWarpSlotsSideBySide) {
  constexpr LocalLayout kWord = LocalLayout::WordMajor;
  constexpr uint32_t kRow = 15 * 48;  // gtx480: 15 SMs x 48 warp slots
  // The CTA does not matter, the hardware slot does.
  EXPECT_EQ(localAddress(kWord, warpOf(7, 3, 0, kRow), 0, 0), kLocalRegionBase);
  EXPECT_EQ(localAddress(kWord, warpOf(7, 3, 1, kRow), 2, 0), kLocalRegionBase + 128 + 8);
  EXPECT_EQ(localAddress(kWord, warpOf(0, 0, 48, kRow), 0, 0), kLocalRegionBase + 48 * 128);
  // Word k of a warp is k rows further: rows of 720 blocks spread word k over the sets.
  EXPECT_EQ(localAddress(kWord, warpOf(0, 0, 5, kRow), 1, 12),
            kLocalRegionBase + (3 * kRow + 5) * 128 + 4);
  EXPECT_TRUE(isLocalAddress(
      localAddress(kWord, warpOf(0, 0, kRow - 1, kRow), 31, kLocalBytesPerThread - 1)));
  EXPECT_FALSE(isLocalAddress(kParamRegionBase));
}

TEST(Coalescer, DistinctAddressesInFirstLaneOrder) {
  uint64_t addr[32], out[32];
  for (int l = 0; l < 32; ++l) addr[l] = 100 + 4 * (l % 3);
  EXPECT_EQ(distinctAddresses(addr, ~0u, out), 3u);
  EXPECT_EQ(out[0], 100u);
  EXPECT_EQ(out[2], 108u);
  EXPECT_EQ(distinctAddresses(addr, 0x1u, out), 1u);
}

}  // namespace
}  // namespace warpsim::timing::mem
