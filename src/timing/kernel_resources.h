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

  uint32_t warpsPerCta(uint32_t warpSize = 32) const {
    return (threadsPerCta + warpSize - 1) / warpSize;
  }
};

}  // namespace warpsim::timing
