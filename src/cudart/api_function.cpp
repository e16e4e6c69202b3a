// Per-kernel queries and settings: attributes (resources of the kernel, limits of the simulated
// GPU), the shared-memory carve-out preference (the timing model's carve-out on GPUs whose L1
// and shared memory share one array, timing/shared_carveout.h), occupancy.
#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "cudart/api_util.h"
#include "cudart/occupancy.h"
#include "func/functional_gpu.h"
#include "ir/module.h"

using namespace warpsim;
using namespace warpsim::cudart;

namespace {

// The most threads a CTA of `k` may have: the device's limit, the kernel's .maxntid/.reqntid
// and what its registers allow (whole warps).
uint32_t maxThreadsFor(const runtime::GpuProperties& g, const KernelRecord& k) {
  uint32_t limit = std::min(g.maxThreadsPerBlock, func::kMaxThreadsPerCta);
  const ir::Function& f = k.kernel->function();
  for (const uint32_t* d : {f.maxntid, f.reqntid}) {
    if (d[0] == 0) continue;
    uint64_t n = uint64_t{d[0]} * std::max(d[1], 1u) * std::max(d[2], 1u);
    limit = static_cast<uint32_t>(std::min<uint64_t>(limit, n));
  }
  uint32_t regs = k.kernel->resources().registers;
  if (regs != 0 && g.warpSize != 0) {
    uint32_t warps = g.registersPerBlock / (regs * g.warpSize);
    limit = std::min(limit, warps * g.warpSize);
  }
  return limit;
}

}  // namespace

extern "C" {

cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, const void* func) {
  return apiCallKeepingBatch("cudaFuncGetAttributes", cudaErrorInvalidDeviceFunction, [&](Context& cx) {
    if (attr == nullptr) return cudaErrorInvalidValue;
    KernelRecord* k = nullptr;
    cudaError_t e = cx.kernelFor("cudaFuncGetAttributes", func, k);
    if (e != cudaSuccess) return e;
    const runtime::GpuProperties& g = cx.device().properties();
    const runtime::ResourceUsage& r = k->kernel->resources();
    std::memset(attr, 0, sizeof *attr);
    attr->sharedSizeBytes = r.sharedBytes;
    attr->constSizeBytes = 0;
    attr->localSizeBytes = r.localBytes;
    attr->maxThreadsPerBlock = static_cast<int>(maxThreadsFor(g, *k));
    attr->numRegs = static_cast<int>(r.registers);
    attr->ptxVersion = static_cast<int>(k->fatbin->ptxArch);
    attr->binaryVersion = static_cast<int>(g.computeMajor * 10 + g.computeMinor);
    attr->maxDynamicSharedSizeBytes =
        static_cast<int>(g.sharedBytesPerBlock - std::min(g.sharedBytesPerBlock, r.sharedBytes));
    attr->preferredShmemCarveout = k->preferredCarveout;
    return cudaSuccess;
  });
}

cudaError_t cudaFuncGetName(const char** name, const void* func) {
  return apiCallKeepingBatch("cudaFuncGetName", cudaErrorInvalidDeviceFunction, [&](Context& cx) {
    if (name == nullptr) return cudaErrorInvalidValue;
    KernelRecord* k = nullptr;
    cudaError_t e = cx.kernelFor("cudaFuncGetName", func, k);
    if (e != cudaSuccess) return e;
    *name = k->name.c_str();
    return cudaSuccess;
  });
}

// The carve-out preference is kept for the kernel's launches (a percentage, or -1 for none,
// as cudaSharedmemCarveoutDefault); the other attributes are accepted and change nothing: the
// engine's shared-memory limit per CTA is the configuration's sharedBytesPerBlock.
cudaError_t cudaFuncSetAttribute(const void* func, cudaFuncAttribute attr, int value) {
  return apiCallKeepingBatch("cudaFuncSetAttribute", cudaErrorInvalidDeviceFunction, [&](Context& cx) {
    KernelRecord* k = nullptr;
    cudaError_t e = cx.kernelFor("cudaFuncSetAttribute", func, k);
    if (e != cudaSuccess) return e;
    if (attr == cudaFuncAttributePreferredSharedMemoryCarveout) {
      if (value < -1 || value > 100) {
        return cx.fail("cudaFuncSetAttribute", cudaErrorInvalidValue,
                       fmt::format("kernel '{}': shared-memory carveout {} is not a percentage "
                                   "(0 to 100, or -1 for the default)",
                                   k->name, value));
      }
      k->preferredCarveout = value;
    }
    return cudaSuccess;
  });
}

// The cache preference becomes a carve-out preference, as on GPUs whose L1 and shared memory
// share one array: prefer L1 -> the least shared memory, prefer shared -> the most, equal ->
// half, none -> the driver's choice.
cudaError_t cudaFuncSetCacheConfig(const void* func, cudaFuncCache cacheConfig) {
  return apiCallKeepingBatch("cudaFuncSetCacheConfig", cudaErrorInvalidDeviceFunction, [&](Context& cx) {
    KernelRecord* k = nullptr;
    cudaError_t e = cx.kernelFor("cudaFuncSetCacheConfig", func, k);
    if (e != cudaSuccess) return e;
    switch (cacheConfig) {
      case cudaFuncCachePreferShared: k->preferredCarveout = 100; break;
      case cudaFuncCachePreferL1: k->preferredCarveout = 0; break;
      case cudaFuncCachePreferEqual: k->preferredCarveout = 50; break;
      default: k->preferredCarveout = -1; break;
    }
    return cudaSuccess;
  });
}

// Bank width (4 or 8 bytes, Kepler): accepted, no effect.
cudaError_t cudaFuncSetSharedMemConfig(const void* func, cudaSharedMemConfig config) {
  return apiCallKeepingBatch("cudaFuncSetSharedMemConfig", cudaErrorInvalidDeviceFunction, [&](Context& cx) {
    KernelRecord* k = nullptr;
    return cx.kernelFor("cudaFuncSetSharedMemConfig", func, k);
  });
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, const void* func,
                                                          int blockSize,
                                                          size_t dynamicSMemSize) {
  return apiCallKeepingBatch("cudaOccupancyMaxActiveBlocksPerMultiprocessor", cudaErrorInvalidDeviceFunction,
                 [&](Context& cx) {
    KernelRecord* k = nullptr;
    cudaError_t e = cx.kernelFor("cudaOccupancyMaxActiveBlocksPerMultiprocessor", func, k);
    if (e != cudaSuccess) return e;
    if (numBlocks == nullptr || blockSize <= 0) return cudaErrorInvalidValue;
    const runtime::ResourceUsage& r = k->kernel->resources();
    OccupancyInput in;
    in.blockThreads = static_cast<uint32_t>(blockSize);
    in.registersPerThread = r.registers;
    in.sharedBytes = r.sharedBytes + dynamicSMemSize;
    *numBlocks = static_cast<int>(maxActiveCtasPerSm(cx.device().properties(), in));
    return cudaSuccess;
  });
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* numBlocks,
                                                                   const void* func,
                                                                   int blockSize,
                                                                   size_t dynamicSMemSize,
                                                                   unsigned int flags) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks, func, blockSize,
                                                       dynamicSMemSize);
}

// Dynamic shared memory a CTA may use when `numBlocks` CTAs of `blockSize` threads share an SM.
cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t* dynamicSmemSize, const void* func,
                                                      int numBlocks, int blockSize) {
  return apiCallKeepingBatch("cudaOccupancyAvailableDynamicSMemPerBlock", cudaErrorInvalidDeviceFunction,
                 [&](Context& cx) {
    KernelRecord* k = nullptr;
    cudaError_t e = cx.kernelFor("cudaOccupancyAvailableDynamicSMemPerBlock", func, k);
    if (e != cudaSuccess) return e;
    if (dynamicSmemSize == nullptr || numBlocks <= 0 || blockSize <= 0) {
      return cudaErrorInvalidValue;
    }
    const runtime::GpuProperties& g = cx.device().properties();
    uint64_t perCta = std::min<uint64_t>(g.sharedBytesPerBlock, g.sharedBytesPerSm / numBlocks);
    uint64_t fixed = k->kernel->resources().sharedBytes;
    *dynamicSmemSize = perCta > fixed ? perCta - fixed : 0;
    return cudaSuccess;
  });
}

}  // extern "C"
