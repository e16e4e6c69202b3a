// Zone placement "descriptors" (digest s2.4.4): on a multi-module GPU, each launch's locality
// descriptors choose, by Algorithm 2 (numa_placement.h), the zone-bit position of every
// described structure, and the memory model interleaves that structure across the zones at
// that granularity (the core's "interleave-bits" placement); memory no descriptor describes is
// placed as the xor baseline places it. A structure keeps the bit of the first launch that
// described it for the rest of the run (pages do not move: placement_history.h). With the CTA scheduler "clusters" the same Algorithm 2
// partitions the CTAs (LDesc); with another scheduler this is LDesc-Placement.
//
// Ranges: "interleave-bits" needs each range aligned to the largest granule a zone field can
// reach, 2^(16 + log2(zones)) bytes (256 KB with 4 zones; the stand-in for the page-table frame
// choice of bits 16 and up, digest L7); each structure's range is widened to such blocks, and
// where widened ranges meet, the block keeps the bit of the higher-priority descriptor (blocks
// are only shared when allocations are not aligned to that granule: configs that use this
// placement set gpu.allocation_alignment to it).
//
// Statistics (memory.numa.placement): the placed ranges so far (widened, with their bits), and
// the last described launch's Algorithm 2 utilisation (the fraction of bytes read locally it
// predicts).
#pragma once
#include <cstdint>
#include <vector>

#include "mech/locality_descriptor/placement_history.h"
#include "timing/mem/zone_placements.h"

namespace warpsim::mech::locality_descriptor {

class DescriptorZonePlacement final : public timing::mem::IZonePlacement {
 public:
  DescriptorZonePlacement(uint32_t zones, uint32_t xorBit);

  timing::mem::ZonePlace place(uint64_t addr, uint32_t requester) override {
    return inner_.place(addr, requester);
  }
  void beginLaunch(const hints::LaunchHints* hints, const uint32_t grid[3], uint32_t ctasPerZone) override;
  void reportStats(nlohmann::json& out) const override;

  // The block every range is widened to (2^(16 + log2(zones))).
  uint64_t blockBytes() const { return block_; }
  const std::vector<timing::mem::ZoneBitsRange>& ranges() const { return inner_.ranges(); }

 private:
  uint32_t zones_;
  uint64_t block_;
  timing::mem::InterleaveBitsZonePlacement inner_;
  PlacementHistory history_;
  double utilisation_ = 0;
};

// The ranges for structures [base, base + size) in priority order (earlier launches first) with their bits: widened to
// `block`-aligned blocks, the parts already taken by an earlier range dropped, neighbours of
// one bit merged.
std::vector<timing::mem::ZoneBitsRange> blockAlignedRanges(
    const std::vector<timing::mem::ZoneBitsRange>& inPriorityOrder, uint64_t block);

}  // namespace warpsim::mech::locality_descriptor
