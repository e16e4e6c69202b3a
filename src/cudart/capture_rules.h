// The stream-capture rules as the API entry points apply them (CUDA Programming Guide, "Stream
// Capture": prohibited and unhandled operations, invalidation). A call the rules forbid returns
// its error, prints one line naming the call (unless WARPSIM_QUIET) and invalidates the capture
// sequences it conflicts with: further work on their streams fails with
// cudaErrorStreamCaptureInvalidated and cudaStreamEndCapture returns no graph.
#pragma once
#include <cuda_runtime_api.h>

#include <string>
#include <vector>

namespace warpsim::cudart {

class Context;
struct CaptureSequence;
struct StreamRecord;

// Where a stream-ordered call's work goes. On success `capturing` is the stream whose capture
// records the work, or nullptr when it runs now. Fails for an invalid stream
// (cudaErrorInvalidResourceHandle), a stream whose capture was invalidated, and use of the
// legacy stream while a blocking stream captures (cudaErrorStreamCaptureImplicit).
cudaError_t routeWork(Context& cx, const char* call, cudaStream_t stream,
                      StreamRecord*& capturing);
// A potentially unsafe call (a synchronous allocation, free, copy or memset): refused with
// cudaErrorStreamCaptureUnsupported while a sequence it conflicts with under the calling
// thread's capture mode is active (Captures::unsafeCallConflicts).
cudaError_t checkUnsafeCall(Context& cx, const char* call);
// Work on the legacy stream (synchronous copies and memsets use it): refused with
// cudaErrorStreamCaptureImplicit while a blocking stream captures.
cudaError_t checkLegacyUse(Context& cx, const char* call);
// A wait for all of the device's work: refused with cudaErrorStreamCaptureUnsupported while any
// capture is active, whatever its mode.
cudaError_t checkDeviceWait(Context& cx, const char* call);
// Invalidates `sequences` and reports `e` for `call`.
cudaError_t invalidate(Context& cx, const char* call, cudaError_t e,
                       const std::vector<CaptureSequence*>& sequences, const std::string& why);

}  // namespace warpsim::cudart
