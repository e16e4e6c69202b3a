// The address mapping of a GPU of several modules (NUMA zones): the zone placement
// (i_zone_placement.h) picks the zone and the address within it, then the configured mapping
// (dram.mapping, built for channels / zones channels) maps that zone-local address onto the
// zone's channels: channel = zone * channels_per_zone + the inner channel; bank, row, column
// and the channel-local address are the inner mapping's. A composition of bijections, so the
// whole stays one (i_address_mapping.h's contract).
//
// The levels below the SMs map through ZonedAddressMapping itself (requester: none). Each
// module's SMs map through their module's view (viewFor), which tells the placement who asks
// (first touch) and counts the requests leaving SMs by zone, local or remote. Counting happens
// in map(), which is const in the interface: the counters are the view's mutable members.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "timing/mem/i_address_mapping.h"
#include "timing/mem/i_zone_placement.h"

namespace warpsim::timing::mem {

class ZonedAddressMapping final : public IAddressMapping {
 public:
  // `inner` maps a zone's local addresses over channelsPerZone channels.
  ZonedAddressMapping(IZonePlacement& placement, std::unique_ptr<IAddressMapping> inner,
                      uint32_t zones, uint32_t channelsPerZone);
  ~ZonedAddressMapping() override;

  DramAddress map(uint64_t addr) const override { return mapFor(addr, kNoRequester); }
  uint32_t granuleBytes() const override { return inner_->granuleBytes(); }
  // What module `requester`'s SMs see (owned here).
  const IAddressMapping& viewFor(uint32_t module) const;
  DramAddress mapFor(uint64_t addr, uint32_t requester) const;

  // Requests that left an SM since resetStats, by the zone they went to and whether it was the
  // SM's own.
  uint64_t zoneRequests(uint32_t zone) const;
  uint64_t localRequests() const;
  uint64_t remoteRequests() const;
  void resetStats();
  uint32_t zones() const { return zones_; }

 private:
  class View;
  IZonePlacement& placement_;
  std::unique_ptr<IAddressMapping> inner_;
  uint32_t zones_, channelsPerZone_;
  std::vector<std::unique_ptr<View>> views_;
};

}  // namespace warpsim::timing::mem
