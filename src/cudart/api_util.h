// Shared by the api_*.cpp files: entering the runtime (the context lock) and turning the host
// API's exceptions into CUDA error codes with a one-line diagnostic.
#pragma once
#include <cuda_runtime_api.h>

#include <exception>
#include <mutex>

#include "cudart/context.h"
#include "runtime/error.h"

namespace warpsim::cudart {

// Runs `body` (returning cudaError_t) under the context lock; a runtime::Error becomes
// `onError` with the message printed, and the result is recorded as the last error.
template <class Body>
cudaError_t apiCall(const char* name, cudaError_t onError, Body&& body) {
  Context& cx = Context::get();
  std::lock_guard<std::recursive_mutex> lock(cx.mutex());
  try {
    return cx.setError(body(cx));
  } catch (const runtime::Error& e) {
    return cx.fail(name, onError, e.what());
  } catch (const std::exception& e) {  // e.g. std::bad_alloc: never let it cross the C ABI
    return cx.fail(name, cudaErrorUnknown, e.what());
  }
}

inline uint64_t address(const void* p) { return reinterpret_cast<uint64_t>(p); }

}  // namespace warpsim::cudart

// The per-thread-default-stream entry points (nvcc --default-stream per-thread) are the same
// functions here: every operation completes when issued, on any stream.
#define WARPSIM_SAME_FUNCTION(base, other) \
  extern "C" decltype(base) other __attribute__((alias(#base)));
