// Device memory: allocation, copies and fills. Device pointers are the simulator's device
// addresses; host memory is ordinary host memory (cudaMallocHost is malloc). Managed memory is
// mirrored (context.h).
#include <fmt/format.h>

#include <cstdlib>
#include <cstring>

#include "cudart/api_util.h"
#include "func/device_memory.h"

using namespace warpsim;
using namespace warpsim::cudart;

namespace {

bool isDevice(Context& cx, const void* p) { return cx.device().memory().isMapped(address(p), 1); }

// One copy of `bytes`; `kind` cudaMemcpyDefault is resolved from the pointers.
cudaError_t copy(Context& cx, void* dst, const void* src, size_t bytes, cudaMemcpyKind kind) {
  if (bytes == 0) return cudaSuccess;
  if (dst == nullptr || src == nullptr) return cudaErrorInvalidValue;
  bool dstDevice = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
  bool srcDevice = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
  if (kind == cudaMemcpyDefault) {
    dstDevice = isDevice(cx, dst);
    srcDevice = isDevice(cx, src);
  } else if (kind != cudaMemcpyHostToHost && kind != cudaMemcpyHostToDevice &&
             kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice) {
    return cudaErrorInvalidMemcpyDirection;
  }
  cx.pushManaged();
  runtime::Device& d = cx.device();
  if (dstDevice && srcDevice) d.memcpyDtoD(address(dst), address(src), bytes);
  else if (dstDevice) d.memcpyHtoD(address(dst), src, bytes);
  else if (srcDevice) d.memcpyDtoH(dst, address(src), bytes);
  else std::memmove(dst, src, bytes);
  cx.pullManaged();
  return cudaSuccess;
}

cudaError_t fill(Context& cx, void* dst, int value, size_t bytes) {
  if (bytes == 0) return cudaSuccess;
  cx.pushManaged();
  cx.device().memset(address(dst), static_cast<uint8_t>(value), bytes);
  cx.pullManaged();
  return cudaSuccess;
}

cudaError_t copy2D(Context& cx, void* dst, size_t dpitch, const void* src, size_t spitch,
                   size_t width, size_t height, cudaMemcpyKind kind) {
  if (width > dpitch || width > spitch) return cudaErrorInvalidPitchValue;
  for (size_t row = 0; row < height; ++row) {
    cudaError_t e = copy(cx, static_cast<char*>(dst) + row * dpitch,
                         static_cast<const char*>(src) + row * spitch, width, kind);
    if (e != cudaSuccess) return e;
  }
  return cudaSuccess;
}

}  // namespace

extern "C" {

cudaError_t cudaMalloc(void** devPtr, size_t size) {
  return apiCall("cudaMalloc", cudaErrorMemoryAllocation, [&](Context& cx) {
    if (devPtr == nullptr) return cudaErrorInvalidValue;
    *devPtr = reinterpret_cast<void*>(cx.device().malloc(size == 0 ? 1 : size));
    return cudaSuccess;
  });
}

cudaError_t cudaFree(void* devPtr) {
  return apiCall("cudaFree", cudaErrorInvalidValue, [&](Context& cx) {
    if (devPtr == nullptr) return cudaSuccess;
    cx.releaseManaged(address(devPtr));
    cx.device().free(address(devPtr));
    return cudaSuccess;
  });
}

cudaError_t cudaMallocManaged(void** devPtr, size_t size, unsigned int flags) {
  return apiCall("cudaMallocManaged", cudaErrorMemoryAllocation, [&](Context& cx) {
    if (devPtr == nullptr) return cudaErrorInvalidValue;
    uint64_t a = 0;
    cudaError_t e = cx.allocateManaged(size, a);
    if (e == cudaSuccess) *devPtr = reinterpret_cast<void*>(a);
    return e;
  });
}

cudaError_t cudaMallocHost(void** ptr, size_t size) {
  if (ptr == nullptr) return Context::get().setError(cudaErrorInvalidValue);
  *ptr = std::malloc(size == 0 ? 1 : size);
  return *ptr != nullptr ? cudaSuccess : Context::get().setError(cudaErrorMemoryAllocation);
}

cudaError_t cudaHostAlloc(void** pHost, size_t size, unsigned int flags) {
  return cudaMallocHost(pHost, size);
}

cudaError_t cudaFreeHost(void* ptr) {
  std::free(ptr);
  return cudaSuccess;
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
  return apiCall("cudaMemcpy", cudaErrorInvalidValue,
                 [&](Context& cx) { return copy(cx, dst, src, count, kind); });
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind,
                            cudaStream_t stream) {
  return apiCall("cudaMemcpyAsync", cudaErrorInvalidValue, [&](Context& cx) {
    if (!cx.isStream(stream)) return cudaErrorInvalidResourceHandle;
    return copy(cx, dst, src, count, kind);
  });
}

cudaError_t cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                         size_t height, cudaMemcpyKind kind) {
  return apiCall("cudaMemcpy2D", cudaErrorInvalidValue, [&](Context& cx) {
    return copy2D(cx, dst, dpitch, src, spitch, width, height, kind);
  });
}

cudaError_t cudaMemset(void* devPtr, int value, size_t count) {
  return apiCall("cudaMemset", cudaErrorInvalidValue,
                 [&](Context& cx) { return fill(cx, devPtr, value, count); });
}

cudaError_t cudaMemsetAsync(void* devPtr, int value, size_t count, cudaStream_t stream) {
  return apiCall("cudaMemsetAsync", cudaErrorInvalidValue,
                 [&](Context& cx) { return fill(cx, devPtr, value, count); });
}

cudaError_t cudaMemcpyToSymbol(const void* symbol, const void* src, size_t count, size_t offset,
                               cudaMemcpyKind kind) {
  return apiCall("cudaMemcpyToSymbol", cudaErrorInvalidValue, [&](Context& cx) {
    uint64_t a = 0, size = 0;
    if (cudaError_t e = cx.symbolFor(symbol, a, size); e != cudaSuccess) return e;
    if (offset > size || count > size - offset) return cudaErrorInvalidValue;
    if (kind == cudaMemcpyDefault) kind = isDevice(cx, src) ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice;
    return copy(cx, reinterpret_cast<void*>(a + offset), src, count, kind);
  });
}

cudaError_t cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t count, size_t offset,
                                 cudaMemcpyKind kind) {
  return apiCall("cudaMemcpyFromSymbol", cudaErrorInvalidValue, [&](Context& cx) {
    uint64_t a = 0, size = 0;
    if (cudaError_t e = cx.symbolFor(symbol, a, size); e != cudaSuccess) return e;
    if (offset > size || count > size - offset) return cudaErrorInvalidValue;
    if (kind == cudaMemcpyDefault) kind = isDevice(cx, dst) ? cudaMemcpyDeviceToDevice : cudaMemcpyDeviceToHost;
    return copy(cx, dst, reinterpret_cast<const void*>(a + offset), count, kind);
  });
}

cudaError_t cudaMemcpyToSymbolAsync(const void* symbol, const void* src, size_t count,
                                    size_t offset, cudaMemcpyKind kind, cudaStream_t stream) {
  return cudaMemcpyToSymbol(symbol, src, count, offset, kind);
}

cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const void* symbol, size_t count, size_t offset,
                                      cudaMemcpyKind kind, cudaStream_t stream) {
  return cudaMemcpyFromSymbol(dst, symbol, count, offset, kind);
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
