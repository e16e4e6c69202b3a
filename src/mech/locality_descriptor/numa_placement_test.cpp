// Algorithm 2 (numa_placement.h) on hand-made descriptors, each worked out in its comment:
// bytes per zone, NUMA_PART's majority rule and ties, COMP_UTIL, the thesis's Fig. 19 example,
// the kept best across candidate bits (digest L6), priorities, and edge cases.
#include "mech/locality_descriptor/numa_placement.h"

#include <stdexcept>

#include <gtest/gtest.h>

namespace warpsim::mech::locality_descriptor {
namespace {

constexpr uint64_t KB = 1024;

// A one-dimensional structure of `bytes` bytes at `base` in D-Tiles of `tileBytes`, read by
// a one-dimensional grid of `ctas` CTAs in C-Tiles of `ctasPerTile`.
TileGeometry linear(uint64_t base, uint32_t bytes, uint32_t tileBytes, uint32_t ctas, uint32_t ctasPerTile,
                    int32_t priority = 0) {
  TileGeometry g;
  g.grid = {ctas, 1, 1};
  g.computeTile = {ctasPerTile, 1, 1};
  g.structure = {bytes, 1, 1};
  g.dataTile = {tileBytes, 1, 1};
  g.base = base;
  g.priority = priority;
  return g;
}

TEST(NumaZones, ZoneIsTheBitsFromTheZoneBit) {
  // 0x1c000 >> 14 = 7; 7 & 3 = 3.
  EXPECT_EQ(zoneOfAddress(0x1c000, 14, 4), 3u);
  EXPECT_EQ(zoneOfAddress(0x1c000, 16, 4), 1u);
  EXPECT_EQ(zoneOfAddress(0x1c000, 7, 1), 0u);
}

TEST(NumaZones, BytesPerZoneOfARange) {
  // [64, 1064) in 128-byte pieces over 4 zones (512-byte period): one whole period (128 to
  // each zone), then from 576: 64 to zone 0, 128 to zones 1, 2, 3, and 40 (1024..1063) to 0.
  std::vector<uint64_t> perZone(4);
  addBytesPerZone(ByteRange{64, 1000}, 7, perZone);
  EXPECT_EQ(perZone, (std::vector<uint64_t>{232, 256, 256, 256}));
}

TEST(NumaZones, BytesPerZoneMatchesCountingEachByte) {
  const ByteRange ranges[] = {{0, 1}, {127, 2}, {100, 5000}, {0x1234, 70000}, {65535, 65537}, {0, 0}};
  for (const ByteRange& r : ranges) {
    for (uint32_t bit : {7u, 9u, 12u}) {
      for (uint32_t zones : {1u, 2u, 4u, 8u}) {
        std::vector<uint64_t> fast(zones), slow(zones);
        addBytesPerZone(r, bit, fast);
        for (uint64_t a = r.begin; a < r.begin + r.bytes; ++a) ++slow[zoneOfAddress(a, bit, zones)];
        EXPECT_EQ(fast, slow) << "range " << r.begin << "+" << r.bytes << " bit " << bit << " zones " << zones;
      }
    }
  }
}

TEST(NumaPartition, EachCTileGoesToTheZoneHoldingMostOfItsDTile) {
  // 2 zones, bit 7 (128-byte pieces: zone 0 at [0,128), 1 at [128,256), 0 at [256,384), ...).
  // Two 192-byte D-Tiles from 64: D-Tile 0 [64,256) has 64 bytes in zone 0 and 128 in zone 1;
  // D-Tile 1 [256,448) has 128 in zone 0 and 64 in zone 1. CTA i reads D-Tile i.
  const TileGeometry g = linear(64, 384, 192, 2, 1);
  const std::vector<uint32_t> zones = numaPartition(g, 7, 2);
  EXPECT_EQ(zones, (std::vector<uint32_t>{1, 0}));
  // Each CTA finds 128 of its 192 bytes at home.
  const LocalBytes local = localBytes(g, zones, 7, 2);
  EXPECT_EQ(local.local, 256u);
  EXPECT_EQ(local.read, 384u);
}

TEST(NumaPartition, TiesGoToTheLowestZone) {
  // The 128-byte D-Tile [64,192) has 64 bytes in each of zones 0 and 1; [192,320) 64 in 1
  // and 64 in 0.
  EXPECT_EQ(numaPartition(linear(64, 256, 128, 2, 1), 7, 2), (std::vector<uint32_t>{0, 0}));
  // A 512-byte D-Tile at 0 has 128 bytes in each of 4 zones under bit 7.
  EXPECT_EQ(numaPartition(linear(0, 512, 512, 3, 3), 7, 4), (std::vector<uint32_t>{0, 0, 0}));
}

TEST(NumaPartition, TwoDimensionalDTiles) {
  // histo's geometry (tile_geometry_test.cpp): 64 x 16 elements of 4 bytes (256-byte rows),
  // D-Tile x = 8 elements (32 bytes) of every row, C-Tile x = column x of the (8,16,1) grid.
  // With 2 zones and bit 7 the zone of row y's bytes [256y + 32x, +32) is
  // (2y + x / 4) & 1 = x / 4: columns 0-3 in zone 0, 4-7 in zone 1.
  TileGeometry g;
  g.grid = {8, 16, 1};
  g.computeTile = {1, 16, 1};
  g.dataTile = {8, 16, 1};
  g.structure = {64, 16, 1};
  g.elementBytes = 4;
  g.base = 0x10000;
  g.computeDataMap = {1, 0, 0};
  const std::vector<uint32_t> zones = numaPartition(g, 7, 2);
  ASSERT_EQ(zones.size(), 128u);
  for (uint32_t id = 0; id < 128; ++id) EXPECT_EQ(zones[id], id % 8 >= 4 ? 1u : 0u) << "CTA " << id;
  // Every byte local.
  EXPECT_EQ(localBytes(g, zones, 7, 2).fraction(), 1.0);
  // Under bit 8 (256-byte pieces, one row each) rows alternate zones: each CTA half local,
  // and NUMA_PART's tie sends every column to zone 0.
  const std::vector<uint32_t> coarse = numaPartition(g, 8, 2);
  EXPECT_EQ(coarse, std::vector<uint32_t>(128, 0));
  EXPECT_EQ(localBytes(g, coarse, 8, 2).fraction(), 0.5);
}

TEST(NumaPartition, CTilesWithoutADTileAreSpreadOverTheZones) {
  // 4 CTAs, 2 D-Tiles of 128 bytes, 2 zones, bit 8: both D-Tiles in zone 0 (CTAs 0 and 1);
  // CTAs 2 and 3 have none: zones 2 % 2 = 0 and 3 % 2 = 1, and they read nothing.
  const TileGeometry g = linear(0, 256, 128, 4, 1);
  const std::vector<uint32_t> zones = numaPartition(g, 8, 2);
  EXPECT_EQ(zones, (std::vector<uint32_t>{0, 0, 0, 1}));
  const LocalBytes local = localBytes(g, zones, 8, 2);
  EXPECT_EQ(local.local, 256u);
  EXPECT_EQ(local.read, 256u);
}

TEST(NumaPartition, CompUtilCountsEachCtaOfAMixedCTileInItsOwnZone) {
  // One C-Tile of 2 CTAs reading a 128-byte D-Tile in zone 0 (bit 7): with CTA 1 moved to
  // zone 1 by another descriptor's partition, CTA 0 reads 128 local bytes and CTA 1 none.
  const TileGeometry g = linear(0, 128, 128, 2, 2);
  const std::vector<uint32_t> zones{0, 1};
  const LocalBytes local = localBytes(g, zones, 7, 2);
  EXPECT_EQ(local.local, 128u);
  EXPECT_EQ(local.read, 256u);
}

TEST(NumaPlacement, Figure19EveryAccessLocal) {
  // The thesis's Fig. 19 with 4 zones and 16 CTAs in C-Tiles of 4: structure A (256 KB,
  // highest priority) is read per 64 KB, structure B (64 KB) per 16 KB, C-Tile k reading the
  // k-th piece of each. Both are 256 KB aligned (zone bits zero at their bases).
  //   b_hi = 16: A's piece k is in zone k, so C-Tile k goes to zone k (A all local); B's piece
  //     k is in zone k under bit 14 (all local): 2 x 1 + 1 x 1 = 3, the most possible.
  //   B under bit 13 has each piece half in zones 2k, 2k + 1 (0.25), under 15 pieces 0,1 in
  //     zone 0 and 2,3 in zone 1 (0.25), under 16 all in zone 0 (0.25).
  //   b_hi <= 15 splits A's pieces over several zones (A <= 0.5): total < 3.
  const TileGeometry a = linear(0x1000000, 256 * KB, 64 * KB, 16, 4, 2);
  const TileGeometry b = linear(0x2000000, 64 * KB, 16 * KB, 16, 4, 1);
  const std::vector<TileGeometry> descriptors{b, a};  // input order is not priority order
  const NumaPlacement p = placeForNuma(descriptors, 4);
  EXPECT_EQ(p.zoneBit, (std::vector<uint32_t>{14, 16}));
  EXPECT_EQ(p.localFraction, (std::vector<double>{1.0, 1.0}));
  EXPECT_EQ(p.utilisation, 1.0);
  ASSERT_EQ(p.zoneOfCta.size(), 16u);
  for (uint32_t cta = 0; cta < 16; ++cta) EXPECT_EQ(p.zoneOfCta[cta], cta / 4) << "CTA " << cta;
}

TEST(NumaPlacement, TheBestCandidateIsKeptAcrossBits) {
  // Digest L6: the printed algorithm resets the best total for every b_hi, so it would keep
  // the last candidate with any utility (16 here). 4 zones, 16 CTAs in C-Tiles of 4;
  // A (highest): 64 KB read per 16 KB; B: 256 KB read per 64 KB, both 256 KB aligned.
  //   b_hi = 14: A's piece k in zone k (A = 1); B's piece k in zone k under 16 (B = 1): 3.
  //   b_hi = 15: A's pieces in zones 0,0,1,1 (A = 1); B at most 0.25: 2.25.
  //   b_hi = 16: all of A in zone 0 (A = 1), every CTA in zone 0; B 0.25: 2.25.
  //   b_hi = 13: A's pieces split over zones (0,1), (2,3), ... (A = 0.5): 1.5 at most.
  const TileGeometry a = linear(0x1000000, 64 * KB, 16 * KB, 16, 4, 1);
  const TileGeometry b = linear(0x2000000, 256 * KB, 64 * KB, 16, 4, 0);
  const NumaPlacement p = placeForNuma(std::vector<TileGeometry>{a, b}, 4);
  EXPECT_EQ(p.zoneBit, (std::vector<uint32_t>{14, 16}));
  EXPECT_EQ(p.utilisation, 1.0);
  for (uint32_t cta = 0; cta < 16; ++cta) EXPECT_EQ(p.zoneOfCta[cta], cta / 4) << "CTA " << cta;
}

TEST(NumaPlacement, TheHighestPriorityGetsItsLayoutAndWeightsCountInTheUtilisation) {
  // A 2 x 2 grid, one CTA per C-Tile, 4 zones. A and B are alike (4 D-Tiles of 64 KB, 256 KB
  // aligned) but A's map goes X -> Y (CTA (x,y) reads A's D-Tile x + 2y) and B's Y -> X (B's
  // D-Tile y + 2x): CTAs 0..3 read A's 0,1,2,3 and B's 0,2,1,3.
  //   b_hi = 16 for A: CTA c in zone c (A = 1); B wants its D-Tiles in zones 0,2,1,3: under
  //     16 D-Tiles 0 and 3 are home, under 15 every D-Tile is half home: 0.5 either way, the
  //     lower bit wins: 15. Total 2 x 1 + 1 x 0.5 = 2.5.
  //   b_hi = 15: A's D-Tiles split over zones (0,1), (2,3), ...: CTAs in 0,2,0,2 (A = 0.5);
  //     B at most 0.5: 1.5. b_hi <= 14: A 0.25, everything in zone 0, B 0.25: 0.75.
  TileGeometry a = linear(0x1000000, 256 * KB, 64 * KB, 1, 1, 2);
  a.grid = {2, 2, 1};
  a.computeDataMap = {1, 2, 3};
  TileGeometry b = a;
  b.base = 0x2000000;
  b.computeDataMap = {2, 1, 3};
  b.priority = 1;
  NumaPlacement p = placeForNuma(std::vector<TileGeometry>{a, b}, 4);
  EXPECT_EQ(p.zoneBit, (std::vector<uint32_t>{16, 15}));
  EXPECT_EQ(p.zoneOfCta, (std::vector<uint32_t>{0, 1, 2, 3}));
  EXPECT_EQ(p.localFraction, (std::vector<double>{1.0, 0.5}));
  EXPECT_DOUBLE_EQ(p.utilisation, 2.5 / 3);
  // B first: the mirror image. CTA c goes to the zone of B's D-Tile: 0, 2, 1, 3.
  b.priority = 3;
  p = placeForNuma(std::vector<TileGeometry>{a, b}, 4);
  EXPECT_EQ(p.zoneBit, (std::vector<uint32_t>{15, 16}));
  EXPECT_EQ(p.zoneOfCta, (std::vector<uint32_t>{0, 2, 1, 3}));
  EXPECT_EQ(p.localFraction, (std::vector<double>{0.5, 1.0}));
}

TEST(NumaPlacement, SingleCTileSharedByAllGoesToOneZone) {
  // One C-Tile over the whole grid reading a 256 KB structure spread evenly over 4 zones
  // under every candidate bit: a four-way tie, zone 0, a quarter local; the lowest bit, 7.
  // Without knowing how many CTAs a zone holds, Algorithm 2 keeps a C-Tile in one zone.
  const NumaPlacement p = placeForNuma(std::vector<TileGeometry>{linear(0x1000000, 256 * KB, 256 * KB, 8, 8)}, 4);
  EXPECT_EQ(p.zoneBit, (std::vector<uint32_t>{7}));
  EXPECT_EQ(p.zoneOfCta, std::vector<uint32_t>(8, 0));
  EXPECT_EQ(p.utilisation, 0.25);
}

TEST(NumaPlacement, ACTileOfMoreCtasThanAZoneHoldsIsSplitAcrossZones) {
  // The same C-Tile of 8 CTAs when a zone holds 2 CTAs at once: four groups of two, from zone 0
  // (the tie) on; when it holds 4: two groups; 3: ceil(8 / 3) = 3 groups of 8 / 3 CTAs.
  const std::vector<TileGeometry> shared{linear(0x1000000, 256 * KB, 256 * KB, 8, 8)};
  EXPECT_EQ(placeForNuma(shared, 4, 2).zoneOfCta, (std::vector<uint32_t>{0, 0, 1, 1, 2, 2, 3, 3}));
  EXPECT_EQ(placeForNuma(shared, 4, 4).zoneOfCta, (std::vector<uint32_t>{0, 0, 0, 0, 1, 1, 1, 1}));
  EXPECT_EQ(placeForNuma(shared, 4, 3).zoneOfCta, (std::vector<uint32_t>{0, 0, 0, 1, 1, 1, 2, 2}));
  EXPECT_EQ(placeForNuma(shared, 4, 8).zoneOfCta, std::vector<uint32_t>(8, 0));
  EXPECT_EQ(placeForNuma(shared, 4, 2).utilisation, 0.25);  // every CTA reads it all
  // A C-Tile of 2 CTAs in a zone of 2 stays whole (Figure 19's C-Tiles below are unchanged).
  EXPECT_EQ(numaPartition(linear(0x1000000, 256 * KB, 64 * KB, 8, 2), 16, 4, 2),
            numaPartition(linear(0x1000000, 256 * KB, 64 * KB, 8, 2), 16, 4));
}

TEST(NumaPlacement, GridSmallerThanTheZoneCount) {
  // 2 CTAs reading 128 bytes each, 4 zones: under bit 7 they are in zones 0 and 1, all local;
  // under 8 and above both are in zone 0, also all local: the tie keeps bit 7.
  const NumaPlacement p = placeForNuma(std::vector<TileGeometry>{linear(0x1000000, 256, 128, 2, 1)}, 4);
  EXPECT_EQ(p.zoneBit, (std::vector<uint32_t>{7}));
  EXPECT_EQ(p.zoneOfCta, (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(p.utilisation, 1.0);
}

TEST(NumaPlacement, OneZoneIsAllLocal) {
  const NumaPlacement p = placeForNuma(std::vector<TileGeometry>{linear(0x1000, 1000, 100, 10, 1)}, 1);
  EXPECT_EQ(p.zoneBit, (std::vector<uint32_t>{7}));
  EXPECT_EQ(p.zoneOfCta, std::vector<uint32_t>(10, 0));
  EXPECT_EQ(p.utilisation, 1.0);
}

TEST(NumaPlacement, BadInputsThrow) {
  const TileGeometry g = linear(0, 256, 128, 2, 1);
  EXPECT_THROW(placeForNuma(std::vector<TileGeometry>{g}, 3), std::invalid_argument);
  EXPECT_THROW(placeForNuma(std::vector<TileGeometry>{g}, 0), std::invalid_argument);
  EXPECT_THROW(placeForNuma(std::vector<TileGeometry>{}, 4), std::invalid_argument);
  EXPECT_THROW(placeForNuma(std::vector<TileGeometry>{g, linear(0, 256, 128, 4, 1)}, 4), std::invalid_argument);
  EXPECT_THROW(numaPartition(g, 7, 6), std::invalid_argument);
  EXPECT_THROW(localBytes(g, std::vector<uint32_t>{0}, 7, 2), std::invalid_argument);
}

}  // namespace
}  // namespace warpsim::mech::locality_descriptor
