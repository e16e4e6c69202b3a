#include "cudart/occupancy.h"

#include <algorithm>

namespace warpsim::cudart {

uint32_t maxActiveCtasPerSm(const runtime::GpuProperties& gpu, const OccupancyInput& in) {
  if (in.blockThreads == 0 || gpu.warpSize == 0) return 0;
  const uint64_t threads = uint64_t{(in.blockThreads + gpu.warpSize - 1) / gpu.warpSize} *
                           gpu.warpSize;
  uint64_t limit = std::min<uint64_t>(gpu.maxBlocksPerSm, gpu.maxThreadsPerSm / threads);
  const uint64_t registers = threads * in.registersPerThread;
  if (registers != 0) limit = std::min(limit, gpu.registersPerSm / registers);
  if (in.sharedBytes != 0) limit = std::min<uint64_t>(limit, gpu.sharedBytesPerSm / in.sharedBytes);
  return static_cast<uint32_t>(limit);
}

}  // namespace warpsim::cudart
