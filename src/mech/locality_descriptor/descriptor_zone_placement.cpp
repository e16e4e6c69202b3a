#include "mech/locality_descriptor/descriptor_zone_placement.h"

#include <algorithm>
#include <bit>
#include <nlohmann/json.hpp>

#include "hints/launch_hints.h"
#include "mech/locality_descriptor/launch_plan.h"

namespace warpsim::mech::locality_descriptor {

using timing::mem::ZoneBitsRange;

std::vector<ZoneBitsRange> blockAlignedRanges(const std::vector<ZoneBitsRange>& inPriorityOrder,
                                              uint64_t block) {
  std::vector<ZoneBitsRange> taken;  // sorted by base, disjoint, block-aligned
  for (const ZoneBitsRange& r : inPriorityOrder) {
    if (r.size == 0) continue;
    uint64_t lo = r.base / block * block;
    const uint64_t hi = (r.base + r.size + block - 1) / block * block;
    // The parts of [lo, hi) no earlier range holds.
    std::vector<ZoneBitsRange> pieces;
    for (const ZoneBitsRange& t : taken) {
      if (t.base + t.size <= lo || t.base >= hi) continue;
      if (t.base > lo) pieces.push_back({lo, t.base - lo, r.bit});
      lo = std::max(lo, t.base + t.size);
    }
    if (lo < hi) pieces.push_back({lo, hi - lo, r.bit});
    for (const ZoneBitsRange& p : pieces) {
      taken.insert(std::upper_bound(taken.begin(), taken.end(), p,
                                    [](const ZoneBitsRange& a, const ZoneBitsRange& b) { return a.base < b.base; }),
                   p);
    }
  }
  std::vector<ZoneBitsRange> merged;
  for (const ZoneBitsRange& t : taken) {
    if (!merged.empty() && merged.back().bit == t.bit && merged.back().base + merged.back().size == t.base) {
      merged.back().size += t.size;
    } else {
      merged.push_back(t);
    }
  }
  return merged;
}

DescriptorZonePlacement::DescriptorZonePlacement(uint32_t zones, uint32_t xorBit)
    : zones_(zones),
      block_(uint64_t{1} << (kLastZoneBit + std::countr_zero(std::bit_ceil(std::max<uint32_t>(zones, 1))))),
      inner_(zones, xorBit) {}

void DescriptorZonePlacement::beginLaunch(const hints::LaunchHints* hints, const uint32_t grid[3],
                                          uint32_t ctasPerZone) {
  // A launch without descriptors keeps the placement: pages do not move (placement_history.h).
  if (hints == nullptr || hints->locality.empty()) return;
  const Dims g{grid[0], grid[1], grid[2]};
  std::vector<TileGeometry> geometry;
  for (const hints::LocalityDescriptor& d : hints->locality) geometry.push_back(geometryOf(d, g));
  utilisation_ = history_.place(geometry, zones_, ctasPerZone).utilisation;
  // The structures placed earlier come first, so they keep the blocks they took.
  inner_.setRanges(blockAlignedRanges(history_.structures(), block_));
}

void DescriptorZonePlacement::reportStats(nlohmann::json& out) const {
  nlohmann::json ranges = nlohmann::json::array();
  for (const ZoneBitsRange& r : inner_.ranges()) ranges.push_back({{"base", r.base}, {"bytes", r.size}, {"bit", r.bit}});
  out["placement"] = {{"ranges", ranges}, {"predicted_local_fraction", utilisation_}};
}

}  // namespace warpsim::mech::locality_descriptor
