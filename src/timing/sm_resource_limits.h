// The SM's resource limits and allocation granularities as the configuration gives them (keys
// under "sm" and "resources"): read here once for every resource manager, with their defaults
// (GTX 480's) and checks.
#pragma once
#include <cstdint>
#include <vector>

#include "config/config.h"

namespace warpsim::timing {

struct SmResourceLimits {
  uint32_t maxWarps = 0, maxCtas = 0, maxThreads = 0, registers = 0, sharedBytes = 0;
  uint32_t registerUnit = 0, warpGranularity = 0, sharedUnit = 0, maxRegsPerThread = 0;
  // Shared memory the system reserves per CTA (1 KB from compute capability 8.0 on): it counts
  // against the SM's shared memory, not against the CTA's own limit.
  uint32_t sharedReservedPerCta = 0;
  // The array the L1 data cache and shared memory share per SM (0: fixed sizes, l1.size and
  // shared_bytes) and the shared-memory sizes it may be carved into, ascending, the last
  // shared_bytes: each kernel gets one of them (shared_carveout.h), the L1 the rest.
  uint32_t unifiedBytes = 0;
  std::vector<uint32_t> sharedCarveouts;
  static SmResourceLimits read(config::Tree& tree);
};

}  // namespace warpsim::timing
