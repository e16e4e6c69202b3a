// The driver's pass before a launch (digest xmem-and-locality-descriptor.md s2.4, Fig. 17): the
// launch's descriptors (hints::LaunchHints) as TileGeometry, in priority order, each with the
// policies its locality type selects:
//   INTER_THREAD  CTA clustering (Algorithm 1), and
//                   COACCESSED + REGULAR    guided stride prefetching
//                   COACCESSED + IRREGULAR  soft pinning (cache prioritisation)
//                   NEARBY                  next-line prefetching
//   INTRA_THREAD  hard pinning (thrash-resistant)
//   NO_REUSE      cache bypassing
// and the cluster dimensions Algorithm 1 chooses over the clustering descriptors (none: the
// round-robin baseline). Where descriptors of one structure disagree, the one with the higher
// priority is looked up first (the components' HintTable is built in this order).
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "hints/launch_hints.h"
#include "mech/locality_descriptor/tile_geometry.h"

namespace warpsim::mech::locality_descriptor {

enum class CacheAction : uint8_t { None, Bypass, HardPin, SoftPin };
enum class PrefetchAction : uint8_t { None, NextLine, Stride };

struct DescriptorPlan {
  TileGeometry geometry;
  warpsimLocalityType type = WARPSIM_NO_REUSE;
  uint64_t strideBytes = 0;  // REGULAR: the descriptor's stride in bytes (elements x element size)
  CacheAction cache = CacheAction::None;
  PrefetchAction prefetch = PrefetchAction::None;
  bool clusters = false;     // takes part in Algorithm 1
};

struct LaunchPlan {
  std::vector<DescriptorPlan> descriptors;  // highest priority first
  std::optional<Dims> clusterDims;          // Algorithm 1's result; none without INTER_THREAD
};

// The geometry of descriptor `d` for a launch of `grid` CTAs.
TileGeometry geometryOf(const hints::LocalityDescriptor& d, const Dims& grid);

// The plan of a launch of `grid` CTAs on `smCount` SMs. Throws std::invalid_argument with the
// descriptor's problem when one does not fit the launch (TileGeometry's describeProblem).
LaunchPlan planLaunch(const hints::LaunchHints& hints, const Dims& grid, uint32_t smCount);

}  // namespace warpsim::mech::locality_descriptor
