// The guided prefetcher's arithmetic: D-Tile of an address, the stride distance, the targets and
// their clipping, and the active-tile table.
#include "mech/locality_descriptor/guided_prefetch.h"

#include <gtest/gtest.h>

namespace warpsim::mech::locality_descriptor {
namespace {

constexpr uint64_t kMatrixBase = 0x10000;

// 64 x 32 floats, D-Tiles of 16 columns x `rows` rows.
TileGeometry strips(uint32_t rows = 32) {
  TileGeometry g;
  g.grid = Dims{4, 1, 1};
  g.computeTile = Dims{1, 1, 1};
  g.dataTile = Dims{16, rows, 1};
  g.structure = Dims{64, 32, 1};
  g.elementBytes = 4;
  g.base = kMatrixBase;
  return g;
}

uint64_t at(uint64_t x, uint64_t y) { return kMatrixBase + (y * 64 + x) * 4; }

TEST(GuidedPrefetch, DataTileOfAnAddress) {
  EXPECT_EQ(dataTileAt(strips(), at(0, 0)), 0u);
  EXPECT_EQ(dataTileAt(strips(), at(20, 5)), 1u);
  EXPECT_EQ(dataTileAt(strips(), at(63, 31)), 3u);
  EXPECT_EQ(dataTileAt(strips(8), at(20, 9)), 5u);  // tile (1, 1) of 4 x 4
  EXPECT_FALSE(dataTileAt(strips(), kMatrixBase - 1));
  EXPECT_FALSE(dataTileAt(strips(), at(0, 32)));  // one past the end
}

TEST(GuidedPrefetch, StrideDistanceSharesTheL1AmongActiveTiles) {
  EXPECT_EQ(strideDistance(32768, 4, 64), 128u);
  EXPECT_EQ(strideDistance(32768, 1, 256), 128u);
  EXPECT_EQ(strideDistance(32768, 0, 64), 512u);  // no active tile counts as one
  EXPECT_EQ(strideDistance(100, 8, 64), 1u);      // at least one stride ahead
}

TEST(GuidedPrefetch, StridePrefetchStaysInTheTileOfTheMiss) {
  const uint64_t row = 64 * 4;
  EXPECT_EQ(stridePrefetch(strips(), at(20, 5), row, 3), at(20, 8));
  EXPECT_FALSE(stridePrefetch(strips(), at(20, 5), row, 30));       // past the structure
  EXPECT_FALSE(stridePrefetch(strips(8), at(20, 5), row, 3));       // row 8 is the next tile's
  EXPECT_EQ(stridePrefetch(strips(8), at(20, 5), row, 2), at(20, 7));
  EXPECT_FALSE(stridePrefetch(strips(), at(20, 5), 0, 3));          // no stride
  EXPECT_FALSE(stridePrefetch(strips(), kMatrixBase - 4, row, 1));  // not in the structure
}

TEST(GuidedPrefetch, NextLineInsideTheStructure) {
  EXPECT_EQ(nextLinePrefetch(strips(), kMatrixBase + 100, 128), kMatrixBase + 128);
  EXPECT_EQ(nextLinePrefetch(strips(), at(63, 31) - 128, 128), kMatrixBase + 64 * 32 * 4 - 128);
  EXPECT_FALSE(nextLinePrefetch(strips(), at(63, 31), 128));  // the last line
}

TEST(GuidedPrefetch, ActiveTilesAreThoseTouchedWithinTheWindow) {
  ActiveTiles t(4);
  EXPECT_EQ(t.touch(1), 1u);
  EXPECT_EQ(t.touch(2), 2u);
  EXPECT_EQ(t.touch(1), 2u);
  EXPECT_EQ(t.touch(3), 3u);
  EXPECT_EQ(t.touch(4), 4u);  // 2 was touched 3 touches ago: still active
  EXPECT_EQ(t.touch(4), 3u);  // now 4 ago: not
  t.clear();
  EXPECT_EQ(t.touch(4), 1u);
}

TEST(GuidedPrefetch, ActiveTilesHoldSixteenTiles) {
  ActiveTiles t(1000);
  uint32_t last = 0;
  for (uint64_t k = 0; k < 20; ++k) last = t.touch(k);
  EXPECT_EQ(last, ActiveTiles::kEntries);
  EXPECT_EQ(t.touch(0), ActiveTiles::kEntries);  // 0 was replaced: it takes the oldest entry
}

}  // namespace
}  // namespace warpsim::mech::locality_descriptor
