#include "runtime/occupancy.h"

#include <algorithm>

namespace warpsim::runtime {

namespace {
uint64_t roundUp(uint64_t v, uint64_t unit) { return unit <= 1 ? v : (v + unit - 1) / unit * unit; }
}  // namespace

uint32_t ctasPerSm(const GpuProperties& gpu, uint32_t blockThreads, uint32_t registersPerThread,
                   uint64_t sharedBytesPerCta) {
  if (blockThreads == 0 || gpu.warpSize == 0) return 0;
  const uint64_t warps = (blockThreads + gpu.warpSize - 1) / gpu.warpSize;
  const uint64_t threads = warps * gpu.warpSize;
  uint64_t limit = std::min<uint64_t>(gpu.maxBlocksPerSm, gpu.maxThreadsPerSm / threads);
  // CUDA's calculation (cuda_occupancy.h): registers go to warps, the register file is split
  // evenly over `warpAllocationGranularity` partitions, each holds whole warps; a CTA fits when
  // its warps rounded up to the partitions fit the file.
  const uint64_t perWarp = roundUp(uint64_t{registersPerThread} * gpu.warpSize, gpu.registerAllocationUnit);
  const uint64_t parts = std::max<uint64_t>(gpu.warpAllocationGranularity, 1);
  if (perWarp != 0) {
    if (perWarp * roundUp(warps, parts) > gpu.registersPerSm) return 0;
    limit = std::min(limit, gpu.registersPerSm / parts / perWarp * parts / warps);
  }
  const uint64_t shared = roundUp(sharedBytesPerCta, gpu.sharedAllocationUnit);
  if (shared != 0) limit = std::min<uint64_t>(limit, gpu.sharedBytesPerSm / shared);
  return static_cast<uint32_t>(limit);
}

}  // namespace warpsim::runtime
