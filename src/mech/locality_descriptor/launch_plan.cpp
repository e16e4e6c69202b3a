#include "mech/locality_descriptor/launch_plan.h"

#include <stdexcept>

#include "mech/locality_descriptor/cta_clustering.h"

namespace warpsim::mech::locality_descriptor {

namespace {

Dims dims(const warpsimDim3& v) { return Dims{v.x, v.y, v.z}; }

// Fig. 17: the policies of one descriptor's locality type and semantics.
void dispatch(DescriptorPlan& p, const hints::LocalityDescriptor& d) {
  switch (d.type) {
    case WARPSIM_INTER_THREAD:
      p.clusters = true;
      if (d.sharing == WARPSIM_NEARBY) {
        p.prefetch = PrefetchAction::NextLine;
      } else if (d.pattern == WARPSIM_REGULAR) {
        p.prefetch = PrefetchAction::Stride;
      } else {
        p.cache = CacheAction::SoftPin;
      }
      break;
    case WARPSIM_INTRA_THREAD:
      p.cache = CacheAction::HardPin;
      break;
    case WARPSIM_NO_REUSE:
      p.cache = CacheAction::Bypass;
      break;
  }
}

}  // namespace

TileGeometry geometryOf(const hints::LocalityDescriptor& d, const Dims& grid) {
  TileGeometry g;
  g.grid = grid;
  g.computeTile = dims(d.compute_tile);
  g.dataTile = dims(d.data_tile);
  g.structure = dims(d.dims);
  g.elementBytes = d.element_bytes;
  g.base = hints::baseOf(d);
  g.computeDataMap = {d.compute_data_map.x, d.compute_data_map.y, d.compute_data_map.z};
  g.priority = d.priority;
  return g;
}

LaunchPlan planLaunch(const hints::LaunchHints& hints, const Dims& grid, uint32_t smCount) {
  LaunchPlan plan;
  if (hints.locality.empty()) return plan;
  std::vector<TileGeometry> geometry;
  for (const hints::LocalityDescriptor& d : hints.locality) geometry.push_back(geometryOf(d, grid));
  if (std::string why = describeProblem(geometry); !why.empty()) {
    throw std::invalid_argument("locality descriptor: " + why);
  }
  std::vector<TileGeometry> clustering;
  for (size_t i : byPriority(geometry)) {
    const hints::LocalityDescriptor& d = hints.locality[i];
    DescriptorPlan p;
    p.geometry = geometry[i];
    p.type = static_cast<warpsimLocalityType>(d.type);  // checked when it was added
    p.strideBytes = d.pattern == WARPSIM_REGULAR ? d.stride * d.element_bytes : 0;
    dispatch(p, d);
    if (p.clusters) clustering.push_back(p.geometry);
    plan.descriptors.push_back(p);
  }
  if (!clustering.empty()) plan.clusterDims = chooseClusterDims(clustering, smCount);
  return plan;
}

}  // namespace warpsim::mech::locality_descriptor
