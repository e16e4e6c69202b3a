// Counters of the "rfc" register-file model (README.md "Statistics"): per level
// (timing/sm/register_level_counters.h) and the cache's own events.
#pragma once
#include <cstdint>

#include <nlohmann/json_fwd.hpp>

#include "timing/sm/register_level_counters.h"

namespace warpsim::mech::rfc {


struct RfcStats {
  timing::RegisterLevelCounters mrf, rfc, lrf;
  uint64_t instructions = 0;
  uint64_t mrfOperandHistogram[4] = {};  // instructions reading 0, 1, 2, 3+ operands from the MRF
  uint64_t flushes = 0;                  // deschedules and call/return frame changes
  uint64_t flushedEntries = 0;           // entries those flushes emptied
  uint64_t evictions = 0;                // capacity evictions out of the RFC
  uint64_t deadDrops = 0;                // dirty values dropped without write-back (dead)
  uint64_t bypassedWrites = 0;           // long-latency results written straight to the MRF
  uint64_t partialWriteArounds = 0;      // partial-warp results of uncached registers, to the MRF
  uint64_t sharedFromLrf = 0;            // shared-datapath reads of an LRF value (moved to the RFC)
  uint64_t invalidReads = 0;             // MRF reads of a value a liveness hint dropped (must be 0)

  void report(nlohmann::json& out) const;
};

}  // namespace warpsim::mech::rfc
