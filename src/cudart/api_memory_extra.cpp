// Memory calls beyond the basic copies: managed-memory hints, pointer queries, 2D fills and copies,
// and peer copies (one device: a plain copy).
#include <cstring>

#include "cudart/api_util.h"
#include "cudart/capture_rules.h"
#include "cudart/memory_ops.h"
#include "cudart/stream_copy.h"
#include "func/device_memory.h"

using namespace warpsim;
using namespace warpsim::cudart;

extern "C" {

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
    if (const HostMapping* m = cx.hostMappings().find(ptr)) {  // pinned, mapped host memory
      attributes->type = cudaMemoryTypeHost;
      attributes->hostPointer = const_cast<void*>(ptr);
      attributes->devicePointer = reinterpret_cast<void*>(
          m->registered ? m->device + (address(ptr) - m->host) : address(ptr));
    } else if (cx.isManaged(address(ptr))) {
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
  return apiCall("cudaMemset2D", cudaErrorInvalidValue, [&](Context& cx) {
    if (width > pitch) return cudaErrorInvalidPitchValue;
    if (cudaError_t e = checkUnsafeCall(cx, "cudaMemset2D"); e != cudaSuccess) return e;
    if (cudaError_t e = checkLegacyUse(cx, "cudaMemset2D"); e != cudaSuccess) return e;
    return fillMemory2D(cx, devPtr, pitch, static_cast<unsigned>(value), 1, width, height);
  });
}

cudaError_t cudaMemset2DAsync(void* devPtr, size_t pitch, int value, size_t width, size_t height,
                              cudaStream_t stream) {
  return apiCall("cudaMemset2DAsync", cudaErrorInvalidValue, [&](Context& cx) {
    if (width > pitch) return cudaErrorInvalidPitchValue;
    cudaMemsetParams p{devPtr, pitch, static_cast<unsigned>(value) & 0xff, 1, width, height};
    return fillOnStream(cx, "cudaMemset2DAsync", stream, p);
  });
}

cudaError_t cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch,
                              size_t width, size_t height, cudaMemcpyKind kind,
                              cudaStream_t stream) {
  return apiCall("cudaMemcpy2DAsync", cudaErrorInvalidValue, [&](Context& cx) {
    if (width > dpitch || width > spitch) return cudaErrorInvalidPitchValue;
    return copyOnStream(cx, "cudaMemcpy2DAsync", stream,
                        copyParams2D(dst, dpitch, src, spitch, width, height, kind));
  });
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
