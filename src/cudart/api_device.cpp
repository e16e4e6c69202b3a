// Device queries and management: one simulated device, compute capability 8.0, 80 SMs by
// default (WARPSIM_SMS), the engine's launch limits.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "cudart/api_util.h"
#include "func/device_memory.h"
#include "func/functional_gpu.h"

using namespace warpsim;
using namespace warpsim::cudart;

namespace {

constexpr int kMajor = 8, kMinor = 0;
constexpr int kSharedPerBlock = 48 * 1024;
constexpr int kSharedPerSm = 164 * 1024;
constexpr int kRegsPerSm = 65536;
constexpr int kThreadsPerSm = 2048;
constexpr int kConstBytes = 64 * 1024;
constexpr int kClockKhz = 1000000;  // the 1 GHz of simulated time (context.h)

bool validDevice(int device) { return device == 0; }

}  // namespace

extern "C" {

cudaError_t cudaGetDeviceCount(int* count) {
  if (count == nullptr) return Context::get().setError(cudaErrorInvalidValue);
  *count = 1;
  return cudaSuccess;
}

cudaError_t cudaSetDevice(int device) {
  Context& cx = Context::get();
  if (!validDevice(device)) return cx.setError(cudaErrorInvalidDevice);
  cx.currentDevice = device;
  return cudaSuccess;
}

cudaError_t cudaGetDevice(int* device) {
  if (device == nullptr) return Context::get().setError(cudaErrorInvalidValue);
  *device = Context::get().currentDevice;
  return cudaSuccess;
}

cudaError_t cudaInitDevice(int device, unsigned int deviceFlags, unsigned int flags) {
  return validDevice(device) ? cudaSuccess : Context::get().setError(cudaErrorInvalidDevice);
}

cudaError_t cudaSetDeviceFlags(unsigned int flags) { return cudaSuccess; }

cudaError_t cudaGetDeviceFlags(unsigned int* flags) {
  if (flags != nullptr) *flags = 0;
  return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  Context& cx = Context::get();
  if (prop == nullptr) return cx.setError(cudaErrorInvalidValue);
  if (!validDevice(device)) return cx.setError(cudaErrorInvalidDevice);
  std::memset(prop, 0, sizeof *prop);
  std::snprintf(prop->name, sizeof prop->name, "warpsim functional GPU");
  prop->totalGlobalMem = cx.device().memory().capacity();
  prop->sharedMemPerBlock = kSharedPerBlock;
  prop->regsPerBlock = kRegsPerSm;
  prop->warpSize = 32;
  prop->memPitch = 0x7fffffff;
  prop->maxThreadsPerBlock = static_cast<int>(func::kMaxThreadsPerCta);
  for (int i = 0; i < 3; ++i) {
    prop->maxThreadsDim[i] = static_cast<int>(func::kMaxBlockDim[i]);
    prop->maxGridSize[i] = static_cast<int>(func::kMaxGridDim[i]);
  }
  prop->totalConstMem = kConstBytes;
  prop->major = kMajor;
  prop->minor = kMinor;
  prop->textureAlignment = 512;
  prop->texturePitchAlignment = 32;
  prop->multiProcessorCount = static_cast<int>(cx.options().numSms);
  prop->concurrentKernels = 1;
  prop->unifiedAddressing = 1;
  prop->memoryBusWidth = 5120;
  prop->l2CacheSize = 40 * 1024 * 1024;
  prop->maxThreadsPerMultiProcessor = kThreadsPerSm;
  prop->globalL1CacheSupported = 1;
  prop->localL1CacheSupported = 1;
  prop->sharedMemPerMultiprocessor = kSharedPerSm;
  prop->regsPerMultiprocessor = kRegsPerSm;
  prop->managedMemory = 1;
  prop->cooperativeLaunch = 0;
  prop->sharedMemPerBlockOptin = kSharedPerBlock;
  prop->maxBlocksPerMultiProcessor = 32;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  Context& cx = Context::get();
  if (value == nullptr) return cx.setError(cudaErrorInvalidValue);
  if (!validDevice(device)) return cx.setError(cudaErrorInvalidDevice);
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, device);
  switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: *value = p.maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: *value = p.maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: *value = p.maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: *value = p.maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: *value = p.maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: *value = p.maxGridSize[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = kSharedPerBlock; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = kSharedPerBlock; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *value = kSharedPerSm; break;
    case cudaDevAttrTotalConstantMemory: *value = kConstBytes; break;
    case cudaDevAttrWarpSize: *value = 32; break;
    case cudaDevAttrMaxRegistersPerBlock: *value = kRegsPerSm; break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: *value = kRegsPerSm; break;
    case cudaDevAttrClockRate: *value = kClockKhz; break;
    case cudaDevAttrMemoryClockRate: *value = kClockKhz; break;
    case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
    case cudaDevAttrComputeCapabilityMajor: *value = kMajor; break;
    case cudaDevAttrComputeCapabilityMinor: *value = kMinor; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *value = kThreadsPerSm; break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: *value = 32; break;
    case cudaDevAttrManagedMemory: *value = 1; break;
    case cudaDevAttrUnifiedAddressing: *value = 1; break;
    case cudaDevAttrConcurrentKernels: *value = 1; break;
    case cudaDevAttrL2CacheSize: *value = p.l2CacheSize; break;
    case cudaDevAttrGlobalMemoryBusWidth: *value = p.memoryBusWidth; break;
    default: *value = 0; break;
  }
  return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize(void) {
  // Launches run to completion when made; a fault already surfaced (or exited).
  return Context::get().stickyError();
}

// Clears the errors, a fault's included. Allocations and modules stay (a program that resets
// and continues keeps working; one that relies on the reset freeing memory still runs).
cudaError_t cudaDeviceReset(void) {
  Context& cx = Context::get();
  std::lock_guard<std::recursive_mutex> lock(cx.mutex());
  cx.clearErrors();
  return cudaSuccess;
}

cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache cacheConfig) { return cudaSuccess; }

cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache* pCacheConfig) {
  if (pCacheConfig != nullptr) *pCacheConfig = cudaFuncCachePreferNone;
  return cudaSuccess;
}

cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value) { return cudaSuccess; }

cudaError_t cudaDeviceGetLimit(size_t* pValue, cudaLimit limit) {
  if (pValue == nullptr) return Context::get().setError(cudaErrorInvalidValue);
  switch (limit) {
    case cudaLimitStackSize: *pValue = 1024; break;
    case cudaLimitPrintfFifoSize: *pValue = 1 << 20; break;
    case cudaLimitMallocHeapSize: *pValue = 8 << 20; break;
    default: *pValue = 0; break;
  }
  return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int* driverVersion) {
  if (driverVersion == nullptr) return Context::get().setError(cudaErrorInvalidValue);
  *driverVersion = CUDART_VERSION;
  return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int* runtimeVersion) {
  if (runtimeVersion == nullptr) return Context::get().setError(cudaErrorInvalidValue);
  *runtimeVersion = CUDART_VERSION;
  return cudaSuccess;
}

cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, const void* func) {
  return apiCall("cudaFuncGetAttributes", cudaErrorInvalidDeviceFunction, [&](Context& cx) {
    KernelRecord* k = nullptr;
    if (cudaError_t e = cx.kernelFor(func, k); e != cudaSuccess) return e;
    const runtime::ResourceUsage& r = k->kernel->resources();
    std::memset(attr, 0, sizeof *attr);
    attr->sharedSizeBytes = r.sharedBytes;
    attr->constSizeBytes = 0;
    attr->localSizeBytes = r.localBytes;
    attr->maxThreadsPerBlock = static_cast<int>(func::kMaxThreadsPerCta);
    attr->numRegs = static_cast<int>(r.registers);
    attr->ptxVersion = kMajor * 10 + kMinor;
    attr->binaryVersion = kMajor * 10 + kMinor;
    attr->maxDynamicSharedSizeBytes = kSharedPerBlock - static_cast<int>(r.sharedBytes);
    return cudaSuccess;
  });
}

cudaError_t cudaFuncSetAttribute(const void* func, cudaFuncAttribute attr, int value) {
  return cudaSuccess;
}

cudaError_t cudaFuncSetCacheConfig(const void* func, cudaFuncCache cacheConfig) {
  return cudaSuccess;
}

cudaError_t cudaFuncSetSharedMemConfig(const void* func, cudaSharedMemConfig config) {
  return cudaSuccess;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, const void* func,
                                                          int blockSize,
                                                          size_t dynamicSMemSize) {
  return apiCall("cudaOccupancyMaxActiveBlocksPerMultiprocessor", cudaErrorInvalidDeviceFunction,
                 [&](Context& cx) {
    KernelRecord* k = nullptr;
    if (cudaError_t e = cx.kernelFor(func, k); e != cudaSuccess) return e;
    if (numBlocks == nullptr || blockSize <= 0) return cudaErrorInvalidValue;
    const runtime::ResourceUsage& r = k->kernel->resources();
    int warps = (blockSize + 31) / 32;
    int byThreads = kThreadsPerSm / (warps * 32);
    int regsPerBlock = static_cast<int>(std::max<uint32_t>(r.registers, 1)) * warps * 32;
    int byRegs = kRegsPerSm / regsPerBlock;
    uint64_t shared = r.sharedBytes + dynamicSMemSize;
    int byShared = shared == 0 ? 32 : static_cast<int>(kSharedPerSm / shared);
    *numBlocks = std::min({byThreads, byRegs, byShared, 32});
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

}  // extern "C"
