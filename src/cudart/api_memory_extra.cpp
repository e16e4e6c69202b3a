// Memory calls beyond the basic copies: stream-ordered allocation, managed-memory hints, pointer
// queries, 2D fills, host registration and peer copies (one device: a plain copy).
#include <cstring>

#include "cudart/api_util.h"
#include "func/device_memory.h"

using namespace warpsim;
using namespace warpsim::cudart;

extern "C" {

cudaError_t cudaMallocAsync(void** devPtr, size_t size, cudaStream_t hStream) {
  return cudaMalloc(devPtr, size);
}

cudaError_t cudaFreeAsync(void* devPtr, cudaStream_t hStream) { return cudaFree(devPtr); }

// Hints: managed memory is mirrored at every synchronisation point, so they change nothing.
cudaError_t cudaMemPrefetchAsync(const void* devPtr, size_t count, cudaMemLocation location,
                                 unsigned int flags, cudaStream_t stream) {
  return cudaSuccess;
}

cudaError_t cudaMemAdvise(const void* devPtr, size_t count, cudaMemoryAdvise advice,
                          cudaMemLocation location) {
  return cudaSuccess;
}

cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* attributes, const void* ptr) {
  return apiCall("cudaPointerGetAttributes", cudaErrorInvalidValue, [&](Context& cx) {
    if (attributes == nullptr) return cudaErrorInvalidValue;
    std::memset(attributes, 0, sizeof *attributes);
    attributes->device = 0;
    if (cx.isManaged(address(ptr))) {
      attributes->type = cudaMemoryTypeManaged;
      attributes->devicePointer = const_cast<void*>(ptr);
      attributes->hostPointer = const_cast<void*>(ptr);
    } else if (cx.device().memory().isMapped(address(ptr), 1)) {
      attributes->type = cudaMemoryTypeDevice;
      attributes->devicePointer = const_cast<void*>(ptr);
    } else {
      attributes->type = cudaMemoryTypeUnregistered;
      attributes->device = -2;
      attributes->hostPointer = const_cast<void*>(ptr);
    }
    return cudaSuccess;
  });
}

cudaError_t cudaMemset2D(void* devPtr, size_t pitch, int value, size_t width, size_t height) {
  if (width > pitch) return Context::get().setError(cudaErrorInvalidPitchValue);
  for (size_t row = 0; row < height; ++row) {
    cudaError_t e = cudaMemset(static_cast<char*>(devPtr) + row * pitch, value, width);
    if (e != cudaSuccess) return e;
  }
  return cudaSuccess;
}

cudaError_t cudaMemset2DAsync(void* devPtr, size_t pitch, int value, size_t width, size_t height,
                              cudaStream_t stream) {
  return cudaMemset2D(devPtr, pitch, value, width, height);
}

cudaError_t cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch,
                              size_t width, size_t height, cudaMemcpyKind kind,
                              cudaStream_t stream) {
  return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}

// Pinning is a transfer-speed hint; the memory stays host-only (kernels cannot read it).
cudaError_t cudaHostRegister(void* ptr, size_t size, unsigned int flags) { return cudaSuccess; }

cudaError_t cudaHostUnregister(void* ptr) { return cudaSuccess; }

cudaError_t cudaHostGetDevicePointer(void** pDevice, void* pHost, unsigned int flags) {
  Context& cx = Context::get();
  std::lock_guard<std::recursive_mutex> lock(cx.mutex());
  return cx.fail("cudaHostGetDevicePointer", cudaErrorNotSupported,
                 "mapped (zero-copy) host memory is not supported by warpsim; use cudaMalloc "
                 "or cudaMallocManaged");
}

cudaError_t cudaMemcpyPeer(void* dst, int dstDevice, const void* src, int srcDevice,
                           size_t count) {
  if (dstDevice != 0 || srcDevice != 0) return Context::get().setError(cudaErrorInvalidDevice);
  return cudaMemcpy(dst, src, count, cudaMemcpyDeviceToDevice);
}

cudaError_t cudaDeviceCanAccessPeer(int* canAccessPeer, int device, int peerDevice) {
  if (canAccessPeer == nullptr) return Context::get().setError(cudaErrorInvalidValue);
  *canAccessPeer = 0;
  return device == 0 && peerDevice == 0 ? cudaSuccess
                                        : Context::get().setError(cudaErrorInvalidDevice);
}

}  // extern "C"

WARPSIM_SAME_FUNCTION(cudaMallocAsync, cudaMallocAsync_ptsz)
WARPSIM_SAME_FUNCTION(cudaFreeAsync, cudaFreeAsync_ptsz)
WARPSIM_SAME_FUNCTION(cudaMemPrefetchAsync, cudaMemPrefetchAsync_ptsz)
WARPSIM_SAME_FUNCTION(cudaMemset2D, cudaMemset2D_ptds)
WARPSIM_SAME_FUNCTION(cudaMemset2DAsync, cudaMemset2DAsync_ptsz)
WARPSIM_SAME_FUNCTION(cudaMemcpy2DAsync, cudaMemcpy2DAsync_ptsz)

extern "C" {

// A plain value: needs no device (texture and array calls that would use it are unsupported).
cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, cudaChannelFormatKind f) {
  return cudaChannelFormatDesc{x, y, z, w, f};
}

}  // extern "C"
