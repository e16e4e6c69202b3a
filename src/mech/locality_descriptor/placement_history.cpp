#include "mech/locality_descriptor/placement_history.h"

namespace warpsim::mech::locality_descriptor {

NumaPlacement PlacementHistory::place(std::span<const TileGeometry> descriptors, uint32_t zones,
                                      uint64_t ctasPerZone) {
  std::vector<std::optional<uint32_t>> fixed(descriptors.size());
  for (size_t i = 0; i < descriptors.size(); ++i) {
    const uint64_t base = descriptors[i].base;
    const uint64_t end = base + structureBytes(descriptors[i]);
    for (const timing::mem::ZoneBitsRange& s : structures_) {
      if (s.base < end && base < s.base + s.size) {
        fixed[i] = s.bit;
        break;
      }
    }
  }
  NumaPlacement placed = placeForNuma(descriptors, zones, ctasPerZone, fixed);
  for (size_t i : byPriority(descriptors)) {
    if (fixed[i]) continue;
    const uint64_t bytes = structureBytes(descriptors[i]);
    // A structure described twice in this launch is placed once, by its first (highest) descriptor.
    bool known = false;
    for (const timing::mem::ZoneBitsRange& s : structures_) {
      known = known || (s.base < descriptors[i].base + bytes && descriptors[i].base < s.base + s.size);
    }
    if (!known && bytes != 0) structures_.push_back({descriptors[i].base, bytes, placed.zoneBit[i]});
  }
  return placed;
}

}  // namespace warpsim::mech::locality_descriptor
