#include "mech/locality_descriptor/cta_clustering.h"

#include <algorithm>
#include <stdexcept>

namespace warpsim::mech::locality_descriptor {

namespace {

// The first of X, Y, Z with the largest extent.
int largestDimension(const Dims& d) {
  int largest = 0;
  for (int i = 1; i < 3; ++i) {
    if (d[i] > d[largest]) largest = i;
  }
  return largest;
}

}  // namespace

Dims splitForLoadBalance(const TileGeometry& descriptor, uint32_t smCount) {
  Dims tile;
  for (int d = 0; d < 3; ++d) tile[d] = std::min(descriptor.computeTile[d], descriptor.grid[d]);
  while (tileCounts(descriptor.grid, tile).count() < smCount && !(tile == Dims{1, 1, 1})) {
    uint32_t& extent = tile[largestDimension(tile)];
    extent = extent / 2 + extent % 2;  // ceil: an odd extent keeps the larger half
  }
  return tile;
}

Dims chooseClusterDims(std::span<const TileGeometry> descriptors, uint32_t smCount) {
  if (std::string why = describeProblem(descriptors); !why.empty()) {
    throw std::invalid_argument("locality descriptor: " + why);
  }
  if (smCount == 0) throw std::invalid_argument("locality descriptor: clustering for 0 SMs");
  const std::vector<size_t> order = byPriority(descriptors);
  const Dims& grid = descriptors[0].grid;
  Dims cluster = splitForLoadBalance(descriptors[order[0]], smCount);
  for (size_t i = 1; i < order.size(); ++i) {
    const Dims tile = splitForLoadBalance(descriptors[order[i]], smCount);
    Dims merged;
    for (int d = 0; d < 3; ++d) merged[d] = cluster[d] * std::max<uint32_t>(tile[d] / cluster[d], 1);
    if (tileCounts(grid, merged).count() >= smCount) cluster = merged;
  }
  return cluster;
}

ClusterList listClusters(const Dims& grid, const Dims& cluster) {
  if (grid.count() == 0 || cluster.count() == 0) {
    throw std::invalid_argument("locality descriptor: clusters of a grid or cluster with a zero dimension");
  }
  if (grid.count() > UINT32_MAX) {
    throw std::invalid_argument("locality descriptor: clusters of a grid of 2^32 CTAs or more");
  }
  const Dims clusters = tileCounts(grid, cluster);
  ClusterList list;
  list.ctas.reserve(grid.count());
  list.first.reserve(clusters.count() + 1);
  for (uint32_t cz = 0; cz < clusters.z; ++cz) {
    for (uint32_t cy = 0; cy < clusters.y; ++cy) {
      for (uint32_t cx = 0; cx < clusters.x; ++cx) {
        list.first.push_back(static_cast<uint32_t>(list.ctas.size()));
        forEachCtaOfTile(grid, cluster, Dims{cx, cy, cz}, [&](uint32_t cta) { list.ctas.push_back(cta); });
      }
    }
  }
  list.first.push_back(static_cast<uint32_t>(list.ctas.size()));
  return list;
}

std::vector<uint32_t> assignClustersRoundRobin(size_t clusterCount, uint32_t smCount) {
  if (smCount == 0) throw std::invalid_argument("locality descriptor: clusters assigned to 0 SMs");
  std::vector<uint32_t> sm(clusterCount);
  for (size_t i = 0; i < clusterCount; ++i) sm[i] = static_cast<uint32_t>(i % smCount);
  return sm;
}

}  // namespace warpsim::mech::locality_descriptor
