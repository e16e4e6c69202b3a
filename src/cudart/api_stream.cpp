// Streams and events. Every operation completes when it is issued (context.h), so streams only
// need to exist, events record the simulated clock, and a synchronisation is where memory pools
// release memory. A capturing stream records its work instead (capture.h): an event recorded
// there carries the capture's nodes, and a stream waiting on it joins the capture.
#include <fmt/format.h>

#include "cudart/api_util.h"
#include "cudart/capture_rules.h"

using namespace warpsim::cudart;

namespace {

EventRecord* record(cudaEvent_t e) { return reinterpret_cast<EventRecord*>(e); }

// A stream synchronisation or query: refused for a capturing stream (and for the legacy stream
// while a blocking stream captures). A synchronisation is where the pools release memory above
// their thresholds.
cudaError_t synchronize(Context& cx, const char* call, StreamRecord* s, bool release) {
  if (s == nullptr) return cudaErrorInvalidResourceHandle;
  if (s->capture != nullptr) {
    return invalidate(cx, call, cudaErrorStreamCaptureUnsupported, {s->capture},
                      "the stream is capturing");
  }
  if (s->legacy) {
    if (cudaError_t e = checkLegacyUse(cx, call); e != cudaSuccess) return e;
  }
  if (release) cx.pools().synchronize();
  return cx.stickyError();
}

// An event last recorded in a capture cannot be waited for from the host (cudaErrorCapturedEvent);
// while its capture is active that invalidates it.
cudaError_t checkNotCaptured(Context& cx, const char* call, EventRecord* e) {
  if (e->captureId == 0) return cudaSuccess;
  std::vector<CaptureSequence*> active;
  if (CaptureSequence* s = cx.captures().find(e->captureId)) active.push_back(s);
  const char* why = "the event was last recorded in a capturing stream";
  if (active.empty()) return cx.fail(call, cudaErrorCapturedEvent, why);
  return invalidate(cx, call, cudaErrorCapturedEvent, active, why);
}

// cudaStreamWaitEvent on a capturing stream or with an event recorded in a capture.
cudaError_t waitInCapture(Context& cx, StreamRecord& s, EventRecord& e, unsigned flags) {
  const char* call = "cudaStreamWaitEvent";
  if (s.capture != nullptr && (flags & cudaEventWaitExternal) != 0) {  // an event wait node
    cx.captures().record(s, cudaGraphNodeTypeWaitEvent,
                         EventWork{reinterpret_cast<cudaEvent_t>(&e)});
    return cudaSuccess;
  }
  CaptureSequence* from = e.captureId != 0 ? cx.captures().find(e.captureId) : nullptr;
  if (from == nullptr) {
    if (s.capture == nullptr) return cudaSuccess;  // the recorded work is complete already
    return invalidate(cx, call, cudaErrorStreamCaptureIsolation, {s.capture},
                      "a capturing stream waits on an event recorded outside its capture");
  }
  if (s.capture != nullptr && s.capture != from) {
    return invalidate(cx, call, cudaErrorStreamCaptureMerge, {s.capture, from},
                      "the event was recorded in another capture");
  }
  if (from->invalidated) {
    return s.capture != nullptr ? cudaErrorStreamCaptureInvalidated : cudaErrorInvalidValue;
  }
  if (s.legacy) {
    return invalidate(cx, call, cudaErrorStreamCaptureImplicit, {from},
                      "the legacy stream cannot join a capture");
  }
  if (s.capture == nullptr) {  // a fork: the stream joins the capture after the event's nodes
    cx.captures().join(*from, s, e.captureNodes);
    return cudaSuccess;
  }
  cx.captures().addDependencies(s, e.captureNodes);  // a join: it also follows the event's nodes
  return cudaSuccess;
}

cudaError_t recordEvent(const char* call, cudaEvent_t event, cudaStream_t stream,
                        unsigned flags) {
  return apiCallKeepingBatch(call, cudaErrorInvalidResourceHandle, [&](Context& cx) {
    EventRecord* e = record(event);
    if (!cx.isEvent(e)) return cudaErrorInvalidResourceHandle;
    if ((flags & ~unsigned{cudaEventRecordExternal}) != 0) return cudaErrorInvalidValue;
    StreamRecord* capturing = nullptr;
    if (cudaError_t err = routeWork(cx, call, stream, capturing); err != cudaSuccess) return err;
    if (capturing == nullptr) {
      // The legacy stream waits for every stream's kernels; another stream marks its position
      // behind the kernels it has in the concurrent batch (the time comes when they have run).
      StreamRecord* s = cx.stream(stream);
      if (s->legacy) {
        if (cudaError_t err = cx.runBatch(); err != cudaSuccess) return err;
      }
      e->recorded = true;
      e->timeNs = cx.nowNs();
      e->batchAfter = s->batchTail;
      e->captureId = 0;
      e->captureNodes.clear();
      return cudaSuccess;
    }
    if ((flags & cudaEventRecordExternal) != 0) {  // an event record node
      cx.captures().record(*capturing, cudaGraphNodeTypeEventRecord, EventWork{event});
    }
    // Within the capture the event marks the stream's position: what a wait on it follows.
    e->captureId = capturing->capture->id;
    e->captureNodes = capturing->dependencies;
    return cudaSuccess;
  });
}

}  // namespace

extern "C" {

cudaError_t cudaStreamCreate(cudaStream_t* pStream) {
  return cudaStreamCreateWithPriority(pStream, cudaStreamDefault, 0);
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* pStream, unsigned int flags) {
  return cudaStreamCreateWithPriority(pStream, flags, 0);
}

cudaError_t cudaStreamCreateWithPriority(cudaStream_t* pStream, unsigned int flags, int priority) {
  return apiCallKeepingBatch("cudaStreamCreate", cudaErrorInvalidValue, [&](Context& cx) {
    if (pStream == nullptr || (flags & ~unsigned{cudaStreamNonBlocking}) != 0) {
      return cudaErrorInvalidValue;
    }
    *pStream = cx.newStream(flags, 0);  // one priority level (cudaDeviceGetStreamPriorityRange)
    return cudaSuccess;
  });
}

cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  return apiCall("cudaStreamDestroy", cudaErrorInvalidResourceHandle, [&](Context& cx) {
    StreamRecord* s = cx.stream(stream);
    if (s != nullptr && s->capture != nullptr && s->capture->origin == s) {
      return cx.fail("cudaStreamDestroy", cudaErrorIllegalState,
                     "the stream is capturing; end the capture first");
    }
    return cx.destroyStream(stream) ? cudaSuccess : cudaErrorInvalidResourceHandle;
  });
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  return apiCall("cudaStreamSynchronize", cudaErrorInvalidResourceHandle, [&](Context& cx) {
    return synchronize(cx, "cudaStreamSynchronize", cx.stream(stream), true);
  });
}

cudaError_t cudaStreamQuery(cudaStream_t stream) {
  return apiCall("cudaStreamQuery", cudaErrorInvalidResourceHandle, [&](Context& cx) {
    return synchronize(cx, "cudaStreamQuery", cx.stream(stream), false);
  });
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags) {
  return apiCallKeepingBatch("cudaStreamWaitEvent", cudaErrorInvalidResourceHandle, [&](Context& cx) {
    StreamRecord* s = cx.stream(stream);
    if (s == nullptr || !cx.isEvent(record(event))) return cudaErrorInvalidResourceHandle;
    if ((flags & ~unsigned{cudaEventWaitExternal}) != 0) return cudaErrorInvalidValue;
    if (s->capture != nullptr && s->capture->invalidated) return cudaErrorStreamCaptureInvalidated;
    if (s->capture != nullptr || record(event)->captureId != 0) {
      if (cudaError_t e = cx.runBatch(); e != cudaSuccess) return e;
      return waitInCapture(cx, *s, *record(event), flags);
    }
    if (s->legacy) {  // the legacy stream's work runs now: so does what it waits for
      if (cudaError_t e = cx.runBatch(); e != cudaSuccess) return e;
      return checkLegacyUse(cx, "cudaStreamWaitEvent");
    }
    cx.batch().follow(*s, record(event)->batchAfter);
    return cudaSuccess;
  });
}

cudaError_t cudaEventCreate(cudaEvent_t* event) {
  return apiCallKeepingBatch("cudaEventCreate", cudaErrorInvalidValue, [&](Context& cx) {
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
  return recordEvent("cudaEventRecord", event, stream, cudaEventRecordDefault);
}

cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags) {
  return recordEvent("cudaEventRecordWithFlags", event, stream, flags);
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  return apiCall("cudaEventSynchronize", cudaErrorInvalidResourceHandle, [&](Context& cx) {
    if (!cx.isEvent(record(event))) return cudaErrorInvalidResourceHandle;
    if (cudaError_t e = checkNotCaptured(cx, "cudaEventSynchronize", record(event));
        e != cudaSuccess) {
      return e;
    }
    cx.pools().synchronize();
    return cx.stickyError();
  });
}

cudaError_t cudaEventQuery(cudaEvent_t event) {
  return apiCall("cudaEventQuery", cudaErrorInvalidResourceHandle, [&](Context& cx) {
    if (!cx.isEvent(record(event))) return cudaErrorInvalidResourceHandle;
    if (cudaError_t e = checkNotCaptured(cx, "cudaEventQuery", record(event)); e != cudaSuccess) {
      return e;
    }
    return cx.stickyError();
  });
}

cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  return apiCall("cudaEventElapsedTime", cudaErrorInvalidResourceHandle, [&](Context& cx) {
    if (ms == nullptr) return cudaErrorInvalidValue;
    if (!cx.isEvent(record(start)) || !cx.isEvent(record(end))) {
      return cudaErrorInvalidResourceHandle;
    }
    for (const EventRecord* r : {record(start), record(end)}) {
      if (r->captureId != 0) return cudaErrorInvalidValue;  // recorded in a capture: no time
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
  return apiCallKeepingBatch("cudaStreamGetFlags", cudaErrorInvalidResourceHandle, [&](Context& cx) {
    StreamRecord* s = cx.stream(hStream);
    if (s == nullptr) return cudaErrorInvalidResourceHandle;
    if (flags == nullptr) return cudaErrorInvalidValue;
    *flags = s->flags;
    return cudaSuccess;
  });
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

// Host functions run at once: the work queued before them on the stream has completed. On a
// capturing stream the call becomes a host node.
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* userData) {
  bool run = false;
  cudaError_t e = apiCall("cudaLaunchHostFunc", cudaErrorInvalidValue, [&](Context& cx) {
    if (fn == nullptr) return cudaErrorInvalidValue;
    StreamRecord* capturing = nullptr;
    if (cudaError_t err = routeWork(cx, "cudaLaunchHostFunc", stream, capturing);
        err != cudaSuccess) {
      return err;
    }
    if (capturing != nullptr) {
      cx.captures().record(*capturing, cudaGraphNodeTypeHost, HostWork{fn, userData});
    } else {
      run = true;
    }
    return cudaSuccess;
  });
  if (run) fn(userData);  // outside the lock: the function may use another thread's runtime
  return e;
}

cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback,
                                  void* userData, unsigned int flags) {
  cudaError_t status = cudaSuccess;
  cudaError_t e = apiCall("cudaStreamAddCallback", cudaErrorInvalidValue, [&](Context& cx) {
    if (callback == nullptr) return cudaErrorInvalidValue;
    StreamRecord* s = cx.stream(stream);
    if (s == nullptr) return cudaErrorInvalidResourceHandle;
    if (s->capture != nullptr) {
      return invalidate(cx, "cudaStreamAddCallback", cudaErrorStreamCaptureUnsupported,
                        {s->capture}, "stream callbacks cannot be captured (use cudaLaunchHostFunc)");
    }
    if (s->legacy) {
      if (cudaError_t err = checkLegacyUse(cx, "cudaStreamAddCallback"); err != cudaSuccess) {
        return err;
      }
    }
    status = cx.stickyError();
    return cudaSuccess;
  });
  if (e == cudaSuccess) callback(stream, status, userData);
  return e;
}

}  // extern "C"

WARPSIM_SAME_FUNCTION(cudaStreamGetFlags, cudaStreamGetFlags_ptsz)
WARPSIM_SAME_FUNCTION(cudaStreamGetPriority, cudaStreamGetPriority_ptsz)
WARPSIM_SAME_FUNCTION(cudaLaunchHostFunc, cudaLaunchHostFunc_ptsz)
WARPSIM_SAME_FUNCTION(cudaStreamAddCallback, cudaStreamAddCallback_ptsz)
