#include "timing/shared_carveout.h"

#include <algorithm>

#include "timing/sm_occupancy.h"

namespace warpsim::timing {

uint32_t smallestCarveout(const SmResourceLimits& limits, uint64_t bytes) {
  for (uint32_t size : limits.sharedCarveouts) {
    if (size >= bytes) return size;
  }
  return limits.sharedCarveouts.empty() ? limits.sharedBytes : limits.sharedCarveouts.back();
}

std::string occupancyWithCarveout(const SmResourceLimits& limits, const KernelResources& kernel,
                                  Occupancy* occupancy) {
  if (limits.unifiedBytes == 0) return computeOccupancy(limits, kernel, occupancy);
  SmResourceLimits chosen = limits;
  CtaFootprint cta;
  if (kernel.preferredCarveoutPercent >= 0) {
    // One CTA's shared memory, to know the least the hint may be raised to.
    Occupancy unused;
    if (std::string why = computeOccupancy(limits, kernel, &unused, &cta); !why.empty()) return why;
    const uint64_t wanted =
        (uint64_t{limits.sharedBytes} * std::min(kernel.preferredCarveoutPercent, 100) + 99) / 100;
    chosen.sharedBytes = smallestCarveout(limits, std::max(wanted, cta.sharedBytes));
  }
  if (std::string why = computeOccupancy(chosen, kernel, occupancy, &cta); !why.empty()) return why;
  const uint32_t shared =
      kernel.preferredCarveoutPercent >= 0
          ? chosen.sharedBytes
          : smallestCarveout(limits, uint64_t{occupancy->ctasPerSm} * cta.sharedBytes);
  occupancy->carveout.registerBytes = uint64_t{limits.registers} * 4;
  occupancy->carveout.sharedBytes = shared;
  occupancy->carveout.l1Bytes = limits.unifiedBytes - shared;
  return "";
}

}  // namespace warpsim::timing
