// Device memory: allocation, copies and fills. Device pointers are the simulator's device
// addresses; managed and pinned host memory are mirrored (context.h, host_mappings.h). On a
// capturing stream the asynchronous copies and fills become graph nodes; the synchronous calls
// follow the capture rules (capture_rules.h).
#include <fmt/format.h>

#include <cstdlib>
#include <cstring>

#include "cudart/api_util.h"
#include "cudart/capture_rules.h"
#include "cudart/memory_ops.h"
#include "cudart/stream_copy.h"
#include "func/device_memory.h"

using namespace warpsim;
using namespace warpsim::cudart;

namespace {

bool isDevice(Context& cx, const void* p) { return cx.device().memory().isMapped(address(p), 1); }

// A synchronous copy or fill: it may not run while a capture forbids it (capture_rules.h).
cudaError_t checkSynchronous(Context& cx, const char* call) {
  if (cudaError_t e = checkUnsafeCall(cx, call); e != cudaSuccess) return e;
  return checkLegacyUse(cx, call);
}

}  // namespace

extern "C" {

cudaError_t cudaMalloc(void** devPtr, size_t size) {
  return apiCall("cudaMalloc", cudaErrorMemoryAllocation, [&](Context& cx) {
    if (devPtr == nullptr) return cudaErrorInvalidValue;
    if (cudaError_t e = checkUnsafeCall(cx, "cudaMalloc"); e != cudaSuccess) return e;
    *devPtr = reinterpret_cast<void*>(cx.device().malloc(size == 0 ? 1 : size));
    return cudaSuccess;
  });
}

cudaError_t cudaFree(void* devPtr) {
  return apiCall("cudaFree", cudaErrorInvalidValue, [&](Context& cx) {
    if (devPtr == nullptr) return cudaSuccess;
    if (cudaError_t e = checkUnsafeCall(cx, "cudaFree"); e != cudaSuccess) return e;
    if (cx.hostMappings().find(devPtr) != nullptr) {
      return cx.fail("cudaFree", cudaErrorInvalidValue,
                     fmt::format("{} is pinned host memory; free it with cudaFreeHost or "
                                 "cudaHostUnregister",
                                 devPtr));
    }
    // Memory from cudaMallocAsync (the free completes at once) and graph allocations.
    if (cx.pools().free(address(devPtr))) return cudaSuccess;
    if (GraphAllocation* g = cx.pools().graphAllocationAt(address(devPtr))) {
      cx.pools().setLive(*g, false);
      return cudaSuccess;
    }
    cx.releaseManaged(address(devPtr));
    cx.device().free(address(devPtr));
    return cudaSuccess;
  });
}

cudaError_t cudaMallocManaged(void** devPtr, size_t size, unsigned int flags) {
  return apiCall("cudaMallocManaged", cudaErrorMemoryAllocation, [&](Context& cx) {
    if (devPtr == nullptr) return cudaErrorInvalidValue;
    if (cudaError_t e = checkUnsafeCall(cx, "cudaMallocManaged"); e != cudaSuccess) return e;
    uint64_t a = 0;
    cudaError_t e = cx.allocateManaged(size, a);
    if (e == cudaSuccess) *devPtr = reinterpret_cast<void*>(a);
    return e;
  });
}

cudaError_t cudaMallocPitch(void** devPtr, size_t* pitch, size_t width, size_t height) {
  if (pitch == nullptr) return Context::get().setError(cudaErrorInvalidValue);
  *pitch = (width + 255) & ~size_t{255};
  return cudaMalloc(devPtr, *pitch * (height == 0 ? 1 : height));
}

cudaError_t cudaMemGetInfo(size_t* free, size_t* total) {
  return apiCall("cudaMemGetInfo", cudaErrorInvalidValue, [&](Context& cx) {
    const func::DeviceMemory& m = cx.device().memory();
    if (free != nullptr) *free = m.capacity() - m.used();
    if (total != nullptr) *total = m.capacity();
    return cudaSuccess;
  });
}

cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
  return apiCall("cudaMemcpy", cudaErrorInvalidValue, [&](Context& cx) {
    if (cudaError_t e = checkSynchronous(cx, "cudaMemcpy"); e != cudaSuccess) return e;
    return copyMemory(cx, dst, src, count, kind);
  });
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind,
                            cudaStream_t stream) {
  return apiCall("cudaMemcpyAsync", cudaErrorInvalidValue, [&](Context& cx) {
    return copyOnStream(cx, "cudaMemcpyAsync", stream, copyParams1D(dst, src, count, kind));
  });
}

cudaError_t cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                         size_t height, cudaMemcpyKind kind) {
  return apiCall("cudaMemcpy2D", cudaErrorInvalidValue, [&](Context& cx) {
    if (cudaError_t e = checkSynchronous(cx, "cudaMemcpy2D"); e != cudaSuccess) return e;
    return copyMemory2D(cx, dst, dpitch, src, spitch, width, height, kind);
  });
}

cudaError_t cudaMemset(void* devPtr, int value, size_t count) {
  return apiCall("cudaMemset", cudaErrorInvalidValue, [&](Context& cx) {
    if (cudaError_t e = checkSynchronous(cx, "cudaMemset"); e != cudaSuccess) return e;
    return fillMemory(cx, devPtr, value, count);
  });
}

cudaError_t cudaMemsetAsync(void* devPtr, int value, size_t count, cudaStream_t stream) {
  return apiCall("cudaMemsetAsync", cudaErrorInvalidValue, [&](Context& cx) {
    cudaMemsetParams p{devPtr, count, static_cast<unsigned>(value) & 0xff, 1, count, 1};
    return fillOnStream(cx, "cudaMemsetAsync", stream, p);
  });
}

cudaError_t cudaMemcpyToSymbol(const void* symbol, const void* src, size_t count, size_t offset,
                               cudaMemcpyKind kind) {
  return apiCall("cudaMemcpyToSymbol", cudaErrorInvalidValue, [&](Context& cx) {
    uint64_t a = 0, size = 0;
    if (cudaError_t e = cx.symbolFor(symbol, a, size); e != cudaSuccess) return e;
    if (offset > size || count > size - offset) return cudaErrorInvalidValue;
    if (kind == cudaMemcpyDefault) kind = isDevice(cx, src) ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice;
    if (cudaError_t e = checkSynchronous(cx, "cudaMemcpyToSymbol"); e != cudaSuccess) return e;
    return copyMemory(cx, reinterpret_cast<void*>(a + offset), src, count, kind);
  });
}

cudaError_t cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t count, size_t offset,
                                 cudaMemcpyKind kind) {
  return apiCall("cudaMemcpyFromSymbol", cudaErrorInvalidValue, [&](Context& cx) {
    uint64_t a = 0, size = 0;
    if (cudaError_t e = cx.symbolFor(symbol, a, size); e != cudaSuccess) return e;
    if (offset > size || count > size - offset) return cudaErrorInvalidValue;
    if (kind == cudaMemcpyDefault) kind = isDevice(cx, dst) ? cudaMemcpyDeviceToDevice : cudaMemcpyDeviceToHost;
    if (cudaError_t e = checkSynchronous(cx, "cudaMemcpyFromSymbol"); e != cudaSuccess) return e;
    return copyMemory(cx, dst, reinterpret_cast<const void*>(a + offset), count, kind);
  });
}

cudaError_t cudaMemcpyToSymbolAsync(const void* symbol, const void* src, size_t count,
                                    size_t offset, cudaMemcpyKind kind, cudaStream_t stream) {
  const char* call = "cudaMemcpyToSymbolAsync";
  return apiCall(call, cudaErrorInvalidValue, [&](Context& cx) {
    uint64_t a = 0, size = 0;
    if (cudaError_t e = cx.symbolFor(symbol, a, size); e != cudaSuccess) return e;
    if (offset > size || count > size - offset) return cudaErrorInvalidValue;
    if (kind == cudaMemcpyDefault) kind = isDevice(cx, src) ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice;
    return copyOnStream(cx, call, stream,
                        copyParams1D(reinterpret_cast<void*>(a + offset), src, count, kind));
  });
}

cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const void* symbol, size_t count, size_t offset,
                                      cudaMemcpyKind kind, cudaStream_t stream) {
  const char* call = "cudaMemcpyFromSymbolAsync";
  return apiCall(call, cudaErrorInvalidValue, [&](Context& cx) {
    uint64_t a = 0, size = 0;
    if (cudaError_t e = cx.symbolFor(symbol, a, size); e != cudaSuccess) return e;
    if (offset > size || count > size - offset) return cudaErrorInvalidValue;
    if (kind == cudaMemcpyDefault) kind = isDevice(cx, dst) ? cudaMemcpyDeviceToDevice : cudaMemcpyDeviceToHost;
    return copyOnStream(cx, call, stream,
                        copyParams1D(dst, reinterpret_cast<const void*>(a + offset), count, kind));
  });
}

cudaError_t cudaGetSymbolAddress(void** devPtr, const void* symbol) {
  return apiCall("cudaGetSymbolAddress", cudaErrorInvalidSymbol, [&](Context& cx) {
    uint64_t a = 0, size = 0;
    if (cudaError_t e = cx.symbolFor(symbol, a, size); e != cudaSuccess) return e;
    *devPtr = reinterpret_cast<void*>(a);
    return cudaSuccess;
  });
}

cudaError_t cudaGetSymbolSize(size_t* size, const void* symbol) {
  return apiCall("cudaGetSymbolSize", cudaErrorInvalidSymbol, [&](Context& cx) {
    uint64_t a = 0, s = 0;
    if (cudaError_t e = cx.symbolFor(symbol, a, s); e != cudaSuccess) return e;
    *size = s;
    return cudaSuccess;
  });
}

}  // extern "C"

WARPSIM_SAME_FUNCTION(cudaMemcpy2D, cudaMemcpy2D_ptds)
WARPSIM_SAME_FUNCTION(cudaMemcpyAsync, cudaMemcpyAsync_ptsz)
WARPSIM_SAME_FUNCTION(cudaMemcpyFromSymbolAsync, cudaMemcpyFromSymbolAsync_ptsz)
WARPSIM_SAME_FUNCTION(cudaMemcpyFromSymbol, cudaMemcpyFromSymbol_ptds)
WARPSIM_SAME_FUNCTION(cudaMemcpyToSymbolAsync, cudaMemcpyToSymbolAsync_ptsz)
WARPSIM_SAME_FUNCTION(cudaMemcpyToSymbol, cudaMemcpyToSymbol_ptds)
WARPSIM_SAME_FUNCTION(cudaMemcpy, cudaMemcpy_ptds)
WARPSIM_SAME_FUNCTION(cudaMemsetAsync, cudaMemsetAsync_ptsz)
WARPSIM_SAME_FUNCTION(cudaMemset, cudaMemset_ptds)
