// Algorithm 1 (cta_clustering.h) on hand-made descriptors, each worked out in its comment:
// the split step (odd halving, partial tiles, ties), the merge step (floor, accepted, rejected),
// priority order, small grids; then the cluster list and the round-robin assignment.
#include "mech/locality_descriptor/cta_clustering.h"

#include <stdexcept>

#include <gtest/gtest.h>

namespace warpsim::mech::locality_descriptor {
namespace {

// The geometry of a descriptor of grid `grid` with C-Tile `tile` (the data side does not matter
// to Algorithm 1; the default map traverses X -> Y -> Z).
TileGeometry geometry(Dims grid, Dims tile, int32_t priority = 0) {
  TileGeometry g;
  g.grid = grid;
  g.computeTile = tile;
  g.priority = priority;
  return g;
}

Dims clusterDims(std::vector<TileGeometry> descriptors, uint32_t sms) {
  return chooseClusterDims(descriptors, sms);
}

TEST(CtaClustering, HistoSplitsAlongYUntilEverySmHasACluster) {
  // Grid (8,16,1), C-Tile (1,16,1), 15 SMs: 8 C-Tiles < 15, so halve the largest dimension,
  // Y: (1,8,1), 8 x 2 = 16 C-Tiles >= 15. Stop.
  const TileGeometry histo = geometry({8, 16, 1}, {1, 16, 1});
  EXPECT_EQ(splitForLoadBalance(histo, 15), (Dims{1, 8, 1}));
  EXPECT_EQ(clusterDims({histo}, 15), (Dims{1, 8, 1}));
}

TEST(CtaClustering, EnoughCTilesAreNotSplit) {
  // 16 C-Tiles of (1,16,1) on a (16,16,1) grid already cover 15 SMs.
  EXPECT_EQ(clusterDims({geometry({16, 16, 1}, {1, 16, 1})}, 15), (Dims{1, 16, 1}));
}

TEST(CtaClustering, OddExtentKeepsTheLargerHalfAndPartialTilesCount) {
  // Grid (12,1,1), C-Tile (5,1,1), 4 SMs: ceil(12 / 5) = 3 C-Tiles (the last of 2 CTAs) < 4;
  // halve 5 to ceil(5 / 2) = 3: ceil(12 / 3) = 4 >= 4. (Halving to 2 would give 6.)
  EXPECT_EQ(clusterDims({geometry({12, 1, 1}, {5, 1, 1})}, 4), (Dims{3, 1, 1}));
}

TEST(CtaClustering, TiesSplitXBeforeYBeforeZ) {
  // Grid (8,8,2), C-Tile (4,4,2), 8 SMs: 2 x 2 x 1 = 4 < 8; X and Y tie at 4, X first:
  // (2,4,2), 4 x 2 x 1 = 8. Stop.
  EXPECT_EQ(clusterDims({geometry({8, 8, 2}, {4, 4, 2})}, 8), (Dims{2, 4, 2}));
  // Grid (4,4,8) as one C-Tile, 16 SMs: (4,4,8) 1 -> Z (4,4,4) 2 -> X (2,4,4) 4 ->
  // Y (2,2,4) 8 -> Z (2,2,2): 2 x 2 x 4 = 16. Stop.
  EXPECT_EQ(clusterDims({geometry({4, 4, 8}, {4, 4, 8})}, 16), (Dims{2, 2, 2}));
}

TEST(CtaClustering, CTileLargerThanTheGridIsClampedFirst) {
  // C-Tile (1,64,1) on a (8,4,1) grid covers Y's 4 CTAs: (1,4,1), 8 C-Tiles >= 4 SMs.
  EXPECT_EQ(clusterDims({geometry({8, 4, 1}, {1, 64, 1})}, 4), (Dims{1, 4, 1}));
}

TEST(CtaClustering, GridSmallerThanTheSmCountSplitsToSingleCtas) {
  // 4 CTAs, 15 SMs: (2,2,1) -> X (1,2,1) -> Y (1,1,1), 4 clusters: the split stops at one CTA.
  EXPECT_EQ(clusterDims({geometry({2, 2, 1}, {2, 2, 1})}, 15), (Dims{1, 1, 1}));
}

TEST(CtaClustering, SingleCtaGrid) {
  EXPECT_EQ(clusterDims({geometry({1, 1, 1}, {1, 1, 1})}, 15), (Dims{1, 1, 1}));
  EXPECT_EQ(clusterDims({geometry({1, 1, 1}, {4, 4, 4})}, 1), (Dims{1, 1, 1}));
}

TEST(CtaClustering, MergeAcceptedThenRejected) {
  // Grid (32,16,1), 15 SMs, three descriptors by priority:
  //   D1 (1,16,1): 32 C-Tiles, no split; clusters (1,16,1).
  //   D2 (2,4,1): 16 x 4 = 64, no split. Merge: (1 * max(2 / 1, 1), 16 * max(4 / 16, 1), 1)
  //      = (2,16,1): 16 x 1 = 16 >= 15, accepted.
  //   D3 (4,1,1): 8 x 16, no split. Merge: (2 * max(4 / 2, 1), 16 * max(1 / 16, 1), 1)
  //      = (4,16,1): 8 x 1 = 8 < 15, rejected.
  const Dims grid{32, 16, 1};
  const TileGeometry d1 = geometry(grid, {1, 16, 1}, 3);
  const TileGeometry d2 = geometry(grid, {2, 4, 1}, 2);
  const TileGeometry d3 = geometry(grid, {4, 1, 1}, 1);
  EXPECT_EQ(clusterDims({d1, d2}, 15), (Dims{2, 16, 1}));
  EXPECT_EQ(clusterDims({d1, d2, d3}, 15), (Dims{2, 16, 1}));
  EXPECT_EQ(clusterDims({d1, d3}, 15), (Dims{1, 16, 1}));
}

TEST(CtaClustering, MergeUsesTheSplitCTileOfTheLowerDescriptor) {
  // Grid (8,16,1), 15 SMs. D1 (1,16,1) splits to (1,8,1) (16 clusters). D2 covers the grid,
  // (8,16,1): 1 -> Y (8,8,1) 2 -> X (4,8,1) 4 -> Y (4,4,1) 8 -> X (2,4,1) 16. Merge:
  // (1 * max(2 / 1, 1), 8 * max(4 / 8, 1), 1) = (2,8,1): 4 x 2 = 8 < 15, rejected.
  const Dims grid{8, 16, 1};
  const TileGeometry d2 = geometry(grid, {8, 16, 1}, 1);
  EXPECT_EQ(splitForLoadBalance(d2, 15), (Dims{2, 4, 1}));
  EXPECT_EQ(clusterDims({geometry(grid, {1, 16, 1}, 2), d2}, 15), (Dims{1, 8, 1}));
}

TEST(CtaClustering, MergeTakesTheFloorOfTheRatio) {
  // Grid (32,4,1), 4 SMs. D1 (2,4,1): 16 C-Tiles. D2 (7,2,1): 5 x 2 = 10, no split. Merge:
  // (2 * max(7 / 2 = 3, 1), 4 * max(2 / 4 = 0, 1), 1) = (6,4,1): ceil(32 / 6) = 6 clusters
  // (the last of 2 CTAs wide) >= 4, accepted.
  const Dims grid{32, 4, 1};
  EXPECT_EQ(clusterDims({geometry(grid, {2, 4, 1}, 1), geometry(grid, {7, 2, 1}, 0)}, 4), (Dims{6, 4, 1}));
}

TEST(CtaClustering, PriorityNotInputOrderDecides) {
  // MergeAcceptedThenRejected's descriptors given in another order: the same clusters.
  const Dims grid{32, 16, 1};
  TileGeometry d1 = geometry(grid, {1, 16, 1}, 3);
  TileGeometry d2 = geometry(grid, {2, 4, 1}, 2);
  TileGeometry d3 = geometry(grid, {4, 1, 1}, 1);
  EXPECT_EQ(clusterDims({d3, d1, d2}, 15), (Dims{2, 16, 1}));
  // D3 highest: clusters (4,1,1). D1: (4 * max(1 / 4, 1), 1 * 16, 1) = (4,16,1), 8 < 15,
  // rejected. D2: (4 * max(2 / 4, 1), 1 * 4, 1) = (4,4,1): 8 x 4 = 32, accepted.
  d3.priority = 9;
  EXPECT_EQ(clusterDims({d1, d2, d3}, 15), (Dims{4, 4, 1}));
}

TEST(CtaClustering, BadInputsThrow) {
  const TileGeometry d = geometry({8, 16, 1}, {1, 16, 1});
  EXPECT_THROW(clusterDims({d}, 0), std::invalid_argument);
  EXPECT_THROW(clusterDims({}, 15), std::invalid_argument);
  EXPECT_THROW(clusterDims({d, geometry({8, 8, 1}, {1, 8, 1})}, 15), std::invalid_argument);
  EXPECT_THROW(clusterDims({geometry({8, 16, 1}, {1, 0, 1})}, 15), std::invalid_argument);
}

TEST(ClusterList, ClustersInXYZOrderWithPartialClustersAtTheEdge) {
  // Grid (5,2,1) in clusters of (2,2,1): three clusters along X, the last one CTA wide. CTA
  // (x,y) has id x + 5y.
  const ClusterList list = listClusters(Dims{5, 2, 1}, Dims{2, 2, 1});
  ASSERT_EQ(list.size(), 3u);
  EXPECT_EQ(std::vector<uint32_t>(list.cluster(0).begin(), list.cluster(0).end()), (std::vector<uint32_t>{0, 1, 5, 6}));
  EXPECT_EQ(std::vector<uint32_t>(list.cluster(1).begin(), list.cluster(1).end()), (std::vector<uint32_t>{2, 3, 7, 8}));
  EXPECT_EQ(std::vector<uint32_t>(list.cluster(2).begin(), list.cluster(2).end()), (std::vector<uint32_t>{4, 9}));
}

TEST(ClusterList, ClustersAlongZ) {
  // Grid (2,2,2) in clusters of (1,1,2): each cluster is a column along Z; CTA (x,y,z) has id
  // x + 2y + 4z.
  const ClusterList list = listClusters(Dims{2, 2, 2}, Dims{1, 1, 2});
  ASSERT_EQ(list.size(), 4u);
  EXPECT_EQ(list.ctas, (std::vector<uint32_t>{0, 4, 1, 5, 2, 6, 3, 7}));
  EXPECT_EQ(list.first, (std::vector<uint32_t>{0, 2, 4, 6, 8}));
}

TEST(ClusterList, HistoClustersAreHalfColumns) {
  // Grid (8,16,1) in clusters of (1,8,1): cluster i is column i % 8, rows 0..7 for i < 8 and
  // rows 8..15 after; CTA (x,y) has id x + 8y.
  const ClusterList list = listClusters(Dims{8, 16, 1}, Dims{1, 8, 1});
  ASSERT_EQ(list.size(), 16u);
  EXPECT_EQ(std::vector<uint32_t>(list.cluster(0).begin(), list.cluster(0).end()),
            (std::vector<uint32_t>{0, 8, 16, 24, 32, 40, 48, 56}));
  EXPECT_EQ(std::vector<uint32_t>(list.cluster(9).begin(), list.cluster(9).end()),
            (std::vector<uint32_t>{65, 73, 81, 89, 97, 105, 113, 121}));
  EXPECT_EQ(list.ctas.size(), 128u);
}

TEST(ClusterList, ZeroDimensionsThrow) {
  EXPECT_THROW(listClusters(Dims{0, 1, 1}, Dims{1, 1, 1}), std::invalid_argument);
  EXPECT_THROW(listClusters(Dims{1, 1, 1}, Dims{1, 0, 1}), std::invalid_argument);
}

TEST(ClusterAssignment, RoundRobinOverTheOrderedList) {
  EXPECT_EQ(assignClustersRoundRobin(5, 2), (std::vector<uint32_t>{0, 1, 0, 1, 0}));
  // Fewer clusters than SMs: some SMs get none (the split step avoids this when it can).
  EXPECT_EQ(assignClustersRoundRobin(3, 15), (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_EQ(assignClustersRoundRobin(16, 15)[15], 0u);
  EXPECT_THROW(assignClustersRoundRobin(3, 0), std::invalid_argument);
}

}  // namespace
}  // namespace warpsim::mech::locality_descriptor
