#include "mech/locality_descriptor/placement_history.h"

namespace warpsim::mech::locality_descriptor {

namespace {

// The first placed structure [base, end) overlaps, or nullptr.
const timing::mem::ZoneBitsRange* placedOverlapping(const std::vector<timing::mem::ZoneBitsRange>& placed,
                                                    uint64_t base, uint64_t end) {
  for (const timing::mem::ZoneBitsRange& s : placed) {
    if (s.base < end && base < s.base + s.size) return &s;
  }
  return nullptr;
}

}  // namespace

NumaPlacement PlacementHistory::place(std::span<const TileGeometry> descriptors, uint32_t zones,
                                      uint64_t ctasPerZone) {
  std::vector<std::optional<uint32_t>> fixed(descriptors.size());
  for (size_t i = 0; i < descriptors.size(); ++i) {
    const uint64_t base = descriptors[i].base;
    if (const auto* s = placedOverlapping(structures_, base, base + structureBytes(descriptors[i]))) fixed[i] = s->bit;
  }
  NumaPlacement placed = placeForNuma(descriptors, zones, ctasPerZone, fixed);
  // New structures in priority order; one described twice in this launch is placed once, by its
  // first (highest) descriptor.
  for (size_t i : byPriority(descriptors)) {
    const uint64_t base = descriptors[i].base, bytes = structureBytes(descriptors[i]);
    if (fixed[i] || bytes == 0 || placedOverlapping(structures_, base, base + bytes)) continue;
    structures_.push_back({base, bytes, placed.zoneBit[i]});
  }
  return placed;
}

}  // namespace warpsim::mech::locality_descriptor
