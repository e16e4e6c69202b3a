// Stream-ordered allocation: cudaMallocAsync / cudaFreeAsync and memory pools (mem_pool.h). On a
// capturing stream the allocation and the free become graph memory nodes, as in CUDA.
#include <fmt/format.h>

#include "cudart/api_util.h"
#include "cudart/capture_rules.h"
#include "cudart/graph_params.h"

using namespace warpsim::cudart;

namespace {

MemPool* poolOf(Context& cx, const char* call, cudaMemPool_t pool) {
  auto* p = reinterpret_cast<MemPool*>(pool);
  if (cx.pools().isPool(p)) return p;
  cx.fail(call, cudaErrorInvalidValue, fmt::format("{} is not a memory pool", static_cast<void*>(p)));
  return nullptr;
}

// Pools live on device 0; host-located pools, managed pools and IPC are not simulated.
cudaError_t checkLocation(Context& cx, const char* call, const cudaMemLocation* location,
                          cudaMemAllocationType type) {
  if (location == nullptr) return cudaErrorInvalidValue;
  if (location->type != cudaMemLocationTypeDevice) {
    return cx.fail(call, cudaErrorNotSupported,
                   "memory pools in host memory are not supported by warpsim");
  }
  if (location->id != 0) return cudaErrorInvalidDevice;
  if (type != cudaMemAllocationTypePinned) {
    return cx.fail(call, cudaErrorNotSupported,
                   "only pinned (device) memory pools are supported by warpsim");
  }
  return cudaSuccess;
}

// Allocates from `handle`, or from the device's current pool when it is NULL.
cudaError_t allocate(const char* call, void** ptr, size_t size, cudaMemPool_t handle,
                     cudaStream_t stream) {
  return apiCall(call, cudaErrorMemoryAllocation, [&](Context& cx) {
    if (ptr == nullptr) return cudaErrorInvalidValue;
    MemPool* pool = handle == nullptr ? cx.pools().current() : poolOf(cx, call, handle);
    if (pool == nullptr) return cudaErrorInvalidValue;
    StreamRecord* capturing = nullptr;
    if (cudaError_t e = routeWork(cx, call, stream, capturing); e != cudaSuccess) return e;
    if (size == 0) {  // as cudaMalloc: nothing to allocate
      *ptr = nullptr;
      return cudaSuccess;
    }
    if (capturing != nullptr) {  // an allocation node; the graph owns the memory
      cudaMemAllocNodeParams p{};
      p.poolProps.allocType = cudaMemAllocationTypePinned;
      p.poolProps.location = {cudaMemLocationTypeDevice, 0};
      p.bytesize = size;
      Work w;
      if (cudaError_t e = makeAllocWork(cx, call, &p, w); e != cudaSuccess) {
        return invalidate(cx, call, e, {capturing->capture}, "the allocation node failed");
      }
      cx.captures().record(*capturing, cudaGraphNodeTypeMemAlloc, std::move(w));
      *ptr = p.dptr;
      return cudaSuccess;
    }
    uint64_t a = pool->allocate(size);
    if (a == 0) {
      return cx.fail(call, cudaErrorMemoryAllocation,
                     fmt::format("{} bytes: the device memory (or the pool's maximum size) is "
                                 "exhausted",
                                 size));
    }
    *ptr = reinterpret_cast<void*>(a);
    return cudaSuccess;
  });
}

}  // namespace

extern "C" {

cudaError_t cudaMallocAsync(void** devPtr, size_t size, cudaStream_t hStream) {
  return allocate("cudaMallocAsync", devPtr, size, nullptr, hStream);
}

cudaError_t cudaMallocFromPoolAsync(void** ptr, size_t size, cudaMemPool_t memPool,
                                    cudaStream_t stream) {
  if (memPool == nullptr) return Context::get().setError(cudaErrorInvalidValue);
  return allocate("cudaMallocFromPoolAsync", ptr, size, memPool, stream);
}

cudaError_t cudaFreeAsync(void* devPtr, cudaStream_t hStream) {
  const char* call = "cudaFreeAsync";
  return apiCall(call, cudaErrorInvalidValue, [&](Context& cx) {
    StreamRecord* capturing = nullptr;
    if (cudaError_t e = routeWork(cx, call, hStream, capturing); e != cudaSuccess) return e;
    if (devPtr == nullptr) return cudaSuccess;
    const uint64_t a = address(devPtr);
    if (capturing != nullptr) {  // a free node, which must free a graph allocation
      Work w;
      if (cudaError_t e = makeFreeWork(cx, call, devPtr, w); e != cudaSuccess) {
        return invalidate(cx, call, e, {capturing->capture}, "the free node failed");
      }
      cx.captures().record(*capturing, cudaGraphNodeTypeMemFree, std::move(w));
      return cudaSuccess;
    }
    if (cx.pools().free(a)) return cudaSuccess;
    if (GraphAllocation* g = cx.pools().graphAllocationAt(a)) {
      if (!g->live) {
        return cx.fail(call, cudaErrorInvalidValue,
                       fmt::format("{}: the graph allocation is not allocated", devPtr));
      }
      cx.pools().setLive(*g, false);
      return cudaSuccess;
    }
    // Memory from cudaMalloc: freed as cudaFree frees it.
    cx.releaseManaged(a);
    cx.device().free(a);
    return cudaSuccess;
  });
}

cudaError_t cudaMemPoolCreate(cudaMemPool_t* memPool, const cudaMemPoolProps* poolProps) {
  const char* call = "cudaMemPoolCreate";
  return apiCall(call, cudaErrorInvalidValue, [&](Context& cx) {
    if (memPool == nullptr || poolProps == nullptr) return cudaErrorInvalidValue;
    if (cudaError_t e = checkLocation(cx, call, &poolProps->location, poolProps->allocType);
        e != cudaSuccess) {
      return e;
    }
    if (poolProps->handleTypes != cudaMemHandleTypeNone) {
      return cx.fail(call, cudaErrorNotSupported,
                     "memory pools shared between processes (handleTypes) are not supported by "
                     "warpsim");
    }
    *memPool = reinterpret_cast<cudaMemPool_t>(cx.pools().create(poolProps->maxSize));
    return cudaSuccess;
  });
}

cudaError_t cudaMemPoolDestroy(cudaMemPool_t memPool) {
  const char* call = "cudaMemPoolDestroy";
  return apiCall(call, cudaErrorInvalidValue, [&](Context& cx) {
    MemPool* pool = poolOf(cx, call, memPool);
    if (pool == nullptr) return cudaErrorInvalidValue;
    if (pool == cx.pools().defaultPool()) {
      return cx.fail(call, cudaErrorInvalidValue, "a device's default memory pool cannot be destroyed");
    }
    cx.pools().destroy(pool);
    return cudaSuccess;
  });
}

cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep) {
  return apiCall("cudaMemPoolTrimTo", cudaErrorInvalidValue, [&](Context& cx) {
    MemPool* pool = poolOf(cx, "cudaMemPoolTrimTo", memPool);
    if (pool == nullptr) return cudaErrorInvalidValue;
    pool->releaseAbove(minBytesToKeep);
    return cudaSuccess;
  });
}

cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool, cudaMemPoolAttr attr, void* value) {
  const char* call = "cudaMemPoolSetAttribute";
  return apiCall(call, cudaErrorInvalidValue, [&](Context& cx) {
    MemPool* pool = poolOf(cx, call, memPool);
    if (pool == nullptr || value == nullptr) return cudaErrorInvalidValue;
    // The reuse policies are ints, the sizes 64-bit (cuuint64_t).
    auto flag = [&] { return *static_cast<const int*>(value); };
    auto bytes = [&] { return *static_cast<const unsigned long long*>(value); };
    switch (attr) {
      case cudaMemPoolReuseFollowEventDependencies: pool->reuseFollowEventDependencies = flag(); break;
      case cudaMemPoolReuseAllowOpportunistic: pool->reuseAllowOpportunistic = flag(); break;
      case cudaMemPoolReuseAllowInternalDependencies:
        pool->reuseAllowInternalDependencies = flag();
        break;
      case cudaMemPoolAttrReleaseThreshold: pool->releaseThreshold = bytes(); break;
      case cudaMemPoolAttrReservedMemHigh:
      case cudaMemPoolAttrUsedMemHigh:
        if (bytes() != 0) {
          return cx.fail(call, cudaErrorInvalidValue, "a high watermark can only be reset to 0");
        }
        if (attr == cudaMemPoolAttrReservedMemHigh) pool->resetReservedHigh();
        else pool->resetUsedHigh();
        break;
      default:
        return cx.fail(call, cudaErrorInvalidValue,
                       fmt::format("attribute {} cannot be set", static_cast<int>(attr)));
    }
    return cudaSuccess;
  });
}

cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool, cudaMemPoolAttr attr, void* value) {
  const char* call = "cudaMemPoolGetAttribute";
  return apiCall(call, cudaErrorInvalidValue, [&](Context& cx) {
    MemPool* pool = poolOf(cx, call, memPool);
    if (pool == nullptr || value == nullptr) return cudaErrorInvalidValue;
    auto* flag = static_cast<int*>(value);
    auto* bytes = static_cast<unsigned long long*>(value);
    switch (attr) {
      case cudaMemPoolReuseFollowEventDependencies: *flag = pool->reuseFollowEventDependencies; break;
      case cudaMemPoolReuseAllowOpportunistic: *flag = pool->reuseAllowOpportunistic; break;
      case cudaMemPoolReuseAllowInternalDependencies:
        *flag = pool->reuseAllowInternalDependencies;
        break;
      case cudaMemPoolAttrReleaseThreshold: *bytes = pool->releaseThreshold; break;
      case cudaMemPoolAttrReservedMemCurrent: *bytes = pool->reservedBytes(); break;
      case cudaMemPoolAttrReservedMemHigh: *bytes = pool->reservedHigh(); break;
      case cudaMemPoolAttrUsedMemCurrent: *bytes = pool->usedBytes(); break;
      case cudaMemPoolAttrUsedMemHigh: *bytes = pool->usedHigh(); break;
      default:
        return cx.fail(call, cudaErrorInvalidValue,
                       fmt::format("{} is not a memory pool attribute", static_cast<int>(attr)));
    }
    return cudaSuccess;
  });
}

// The one device reads and writes its pools; other locations are not simulated.
cudaError_t cudaMemPoolSetAccess(cudaMemPool_t memPool, const cudaMemAccessDesc* descList,
                                 size_t count) {
  const char* call = "cudaMemPoolSetAccess";
  return apiCall(call, cudaErrorInvalidValue, [&](Context& cx) {
    if (poolOf(cx, call, memPool) == nullptr) return cudaErrorInvalidValue;
    if (count != 0 && descList == nullptr) return cudaErrorInvalidValue;
    for (size_t i = 0; i < count; ++i) {
      const cudaMemAccessDesc& d = descList[i];
      if (d.location.type != cudaMemLocationTypeDevice) {
        return cx.fail(call, cudaErrorNotSupported,
                       "host access to memory pools is not supported by warpsim");
      }
      if (d.location.id != 0) return cudaErrorInvalidDevice;
      if (d.flags != cudaMemAccessFlagsProtReadWrite) {
        return cx.fail(call, cudaErrorInvalidValue,
                       "the pool's own device keeps read-write access");
      }
    }
    return cudaSuccess;
  });
}

cudaError_t cudaMemPoolGetAccess(cudaMemAccessFlags* flags, cudaMemPool_t memPool,
                                 cudaMemLocation* location) {
  return apiCall("cudaMemPoolGetAccess", cudaErrorInvalidValue, [&](Context& cx) {
    if (poolOf(cx, "cudaMemPoolGetAccess", memPool) == nullptr) return cudaErrorInvalidValue;
    if (flags == nullptr || location == nullptr) return cudaErrorInvalidValue;
    bool own = location->type == cudaMemLocationTypeDevice && location->id == 0;
    *flags = own ? cudaMemAccessFlagsProtReadWrite : cudaMemAccessFlagsProtNone;
    return cudaSuccess;
  });
}

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t* memPool, int device) {
  return apiCall("cudaDeviceGetDefaultMemPool", cudaErrorInvalidValue, [&](Context& cx) {
    if (memPool == nullptr) return cudaErrorInvalidValue;
    if (device != 0) return cudaErrorInvalidDevice;
    *memPool = reinterpret_cast<cudaMemPool_t>(cx.pools().defaultPool());
    return cudaSuccess;
  });
}

cudaError_t cudaDeviceGetMemPool(cudaMemPool_t* memPool, int device) {
  return apiCall("cudaDeviceGetMemPool", cudaErrorInvalidValue, [&](Context& cx) {
    if (memPool == nullptr) return cudaErrorInvalidValue;
    if (device != 0) return cudaErrorInvalidDevice;
    *memPool = reinterpret_cast<cudaMemPool_t>(cx.pools().current());
    return cudaSuccess;
  });
}

cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t memPool) {
  return apiCall("cudaDeviceSetMemPool", cudaErrorInvalidValue, [&](Context& cx) {
    if (device != 0) return cudaErrorInvalidDevice;
    MemPool* pool = poolOf(cx, "cudaDeviceSetMemPool", memPool);
    if (pool == nullptr) return cudaErrorInvalidValue;
    cx.pools().setCurrent(pool);
    return cudaSuccess;
  });
}

cudaError_t cudaMemGetDefaultMemPool(cudaMemPool_t* memPool, cudaMemLocation* location,
                                     cudaMemAllocationType type) {
  const char* call = "cudaMemGetDefaultMemPool";
  return apiCall(call, cudaErrorInvalidValue, [&](Context& cx) {
    if (memPool == nullptr) return cudaErrorInvalidValue;
    if (cudaError_t e = checkLocation(cx, call, location, type); e != cudaSuccess) return e;
    *memPool = reinterpret_cast<cudaMemPool_t>(cx.pools().defaultPool());
    return cudaSuccess;
  });
}

cudaError_t cudaMemGetMemPool(cudaMemPool_t* memPool, cudaMemLocation* location,
                              cudaMemAllocationType type) {
  const char* call = "cudaMemGetMemPool";
  return apiCall(call, cudaErrorInvalidValue, [&](Context& cx) {
    if (memPool == nullptr) return cudaErrorInvalidValue;
    if (cudaError_t e = checkLocation(cx, call, location, type); e != cudaSuccess) return e;
    *memPool = reinterpret_cast<cudaMemPool_t>(cx.pools().current());
    return cudaSuccess;
  });
}

cudaError_t cudaMemSetMemPool(cudaMemLocation* location, cudaMemAllocationType type,
                              cudaMemPool_t memPool) {
  const char* call = "cudaMemSetMemPool";
  return apiCall(call, cudaErrorInvalidValue, [&](Context& cx) {
    if (cudaError_t e = checkLocation(cx, call, location, type); e != cudaSuccess) return e;
    MemPool* pool = poolOf(cx, call, memPool);
    if (pool == nullptr) return cudaErrorInvalidValue;
    cx.pools().setCurrent(pool);
    return cudaSuccess;
  });
}

}  // extern "C"

WARPSIM_SAME_FUNCTION(cudaMallocAsync, cudaMallocAsync_ptsz)
WARPSIM_SAME_FUNCTION(cudaFreeAsync, cudaFreeAsync_ptsz)
WARPSIM_SAME_FUNCTION(cudaMallocFromPoolAsync, cudaMallocFromPoolAsync_ptsz)
