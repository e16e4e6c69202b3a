// CTA clustering, the driver's part (digest xmem-and-locality-descriptor.md s2.4.1, Algorithm 1):
// the cluster dimensions chosen from the launch's INTER-THREAD descriptors, the ordered list of
// clusters, and a static assignment of clusters to SMs. Which descriptors take part (the Fig. 17
// dispatch) and the run-time dispatch of CTAs (queues, stealing) belong to the callers.
//
// Choices where the thesis is silent (README.md):
//   - halving an odd C-Tile dimension keeps the larger half: ceil(d / 2);
//   - CT_NUM counts partial edge C-Tiles (ceil per dimension, tileCounts());
//   - "the largest dimension" on a tie is the first of X, Y, Z;
//   - a C-Tile larger than the grid along a dimension is first clamped to the grid there.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "mech/locality_descriptor/tile_geometry.h"

namespace warpsim::mech::locality_descriptor {

// Algorithm 1's step 1 for one descriptor: its C-Tile (clamped to the grid), halved along its
// largest dimension while the grid holds fewer than `smCount` C-Tiles and the C-Tile is not
// (1,1,1).
Dims splitForLoadBalance(const TileGeometry& descriptor, uint32_t smCount);

// Algorithm 1: the cluster dimensions in CTAs. Step 1 splits every descriptor's C-Tile
// (splitForLoadBalance); the clusters start as the highest-priority descriptor's split C-Tile;
// step 2 takes each lower-priority descriptor in turn and merges, per dimension,
//   merged_d = cluster_d * max(floor(ctile_d / cluster_d), 1),
// keeping the merge only if the grid still holds at least `smCount` clusters.
// Descriptors in any order (byPriority()); throws std::invalid_argument when describeProblem()
// finds a problem or smCount is 0.
Dims chooseClusterDims(std::span<const TileGeometry> descriptors, uint32_t smCount);

// The clusters of a grid in X -> Y -> Z order over the grid of clusters (partial clusters at
// the far edges), each the linear ids of its CTAs in X -> Y -> Z order. Flat: cluster i is
// ctas[first[i] .. first[i + 1]).
struct ClusterList {
  std::vector<uint32_t> ctas;
  std::vector<uint32_t> first;  // size() + 1 entries

  size_t size() const { return first.empty() ? 0 : first.size() - 1; }
  std::span<const uint32_t> cluster(size_t i) const {
    return std::span<const uint32_t>(ctas).subspan(first[i], first[i + 1] - first[i]);
  }
};

// Throws std::invalid_argument on a zero dimension or a grid of 2^32 CTAs or more.
ClusterList listClusters(const Dims& grid, const Dims& cluster);

// The SM of each cluster: cluster i to SM i mod smCount (round robin over the ordered list,
// the digest's [interp]). Throws std::invalid_argument if smCount is 0.
std::vector<uint32_t> assignClustersRoundRobin(size_t clusterCount, uint32_t smCount);

}  // namespace warpsim::mech::locality_descriptor
