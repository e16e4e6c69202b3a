#include "cudart/occupancy.h"

#include "runtime/occupancy.h"

namespace warpsim::cudart {

uint32_t maxActiveCtasPerSm(const runtime::GpuProperties& gpu, const OccupancyInput& in) {
  return runtime::ctasPerSm(gpu, in.blockThreads, in.registersPerThread, in.sharedBytes);
}

}  // namespace warpsim::cudart
