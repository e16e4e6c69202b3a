// Pages do not move: the zone bit a structure got when a launch first described it stays for
// the rest of the run. Each launch's Algorithm 2 (placeForNuma) takes the bits earlier launches
// fixed as given, chooses bits for the structures no launch has placed yet, and partitions its
// CTAs by all of them. The zone placement "descriptors" and the CTA scheduler "clusters" each
// keep one history and see the same launches, so they agree launch after launch.
//
// A structure is known by its byte range: a descriptor whose range overlaps a placed structure's
// gets that structure's bit (the first placed one it overlaps). Freed and reused memory keeps
// its bit (the study's runs never free between kernels).
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "mech/locality_descriptor/numa_placement.h"
#include "timing/mem/zone_placements.h"

namespace warpsim::mech::locality_descriptor {

class PlacementHistory {
 public:
  // Algorithm 2 over one launch's descriptors with the bits already fixed; records the bits of
  // the structures it placed for the first time (priority order). Throws as placeForNuma.
  NumaPlacement place(std::span<const TileGeometry> descriptors, uint32_t zones, uint64_t ctasPerZone);

  // Every structure placed so far with its bit, in the order placed (launch, then priority).
  const std::vector<timing::mem::ZoneBitsRange>& structures() const { return structures_; }

 private:
  std::vector<timing::mem::ZoneBitsRange> structures_;
};

}  // namespace warpsim::mech::locality_descriptor
