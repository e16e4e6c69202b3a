// How many CTAs of a kernel fit on one SM at once (cudaOccupancyMaxActiveBlocksPerMultiprocessor):
// the smallest of the limits set by the SM's threads (whole warps), registers, shared memory
// and CTA slots, from the simulated GPU's properties. Registers are counted per thread over the
// CTA's whole warps, with no allocation granularity; 0 when one CTA alone does not fit. The
// calculation itself is runtime::ctasPerSm (runtime/occupancy.h), which functional mode's
// cooperative-launch limit uses too.
#pragma once
#include <cstdint>

#include "runtime/device.h"

namespace warpsim::cudart {

struct OccupancyInput {
  uint32_t blockThreads = 0;
  uint32_t registersPerThread = 0;
  uint64_t sharedBytes = 0;  // static + dynamic, per CTA
};

uint32_t maxActiveCtasPerSm(const runtime::GpuProperties& gpu, const OccupancyInput& in);

}  // namespace warpsim::cudart
