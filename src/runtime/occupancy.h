// How many CTAs of a kernel fit on one SM at once, from the simulated GPU's properties: CUDA's
// occupancy calculation (cudaOccupancyMaxActiveBlocksPerMultiprocessor), the smallest of the
// limits set by the SM's threads (whole warps), registers, shared memory and CTA slots.
// Registers and shared memory are counted with the allocation granularities of the properties
// (GpuProperties::registerAllocationUnit, ...), as the occupancy calculator and the timing
// model's resource manager count them, so a grid sized from it is one the timing model can hold
// at once (cooperative launches rely on it); 0 when one CTA alone does not fit.
#pragma once
#include <cstdint>

#include "runtime/device.h"

namespace warpsim::runtime {

uint32_t ctasPerSm(const GpuProperties& gpu, uint32_t blockThreads, uint32_t registersPerThread,
                   uint64_t sharedBytesPerCta);

}  // namespace warpsim::runtime
