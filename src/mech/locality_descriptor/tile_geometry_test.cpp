// The geometry of one descriptor (tile_geometry.h) on hand-made descriptors: tile counts with
// partial tiles, the compute-data map's traversal order, the D-Tile of a C-Tile, the byte
// ranges of a D-Tile, and the problems describeProblem() reports.
#include "mech/locality_descriptor/tile_geometry.h"

#include <gtest/gtest.h>

namespace warpsim::mech::locality_descriptor {
namespace {

::testing::AssertionResult mentions(const std::string& text, const char* part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "\"" << text << "\" does not mention \"" << part << "\"";
}

// Parboil histo as the thesis annotates it (digest s2.3): a 64 x 16 array of uchar4 (4 bytes),
// D-Tile (X_tile = 8, Y_len = 16, 1), C-Tile (1, GridDim.y, 1) on an (8, 16, 1) grid, map
// (1,0,0): C-Tile x reads the 8-element-wide column strip x.
TileGeometry histo() {
  TileGeometry g;
  g.grid = {8, 16, 1};
  g.computeTile = {1, 16, 1};
  g.dataTile = {8, 16, 1};
  g.structure = {64, 16, 1};
  g.elementBytes = 4;
  g.base = 0x10000;
  g.computeDataMap = {1, 0, 0};
  return g;
}

TEST(TileGeometry, HistoHasEightColumnStrips) {
  const TileGeometry g = histo();
  ASSERT_EQ(describeProblem(g), "");
  EXPECT_EQ(computeTileCount(g), 8u);
  EXPECT_EQ(dataTileCount(g), 8u);
  EXPECT_EQ(structureBytes(g), 64u * 16 * 4);
  // CTA (3,5,0) is in C-Tile (3,0,0), the fourth along X: D-Tile (3,0,0).
  const Dims tile = computeTileOf(g, Dims{3, 5, 0});
  EXPECT_EQ(tile, (Dims{3, 0, 0}));
  EXPECT_EQ(computeTileOrdinal(g, tile), 3u);
  ASSERT_EQ(dataTileOfOrdinal(g, 3), (Dims{3, 0, 0}));
  // 16 rows of 8 elements (32 bytes) from element 24 of each 64-element (256-byte) row:
  // row 0 at 0x10000 + 96 = 0x10060, row 15 at 0x10000 + (15 * 64 + 24) * 4 = 0x10f60.
  const std::vector<ByteRange> ranges = dataTileRanges(g, Dims{3, 0, 0});
  ASSERT_EQ(ranges.size(), 16u);
  EXPECT_EQ(ranges[0], (ByteRange{0x10060, 32}));
  EXPECT_EQ(ranges[1], (ByteRange{0x10160, 32}));
  EXPECT_EQ(ranges[15], (ByteRange{0x10f60, 32}));
  EXPECT_EQ(dataTileBytes(g, Dims{3, 0, 0}), 512u);
}

TEST(TileGeometry, PartialEdgeTilesCount) {
  EXPECT_EQ(tileCounts(Dims{12, 1, 1}, Dims{5, 1, 1}), (Dims{3, 1, 1}));
  EXPECT_EQ(tileCounts(Dims{8, 9, 3}, Dims{4, 4, 4}), (Dims{2, 3, 1}));
  // A tile larger than the extent: one tile.
  EXPECT_EQ(tileCounts(Dims{8, 4, 1}, Dims{1, 64, 1}), (Dims{8, 1, 1}));
}

TEST(TileGeometry, CtaLinearIdsAreXMajor) {
  const Dims grid{5, 3, 2};
  // (4,2,1): 4 + 5 * (2 + 3 * 1) = 29.
  EXPECT_EQ(ctaLinearId(grid, Dims{4, 2, 1}), 29u);
  EXPECT_EQ(ctaCoordinates(grid, 29), (Dims{4, 2, 1}));
  for (uint32_t id = 0; id < grid.count(); ++id) EXPECT_EQ(ctaLinearId(grid, ctaCoordinates(grid, id)), id);
}

TEST(TileGeometry, MapRanksGiveTheComputeTileOrder) {
  // Grid (4,6,2) in C-Tiles of (2,2,1): a (2,3,2) grid of C-Tiles. Map (3,1,2) traverses
  // Y -> Z -> X (Y fastest): ordinal = y + 3 * (z + 2 * x).
  TileGeometry g;
  g.grid = {4, 6, 2};
  g.computeTile = {2, 2, 1};
  g.computeDataMap = {3, 1, 2};
  g.structure = {16, 3, 1};  // D-Tiles (4,1,1): a (4,3,1) grid of 12, numbered X -> Y
  g.dataTile = {4, 1, 1};
  ASSERT_EQ(describeProblem(g), "");
  EXPECT_EQ(computeTileOrdinal(g, Dims{0, 0, 0}), 0u);
  EXPECT_EQ(computeTileOrdinal(g, Dims{0, 1, 0}), 1u);
  EXPECT_EQ(computeTileOrdinal(g, Dims{0, 0, 1}), 3u);
  EXPECT_EQ(computeTileOrdinal(g, Dims{1, 0, 0}), 6u);
  // CTA (3,5,1) is in C-Tile (1,2,1): 2 + 3 * (1 + 2 * 1) = 11, D-Tile (11 % 4, 11 / 4, 0).
  EXPECT_EQ(computeTileOrdinal(g, computeTileOf(g, Dims{3, 5, 1})), 11u);
  EXPECT_EQ(dataTileOfOrdinal(g, 11), (Dims{3, 2, 0}));
  EXPECT_EQ(dataTileOfOrdinal(g, 6), (Dims{2, 1, 0}));
  // Only 12 D-Tiles: the ordinal 12 has none.
  EXPECT_EQ(dataTileOfOrdinal(g, 12), std::nullopt);
}

TEST(TileGeometry, DefaultMapIsXThenYThenZ) {
  TileGeometry g;
  g.grid = {4, 4, 2};
  g.computeTile = {2, 2, 1};  // (2,2,2) C-Tiles: ordinal = x + 2 * (y + 2 * z)
  EXPECT_EQ(computeTileOrdinal(g, Dims{1, 0, 1}), 5u);
  EXPECT_EQ(computeTileOrdinal(g, Dims{0, 1, 1}), 6u);
}

TEST(TileGeometry, RangesMergeWhereTheTileSpansWholeRowsOrPlanes) {
  TileGeometry g;
  g.structure = {8, 4, 2};  // 2-byte elements: rows of 16 bytes, planes of 64
  g.elementBytes = 2;
  g.base = 0x1000;
  // Whole rows 2..3 of plane 1: one range from (1 * 4 + 2) * 16 = 96.
  g.dataTile = {8, 2, 1};
  EXPECT_EQ(dataTileRanges(g, Dims{0, 1, 1}), (std::vector<ByteRange>{{0x1000 + 96, 32}}));
  // Whole planes: plane 1 from 64.
  g.dataTile = {8, 4, 1};
  EXPECT_EQ(dataTileRanges(g, Dims{0, 0, 1}), (std::vector<ByteRange>{{0x1000 + 64, 64}}));
  // Part of the rows: one range per row, rows 0..1 of planes 0..1.
  g.dataTile = {4, 2, 2};
  EXPECT_EQ(dataTileRanges(g, Dims{1, 0, 0}), (std::vector<ByteRange>{{0x1000 + 8, 8},
                                                                       {0x1000 + 24, 8},
                                                                       {0x1000 + 72, 8},
                                                                       {0x1000 + 88, 8}}));
}

TEST(TileGeometry, EdgeDataTilesAreClipped) {
  // A 10 x 3 byte structure in D-Tiles of (4,2,1): D-Tile (2,1,0) holds elements x 8..9 of
  // row 2 only, at 2 * 10 + 8 = 28.
  TileGeometry g;
  g.structure = {10, 3, 1};
  g.dataTile = {4, 2, 1};
  EXPECT_EQ(dataTileCount(g), 6u);
  EXPECT_EQ(dataTileRanges(g, Dims{2, 1, 0}), (std::vector<ByteRange>{{28, 2}}));
  EXPECT_EQ(dataTileBytes(g, Dims{2, 1, 0}), 2u);
  EXPECT_EQ(dataTileBytes(g, Dims{0, 0, 0}), 8u);
}

TEST(TileGeometry, ByPriorityIsHighestFirstAndStable) {
  std::vector<TileGeometry> d(4);
  d[0].priority = 1;
  d[1].priority = 5;
  d[2].priority = 1;
  d[3].priority = 7;
  EXPECT_EQ(byPriority(d), (std::vector<size_t>{3, 1, 0, 2}));
}

TEST(TileGeometry, ProblemsAreNamed) {
  TileGeometry g = histo();
  g.grid.y = 0;
  EXPECT_TRUE(mentions(describeProblem(g), "grid (8,0,1) has a zero dimension"));
  g = histo();
  g.computeTile.x = 0;
  EXPECT_TRUE(mentions(describeProblem(g), "C-Tile (0,16,1)"));
  g = histo();
  g.dataTile.z = 0;
  EXPECT_TRUE(mentions(describeProblem(g), "D-Tile (8,16,0)"));
  g = histo();
  g.structure.x = 0;
  EXPECT_TRUE(mentions(describeProblem(g), "structure (0,16,1)"));
  g = histo();
  g.elementBytes = 0;
  EXPECT_TRUE(mentions(describeProblem(g), "element size is 0"));
  g = histo();
  g.base = UINT64_MAX - 100;
  EXPECT_TRUE(mentions(describeProblem(g), "past the end of the address space"));
  g = histo();
  g.grid = {65536, 65536, 1};
  g.computeTile = {65536, 65536, 1};
  EXPECT_TRUE(mentions(describeProblem(g), "2^32 CTAs or more"));
  g = histo();
  g.computeDataMap = {1, 1, 0};
  EXPECT_TRUE(mentions(describeProblem(g), "repeats rank 1"));
  g = histo();
  g.computeDataMap = {4, 0, 0};
  EXPECT_TRUE(mentions(describeProblem(g), "rank 4 is not 0 to 3"));
  // Rank 0 on Y while the C-Tile covers half the grid's Y: two C-Tiles along Y (digest L4).
  g = histo();
  g.computeTile = {1, 8, 1};
  EXPECT_TRUE(mentions(describeProblem(g), "does not traverse Y but the grid holds 2 C-Tiles along it"));
}

TEST(TileGeometry, ProblemsOfALaunchsDescriptors) {
  EXPECT_EQ(describeProblem(std::span<const TileGeometry>{}), "no descriptors");
  std::vector<TileGeometry> d{histo(), histo()};
  EXPECT_EQ(describeProblem(d), "");
  d[1].grid = {8, 8, 1};
  d[1].computeTile = {1, 8, 1};
  EXPECT_EQ(describeProblem(d), "descriptor 1 has grid (8,8,1) but descriptor 0 has (8,16,1)");
  d[1] = histo();
  d[1].elementBytes = 0;
  EXPECT_EQ(describeProblem(d), "descriptor 1: the element size is 0 bytes");
}

}  // namespace
}  // namespace warpsim::mech::locality_descriptor
