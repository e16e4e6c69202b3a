#include "runtime/occupancy.h"

#include <algorithm>

namespace warpsim::runtime {

uint32_t ctasPerSm(const GpuProperties& gpu, uint32_t blockThreads, uint32_t registersPerThread,
                   uint64_t sharedBytesPerCta) {
  if (blockThreads == 0 || gpu.warpSize == 0) return 0;
  const uint64_t threads = uint64_t{(blockThreads + gpu.warpSize - 1) / gpu.warpSize} * gpu.warpSize;
  uint64_t limit = std::min<uint64_t>(gpu.maxBlocksPerSm, gpu.maxThreadsPerSm / threads);
  const uint64_t registers = threads * registersPerThread;
  if (registers != 0) limit = std::min(limit, gpu.registersPerSm / registers);
  if (sharedBytesPerCta != 0) limit = std::min<uint64_t>(limit, gpu.sharedBytesPerSm / sharedBytesPerCta);
  return static_cast<uint32_t>(limit);
}

}  // namespace warpsim::runtime
