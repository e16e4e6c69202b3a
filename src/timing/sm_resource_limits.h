// The SM's resource limits and allocation granularities as the configuration gives them (keys
// under "sm" and "resources"): read here once for every resource manager, with their defaults
// (GTX 480's) and checks.
#pragma once
#include <cstdint>

#include "config/config.h"

namespace warpsim::timing {

struct SmResourceLimits {
  uint32_t maxWarps = 0, maxCtas = 0, maxThreads = 0, registers = 0, sharedBytes = 0;
  uint32_t registerUnit = 0, warpGranularity = 0, sharedUnit = 0, maxRegsPerThread = 0;
  static SmResourceLimits read(config::Tree& tree);
};

}  // namespace warpsim::timing
