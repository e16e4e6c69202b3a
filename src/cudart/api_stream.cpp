// Streams and events. Every operation completes when it is issued (context.h), so streams only
// need to exist; events record the simulated clock.
#include "cudart/api_util.h"

using namespace warpsim::cudart;

namespace {

EventRecord* record(cudaEvent_t e) { return reinterpret_cast<EventRecord*>(e); }

}  // namespace

extern "C" {

cudaError_t cudaStreamCreate(cudaStream_t* pStream) {
  return apiCall("cudaStreamCreate", cudaErrorInvalidValue, [&](Context& cx) {
    if (pStream == nullptr) return cudaErrorInvalidValue;
    *pStream = cx.newStream();
    return cudaSuccess;
  });
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* pStream, unsigned int flags) {
  return cudaStreamCreate(pStream);
}

cudaError_t cudaStreamCreateWithPriority(cudaStream_t* pStream, unsigned int flags, int priority) {
  return cudaStreamCreate(pStream);
}

cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  return apiCall("cudaStreamDestroy", cudaErrorInvalidResourceHandle, [&](Context& cx) {
    return cx.destroyStream(stream) ? cudaSuccess : cudaErrorInvalidResourceHandle;
  });
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  return apiCall("cudaStreamSynchronize", cudaErrorInvalidResourceHandle, [&](Context& cx) {
    return cx.isStream(stream) ? cx.stickyError() : cudaErrorInvalidResourceHandle;
  });
}

cudaError_t cudaStreamQuery(cudaStream_t stream) { return cudaStreamSynchronize(stream); }

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags) {
  return apiCall("cudaStreamWaitEvent", cudaErrorInvalidResourceHandle, [&](Context& cx) {
    return cx.isStream(stream) && cx.isEvent(record(event)) ? cudaSuccess
                                                            : cudaErrorInvalidResourceHandle;
  });
}

cudaError_t cudaEventCreate(cudaEvent_t* event) {
  return apiCall("cudaEventCreate", cudaErrorInvalidValue, [&](Context& cx) {
    if (event == nullptr) return cudaErrorInvalidValue;
    *event = reinterpret_cast<cudaEvent_t>(cx.newEvent());
    return cudaSuccess;
  });
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags) {
  cudaError_t e = cudaEventCreate(event);
  if (e == cudaSuccess) record(*event)->timing = (flags & cudaEventDisableTiming) == 0;
  return e;
}

cudaError_t cudaEventDestroy(cudaEvent_t event) {
  return apiCall("cudaEventDestroy", cudaErrorInvalidResourceHandle, [&](Context& cx) {
    return cx.destroyEvent(record(event)) ? cudaSuccess : cudaErrorInvalidResourceHandle;
  });
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  return apiCall("cudaEventRecord", cudaErrorInvalidResourceHandle, [&](Context& cx) {
    if (!cx.isEvent(record(event)) || !cx.isStream(stream)) return cudaErrorInvalidResourceHandle;
    record(event)->recorded = true;
    record(event)->timeNs = cx.nowNs();
    return cudaSuccess;
  });
}

cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags) {
  return cudaEventRecord(event, stream);
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  return apiCall("cudaEventSynchronize", cudaErrorInvalidResourceHandle, [&](Context& cx) {
    return cx.isEvent(record(event)) ? cx.stickyError() : cudaErrorInvalidResourceHandle;
  });
}

cudaError_t cudaEventQuery(cudaEvent_t event) { return cudaEventSynchronize(event); }

cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  return apiCall("cudaEventElapsedTime", cudaErrorInvalidResourceHandle, [&](Context& cx) {
    if (ms == nullptr) return cudaErrorInvalidValue;
    if (!cx.isEvent(record(start)) || !cx.isEvent(record(end))) {
      return cudaErrorInvalidResourceHandle;
    }
    for (const EventRecord* r : {record(start), record(end)}) {
      if (!r->recorded || !r->timing) return cudaErrorInvalidResourceHandle;
    }
    double ns = static_cast<double>(record(end)->timeNs) - static_cast<double>(record(start)->timeNs);
    *ms = static_cast<float>(ns / 1e6);
    return cudaSuccess;
  });
}

}  // extern "C"

WARPSIM_SAME_FUNCTION(cudaEventRecordWithFlags, cudaEventRecordWithFlags_ptsz)
WARPSIM_SAME_FUNCTION(cudaEventRecord, cudaEventRecord_ptsz)
WARPSIM_SAME_FUNCTION(cudaStreamQuery, cudaStreamQuery_ptsz)
WARPSIM_SAME_FUNCTION(cudaStreamSynchronize, cudaStreamSynchronize_ptsz)
WARPSIM_SAME_FUNCTION(cudaStreamWaitEvent, cudaStreamWaitEvent_ptsz)

extern "C" {

cudaError_t cudaStreamGetFlags(cudaStream_t hStream, unsigned int* flags) {
  if (flags != nullptr) *flags = cudaStreamDefault;
  return cudaSuccess;
}

cudaError_t cudaStreamGetPriority(cudaStream_t hStream, int* priority) {
  if (priority != nullptr) *priority = 0;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetStreamPriorityRange(int* leastPriority, int* greatestPriority) {
  if (leastPriority != nullptr) *leastPriority = 0;
  if (greatestPriority != nullptr) *greatestPriority = 0;
  return cudaSuccess;
}

// Host functions run at once: the work queued before them on the stream has completed.
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* userData) {
  {
    Context& cx = Context::get();
    std::lock_guard<std::recursive_mutex> lock(cx.mutex());
    if (!cx.isStream(stream) || fn == nullptr) return cx.setError(cudaErrorInvalidValue);
  }
  fn(userData);
  return cudaSuccess;
}

cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback,
                                  void* userData, unsigned int flags) {
  cudaError_t status = Context::get().stickyError();
  if (callback == nullptr) return Context::get().setError(cudaErrorInvalidValue);
  callback(stream, status, userData);
  return cudaSuccess;
}

}  // extern "C"

WARPSIM_SAME_FUNCTION(cudaStreamGetFlags, cudaStreamGetFlags_ptsz)
WARPSIM_SAME_FUNCTION(cudaStreamGetPriority, cudaStreamGetPriority_ptsz)
WARPSIM_SAME_FUNCTION(cudaLaunchHostFunc, cudaLaunchHostFunc_ptsz)
WARPSIM_SAME_FUNCTION(cudaStreamAddCallback, cudaStreamAddCallback_ptsz)
