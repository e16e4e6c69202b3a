// Zone placement "descriptors": the ranges Algorithm 2's bits are applied to, and the zones of
// addresses after a launch's descriptors.
#include "mech/locality_descriptor/descriptor_zone_placement.h"

#include <gtest/gtest.h>

#include <string>

#include "hints/launch_hints.h"
#include "mech/locality_descriptor/test_descriptors.h"

namespace warpsim::mech::locality_descriptor {
namespace {

using timing::mem::ZoneBitsRange;

constexpr uint64_t kBlock = 256 * 1024;

// "base+size@bit", so that a mismatch prints both ranges.
std::string str(const ZoneBitsRange& r) {
  return std::to_string(r.base) + "+" + std::to_string(r.size) + "@" + std::to_string(r.bit);
}

TEST(DescriptorZonePlacement, RangesAreWidenedToBlocksAndTheEarlierKeepsASharedBlock) {
  const std::vector<ZoneBitsRange> got = blockAlignedRanges(
      {{kBlock + 100, 2 * kBlock, 7},       // blocks 1..3 (widened)
       {3 * kBlock + 500, kBlock, 12},      // blocks 3..4: block 3 is taken
       {10 * kBlock, kBlock, 7},            // block 10
       {11 * kBlock, 4096, 7}},             // block 11: merges with block 10 (same bit)
      kBlock);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(str(got[0]), str(ZoneBitsRange{kBlock, 3 * kBlock, 7}));
  EXPECT_EQ(str(got[1]), str(ZoneBitsRange{4 * kBlock, kBlock, 12}));
  EXPECT_EQ(str(got[2]), str(ZoneBitsRange{10 * kBlock, 2 * kBlock, 7}));
}

TEST(DescriptorZonePlacement, ARangeInsideATakenOneAddsNothing) {
  const std::vector<ZoneBitsRange> got =
      blockAlignedRanges({{0, 4 * kBlock, 16}, {kBlock, 10, 7}, {0, 0, 9}}, kBlock);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(str(got[0]), str(ZoneBitsRange{0, 4 * kBlock, 16}));
}

TEST(DescriptorZonePlacement, TheLaunchsStructureIsInterleavedAtItsBit) {
  // The 64 x 64 float matrix of columnStrips: Algorithm 2 chooses bit 7 on 2 zones (every
  // 128-byte half row local to its strip's CTAs); the block is 2^17 bytes.
  DescriptorZonePlacement p(2, 8);
  EXPECT_EQ(p.blockBytes(), 128u * 1024);
  hints::LaunchHints h;
  const uint64_t base = 0x100000;
  h.locality.push_back(testing::columnStrips(base));
  const uint32_t grid[3] = {4, 4, 1};
  p.beginLaunch(&h, grid, 0);
  ASSERT_EQ(p.ranges().size(), 1u);
  EXPECT_EQ(p.ranges()[0].bit, 7u);
  EXPECT_EQ(p.place(base, 0).zone, 0u);
  EXPECT_EQ(p.place(base + 128, 0).zone, 1u);
  EXPECT_EQ(p.place(base + 256, 0).zone, 0u);
  p.beginLaunch(nullptr, grid, 0);  // a launch without descriptors: the pages stay where they are
  ASSERT_EQ(p.ranges().size(), 1u);
  EXPECT_EQ(p.place(base + 128, 0).zone, 1u);
}

TEST(DescriptorZonePlacement, ALaterLaunchKeepsTheBitOfAStructureAlreadyPlaced) {
  // Read in row strips alone, the matrix would be interleaved in 4 KB pieces (one strip per
  // piece); read so after a launch that placed it by column strips, it keeps bit 7.
  const uint64_t base = 0x100000;
  const uint32_t grid[3] = {4, 4, 1};
  hints::LaunchHints rows;
  rows.locality.push_back(testing::rowStrips(base));
  DescriptorZonePlacement fresh(2, 8);
  fresh.beginLaunch(&rows, grid, 0);
  ASSERT_EQ(fresh.ranges().size(), 1u);
  EXPECT_EQ(fresh.ranges()[0].bit, 12u);

  DescriptorZonePlacement p(2, 8);
  hints::LaunchHints columns;
  columns.locality.push_back(testing::columnStrips(base));
  p.beginLaunch(&columns, grid, 0);
  p.beginLaunch(&rows, grid, 0);
  ASSERT_EQ(p.ranges().size(), 1u);
  EXPECT_EQ(p.ranges()[0].bit, 7u);
  EXPECT_EQ(p.place(base + 128, 0).zone, 1u);
}

}  // namespace
}  // namespace warpsim::mech::locality_descriptor
