// Extension point "zone_placement": on a GPU of several modules ([gpu] modules > 1, each a NUMA
// zone with its own SMs, L2 slices and DRAM channels), which zone a device address lives in and
// the address it has inside that zone. Key [zone_placement] impl; one instance per GPU, alive for
// the whole run (placements made in one kernel hold in the next). Not consulted with one module.
//
// The zone-local address then goes through the configured address mapping (dram.mapping) over
// the zone's own channels, so every zone interleaves its channels, banks and rows as a single
// chip would. Contract of place():
//   - for each zone, distinct addresses placed there get distinct local addresses (a bijection
//     onto what the zone holds: distinct addresses never share storage);
//   - local addresses should be dense (what a zone holds fills its local space from 0 without
//     large holes): the L2 indexes its sets and DRAM its rows with them, and holes would leave
//     sets and rows unused;
//   - the same address always gets the same answer until the placement itself changes it at a
//     launch boundary (beginLaunch; lines cached under the old placement are then only timing).
// place() is called once per request that leaves an SM (requester = the SM's module) and again
// by the levels below for the same line (requester = kNoRequester); never per lane.
//
// Baselines (zone_placements.h): "xor" (XOR hash of address bits), "first-touch" (pages to the
// zone of the first SM that reaches memory for them) and "interleave-bits" (per address range, the
// zone is log2(zones) address bits at a chosen position; xor elsewhere), which a mechanism drives
// through setRanges().
#pragma once
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <vector>

#include "config/config.h"

namespace warpsim::hints {
struct LaunchHints;
}  // namespace warpsim::hints

namespace warpsim::timing::mem {

inline constexpr uint32_t kNoRequester = UINT32_MAX;

struct ZonePlace {
  uint32_t zone = 0;
  uint64_t local = 0;  // address within the zone (before its channel mapping)
};

// One address range whose zone is the log2(zones) address bits starting at `bit`.
struct ZoneBitsRange {
  uint64_t base = 0;
  uint64_t size = 0;
  uint32_t bit = 16;
};

class IZonePlacement {
 public:
  static constexpr const char* kPoint = "zone_placement";
  struct Context {
    config::Tree* tree = nullptr;  // keys under [zone_placement]
    uint32_t zones = 1;            // [gpu] modules
    uint32_t xorBit = 8;           // zone_placement.xor_bit (the baselines' xor field)
    uint32_t pageBytes = 65536;    // zone_placement.page_bytes (first touch)
  };
  virtual ~IZonePlacement() = default;

  // Where `addr` lives; `requester` is the module of the SM whose request asks (kNoRequester for
  // the levels below). May record a placement (first touch), hence not const.
  virtual ZonePlace place(uint64_t addr, uint32_t requester) = 0;
  // A launch starts, with what its program says of its data (nullptr: nothing), its grid and
  // the CTAs of it one zone's SMs hold at once (0: not known).
  virtual void beginLaunch(const hints::LaunchHints* hints, const uint32_t grid[3], uint32_t ctasPerZone) {
    (void)hints;
    (void)grid;
    (void)ctasPerZone;
  }
  // Counters (optional), into the memory statistics' "numa" object.
  virtual void reportStats(nlohmann::json& out) const { (void)out; }
};

}  // namespace warpsim::timing::mem
