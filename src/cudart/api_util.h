// Shared by the api_*.cpp files: entering the runtime (the context lock) and turning the host
// API's exceptions into CUDA error codes with a one-line diagnostic.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdlib>
#include <exception>
#include <mutex>

#include "cudart/context.h"
#include "runtime/error.h"

namespace warpsim::cudart {

// Runs `body` (returning cudaError_t) under the context lock; a runtime::Error becomes
// `onError` with the message printed, and the result is recorded as the last error. The kernels
// waiting in the concurrent batch keep waiting: for the calls that add to it or only look at
// host-side state (stream launches, event records, stream waits, queries of properties).
template <class Body>
cudaError_t apiCallKeepingBatch(const char* name, cudaError_t onError, Body&& body) {
  Context& cx = Context::get();
  cudaError_t result;
  {
    std::lock_guard<std::recursive_mutex> lock(cx.mutex());
    try {
      result = cx.setError(body(cx));
    } catch (const runtime::Error& e) {
      result = cx.fail(name, onError, e.what());
    } catch (const std::exception& e) {  // e.g. std::bad_alloc: never let it cross the C ABI
      result = cx.fail(name, cudaErrorUnknown, e.what());
    }
  }
  // A kernel fault's one-line message is already on stderr.
  if (cx.faultEndsProcess()) std::exit(1);
  return result;
}

// As apiCallKeepingBatch, after running the kernels waiting in the concurrent batch (a fault
// among them is returned, and `body` does not run).
template <class Body>
cudaError_t apiCall(const char* name, cudaError_t onError, Body&& body) {
  return apiCallKeepingBatch(name, onError, [&](Context& cx) {
    if (cudaError_t e = cx.runBatch(); e != cudaSuccess) return e;
    return body(cx);
  });
}

inline uint64_t address(const void* p) { return reinterpret_cast<uint64_t>(p); }

}  // namespace warpsim::cudart

// The per-thread-default-stream entry points (nvcc --default-stream per-thread) are the same
// functions here: cudaStreamPerThread is an ordinary stream.
#define WARPSIM_SAME_FUNCTION(base, other) \
  extern "C" decltype(base) other __attribute__((alias(#base)));
