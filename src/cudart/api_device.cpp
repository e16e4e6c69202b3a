// Device queries and management: one simulated device whose properties come from the selected
// GPU configuration (runtime::Device::properties()).
#include <algorithm>
#include <cstdio>
#include <cstring>

#include "cudart/api_util.h"
#include "cudart/capture_rules.h"
#include "func/functional_gpu.h"

using namespace warpsim;
using namespace warpsim::cudart;

namespace {

// Constant memory of the PTX model (64 KB in every compute capability).
constexpr int kConstBytes = 64 * 1024;

bool validDevice(int device) { return device == 0; }

int asInt(uint64_t v) { return static_cast<int>(std::min<uint64_t>(v, 0x7fffffff)); }

void fillProperties(const runtime::GpuProperties& g, cudaDeviceProp* prop) {
  std::memset(prop, 0, sizeof *prop);
  std::snprintf(prop->name, sizeof prop->name, "%s", g.name.c_str());
  prop->totalGlobalMem = g.memoryBytes;
  prop->sharedMemPerBlock = g.sharedBytesPerBlock;
  prop->regsPerBlock = asInt(g.registersPerBlock);
  prop->warpSize = asInt(g.warpSize);
  prop->memPitch = 0x7fffffff;
  prop->maxThreadsPerBlock = asInt(std::min(g.maxThreadsPerBlock, func::kMaxThreadsPerCta));
  for (int i = 0; i < 3; ++i) {
    prop->maxThreadsDim[i] = asInt(std::min(func::kMaxBlockDim[i], g.maxThreadsPerBlock));
    prop->maxGridSize[i] = asInt(func::kMaxGridDim[i]);
  }
  prop->totalConstMem = kConstBytes;
  prop->major = asInt(g.computeMajor);
  prop->minor = asInt(g.computeMinor);
  prop->textureAlignment = 512;
  prop->texturePitchAlignment = 32;
  prop->multiProcessorCount = asInt(g.numSms);
  prop->concurrentKernels = 1;
  prop->unifiedAddressing = 1;
  prop->memoryBusWidth = asInt(g.memoryBusWidthBits);
  prop->l2CacheSize = asInt(g.l2Bytes);
  prop->persistingL2CacheMaxSize = 0;
  prop->maxThreadsPerMultiProcessor = asInt(g.maxThreadsPerSm);
  prop->globalL1CacheSupported = 1;
  prop->localL1CacheSupported = 1;
  prop->sharedMemPerMultiprocessor = g.sharedBytesPerSm;
  prop->regsPerMultiprocessor = asInt(g.registersPerSm);
  prop->managedMemory = 1;
  prop->concurrentManagedAccess = 0;
  prop->cooperativeLaunch = 1;  // cudaLaunchCooperativeKernel, grid.sync()
  prop->sharedMemPerBlockOptin = g.sharedBytesPerBlock;
  prop->maxBlocksPerMultiProcessor = asInt(g.maxBlocksPerSm);
  prop->integrated = 0;
  // Pinned host memory is mapped (api_host_memory.cpp); registered memory has its own device
  // address (canUseHostPointerForRegisteredMem 0). Memory pools without IPC.
  prop->canMapHostMemory = 1;
  prop->canUseHostPointerForRegisteredMem = 0;
  prop->hostRegisterSupported = 1;
  prop->hostRegisterReadOnlySupported = 1;
  prop->memoryPoolsSupported = 1;
  prop->memoryPoolSupportedHandleTypes = 0;
  prop->ECCEnabled = 0;
  prop->asyncEngineCount = 1;
}

// CUDA 13 moved the clocks out of cudaDeviceProp; they remain attributes.
bool attribute(const runtime::GpuProperties& g, const cudaDeviceProp& p, cudaDeviceAttr attr,
               int& value) {
  switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: value = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: value = p.maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: value = p.maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: value = p.maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: value = p.maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: value = p.maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: value = p.maxGridSize[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: value = asInt(p.sharedMemPerBlock); break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: value = asInt(p.sharedMemPerBlockOptin); break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor:
      value = asInt(p.sharedMemPerMultiprocessor);
      break;
    case cudaDevAttrTotalConstantMemory: value = asInt(p.totalConstMem); break;
    case cudaDevAttrWarpSize: value = p.warpSize; break;
    case cudaDevAttrMaxPitch: value = asInt(p.memPitch); break;
    case cudaDevAttrMaxRegistersPerBlock: value = p.regsPerBlock; break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: value = p.regsPerMultiprocessor; break;
    case cudaDevAttrClockRate: value = asInt(g.clockKhz); break;
    case cudaDevAttrMemoryClockRate: value = asInt(g.memoryClockKhz); break;
    case cudaDevAttrGlobalMemoryBusWidth: value = p.memoryBusWidth; break;
    case cudaDevAttrL2CacheSize: value = p.l2CacheSize; break;
    case cudaDevAttrMultiProcessorCount: value = p.multiProcessorCount; break;
    case cudaDevAttrComputeCapabilityMajor: value = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: value = p.minor; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: value = p.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: value = p.maxBlocksPerMultiProcessor; break;
    case cudaDevAttrTextureAlignment: value = asInt(p.textureAlignment); break;
    case cudaDevAttrTexturePitchAlignment: value = asInt(p.texturePitchAlignment); break;
    case cudaDevAttrManagedMemory: value = p.managedMemory; break;
    case cudaDevAttrUnifiedAddressing: value = p.unifiedAddressing; break;
    case cudaDevAttrConcurrentKernels: value = p.concurrentKernels; break;
    case cudaDevAttrAsyncEngineCount: value = p.asyncEngineCount; break;
    case cudaDevAttrGlobalL1CacheSupported: value = p.globalL1CacheSupported; break;
    case cudaDevAttrLocalL1CacheSupported: value = p.localL1CacheSupported; break;
    case cudaDevAttrCanMapHostMemory: value = p.canMapHostMemory; break;
    case cudaDevAttrCanUseHostPointerForRegisteredMem:
      value = p.canUseHostPointerForRegisteredMem;
      break;
    case cudaDevAttrHostRegisterSupported: value = p.hostRegisterSupported; break;
    case cudaDevAttrHostRegisterReadOnlySupported: value = p.hostRegisterReadOnlySupported; break;
    case cudaDevAttrMemoryPoolsSupported: value = p.memoryPoolsSupported; break;
    case cudaDevAttrMemoryPoolSupportedHandleTypes:
      value = static_cast<int>(p.memoryPoolSupportedHandleTypes);
      break;
    case cudaDevAttrIntegrated: value = p.integrated; break;
    case cudaDevAttrEccEnabled: value = p.ECCEnabled; break;
    case cudaDevAttrCooperativeLaunch: value = p.cooperativeLaunch; break;
    case cudaDevAttrConcurrentManagedAccess: value = p.concurrentManagedAccess; break;
    case cudaDevAttrComputeMode: value = cudaComputeModeDefault; break;
    case cudaDevAttrPciBusId: case cudaDevAttrPciDeviceId: case cudaDevAttrPciDomainId:
      value = 0;
      break;
    default: return false;
  }
  return true;
}

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

// The flags are kept for cudaGetDeviceFlags; scheduling changes nothing (operations complete
// when issued) and mapped pinned memory is always available (cudaDeviceMapHost is implicit).
cudaError_t cudaSetDeviceFlags(unsigned int flags) {
  return apiCall("cudaSetDeviceFlags", cudaErrorInvalidValue, [&](Context& cx) {
    if ((flags & ~unsigned{cudaDeviceMask}) != 0) return cudaErrorInvalidValue;
    cx.deviceFlags = flags;
    return cudaSuccess;
  });
}

cudaError_t cudaGetDeviceFlags(unsigned int* flags) {
  return apiCallKeepingBatch("cudaGetDeviceFlags", cudaErrorInvalidValue, [&](Context& cx) {
    if (flags == nullptr) return cudaErrorInvalidValue;
    *flags = cx.deviceFlags | cudaDeviceMapHost;
    return cudaSuccess;
  });
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  return apiCallKeepingBatch("cudaGetDeviceProperties", cudaErrorInvalidValue, [&](Context& cx) {
    if (prop == nullptr) return cudaErrorInvalidValue;
    if (!validDevice(device)) return cudaErrorInvalidDevice;
    fillProperties(cx.device().properties(), prop);
    return cudaSuccess;
  });
}

// Attributes the simulator has no figure for read 0, as those of a feature the device lacks.
cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  return apiCallKeepingBatch("cudaDeviceGetAttribute", cudaErrorInvalidValue, [&](Context& cx) {
    if (value == nullptr) return cudaErrorInvalidValue;
    if (!validDevice(device)) return cudaErrorInvalidDevice;
    const runtime::GpuProperties& g = cx.device().properties();
    cudaDeviceProp p;
    fillProperties(g, &p);
    if (!attribute(g, p, attr, *value)) *value = 0;
    return cudaSuccess;
  });
}

cudaError_t cudaDeviceSynchronize(void) {
  // Launches run to completion when made; a fault already surfaced (or exited). Refused while a
  // stream captures; memory pools release memory above their thresholds.
  return apiCall("cudaDeviceSynchronize", cudaErrorUnknown, [&](Context& cx) {
    if (cudaError_t e = checkDeviceWait(cx, "cudaDeviceSynchronize"); e != cudaSuccess) return e;
    cx.pools().synchronize();
    return cx.stickyError();
  });
}

// Clears the errors, a fault's included. Allocations and modules stay (a program that resets
// and continues keeps working; one that relies on the reset freeing memory still runs).
cudaError_t cudaDeviceReset(void) {
  Context& cx = Context::get();
  std::lock_guard<std::recursive_mutex> lock(cx.mutex());
  cx.runBatch();  // the device's work completes first; its faults are then cleared
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

}  // extern "C"
