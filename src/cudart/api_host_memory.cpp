// Page-locked host memory: cudaMallocHost, cudaHostAlloc, cudaHostRegister and their device
// pointers. The device has unified addressing, so all of it is mapped (zero-copy), whatever the
// flags say, as on a GPU: allocations are managed memory at the address the device uses (host
// pointer == device pointer), registered ranges get a mirror (host_mappings.h).
#include <fmt/format.h>

#include <cstdlib>

#include "cudart/api_util.h"
#include "cudart/capture_rules.h"

using namespace warpsim::cudart;

namespace {

constexpr unsigned kAllocFlags = cudaHostAllocPortable | cudaHostAllocMapped |
                                 cudaHostAllocWriteCombined;
constexpr unsigned kRegisterFlags = cudaHostRegisterPortable | cudaHostRegisterMapped |
                                    cudaHostRegisterIoMemory | cudaHostRegisterReadOnly;

cudaError_t hostAlloc(const char* call, void** pHost, size_t size, unsigned flags) {
  return apiCall(call, cudaErrorMemoryAllocation, [&](Context& cx) {
    if (pHost == nullptr || (flags & ~kAllocFlags) != 0) return cudaErrorInvalidValue;
    uint64_t a = 0;
    if (cudaError_t e = cx.allocateManaged(size, a); e != cudaSuccess) return e;
    cx.hostMappings().add(HostMapping{a, size == 0 ? 1 : size, a, flags, false});
    *pHost = reinterpret_cast<void*>(a);
    return cudaSuccess;
  });
}

}  // namespace

extern "C" {

cudaError_t cudaMallocHost(void** ptr, size_t size) {
  return hostAlloc("cudaMallocHost", ptr, size, cudaHostAllocDefault);
}

cudaError_t cudaHostAlloc(void** pHost, size_t size, unsigned int flags) {
  return hostAlloc("cudaHostAlloc", pHost, size, flags);
}

cudaError_t cudaFreeHost(void* ptr) {
  const char* call = "cudaFreeHost";
  return apiCall(call, cudaErrorInvalidValue, [&](Context& cx) {
    if (ptr == nullptr) return cudaSuccess;
    if (cudaError_t e = checkUnsafeCall(cx, call); e != cudaSuccess) return e;
    HostMapping m = cx.hostMappings().take(ptr, false);
    if (m.bytes == 0) {
      return cx.fail(call, cudaErrorInvalidValue,
                     fmt::format("{} is not memory from cudaMallocHost or cudaHostAlloc", ptr));
    }
    cx.releaseManaged(m.host);
    cx.device().free(m.device);
    return cudaSuccess;
  });
}

cudaError_t cudaHostRegister(void* ptr, size_t size, unsigned int flags) {
  const char* call = "cudaHostRegister";
  return apiCall(call, cudaErrorMemoryAllocation, [&](Context& cx) {
    if (ptr == nullptr || size == 0 || (flags & ~kRegisterFlags) != 0) {
      return cudaErrorInvalidValue;
    }
    if ((flags & cudaHostRegisterIoMemory) != 0) {
      return cx.fail(call, cudaErrorNotSupported,
                     "registering I/O memory is not supported by warpsim");
    }
    if (cx.hostMappings().overlaps(ptr, size)) {
      return cx.fail(call, cudaErrorHostMemoryAlreadyRegistered,
                     fmt::format("[{}, +{}) overlaps page-locked memory", ptr, size));
    }
    uint64_t mirror = cx.device().malloc(size);
    cx.hostMappings().add(HostMapping{address(ptr), size, mirror, flags, true});
    cx.device().memcpyHtoD(mirror, ptr, size);
    return cudaSuccess;
  });
}

cudaError_t cudaHostUnregister(void* ptr) {
  const char* call = "cudaHostUnregister";
  return apiCall(call, cudaErrorInvalidValue, [&](Context& cx) {
    if (ptr == nullptr) return cudaErrorInvalidValue;
    HostMapping m = cx.hostMappings().take(ptr, true);
    if (m.bytes == 0) {
      return cx.fail(call, cudaErrorHostMemoryNotRegistered,
                     fmt::format("{} is not the start of a range registered with "
                                 "cudaHostRegister",
                                 ptr));
    }
    cx.device().free(m.device);
    return cudaSuccess;
  });
}

cudaError_t cudaHostGetDevicePointer(void** pDevice, void* pHost, unsigned int flags) {
  const char* call = "cudaHostGetDevicePointer";
  return apiCall(call, cudaErrorInvalidValue, [&](Context& cx) {
    if (pDevice == nullptr || flags != 0) return cudaErrorInvalidValue;
    const HostMapping* m = cx.hostMappings().find(pHost);
    if (m == nullptr) {
      return cx.fail(call, cudaErrorInvalidValue,
                     fmt::format("{} is not page-locked memory (cudaMallocHost, cudaHostAlloc, "
                                 "cudaHostRegister)",
                                 pHost));
    }
    *pDevice = reinterpret_cast<void*>(m->device + (address(pHost) - m->host));
    return cudaSuccess;
  });
}

cudaError_t cudaHostGetFlags(unsigned int* pFlags, void* pHost) {
  const char* call = "cudaHostGetFlags";
  return apiCall(call, cudaErrorInvalidValue, [&](Context& cx) {
    if (pFlags == nullptr) return cudaErrorInvalidValue;
    const HostMapping* m = cx.hostMappings().find(pHost);
    if (m == nullptr || m->registered) {
      return cx.fail(call, cudaErrorInvalidValue,
                     fmt::format("{} is not memory from cudaHostAlloc", pHost));
    }
    *pFlags = m->flags;
    return cudaSuccess;
  });
}

}  // extern "C"
