// What one CTA of a kernel needs from an SM: the inputs of the occupancy calculation.
#pragma once
#include <cstdint>

namespace warpsim::timing {

struct KernelResources {
  uint32_t registersPerThread = 0;  // from ptxas -v, or the runtime's estimate
  uint32_t sharedBytesPerCta = 0;   // static + dynamic shared memory
  uint32_t threadsPerCta = 0;
  // Registers per thread reserved for assist-warp routines: allocated with the CTA's, not
  // counted against the per-thread limit (the program does not address them).
  uint32_t assistRegistersPerThread = 0;
  // The shared-memory carve-out the program prefers, in percent of the SM's largest
  // (cudaFuncAttributePreferredSharedMemoryCarveout); -1: none, the driver's choice
  // (shared_carveout.h).
  int32_t preferredCarveoutPercent = -1;

  uint32_t warpsPerCta(uint32_t warpSize = 32) const {
    return (threadsPerCta + warpSize - 1) / warpSize;
  }
};

}  // namespace warpsim::timing
