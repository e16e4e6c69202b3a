#include "cudart/capture_rules.h"

#include <fmt/format.h>

#include "cudart/context.h"

namespace warpsim::cudart {

namespace {

const char* modeName(cudaStreamCaptureMode m) {
  switch (m) {
    case cudaStreamCaptureModeGlobal: return "global";
    case cudaStreamCaptureModeThreadLocal: return "thread-local";
    default: return "relaxed";
  }
}

// "stream 0x... (global mode)" for the first sequence, "and N more" for the rest.
std::string describe(const std::vector<CaptureSequence*>& sequences) {
  const CaptureSequence& s = *sequences.front();
  std::string text = fmt::format("stream {} is capturing ({} mode)",
                                 static_cast<const void*>(s.origin), modeName(s.mode));
  if (sequences.size() > 1) text += fmt::format(" with {} more captures", sequences.size() - 1);
  return text;
}

}  // namespace

cudaError_t invalidate(Context& cx, const char* call, cudaError_t e,
                       const std::vector<CaptureSequence*>& sequences, const std::string& why) {
  for (CaptureSequence* s : sequences) s->invalidated = true;
  return cx.fail(call, e, why + (sequences.size() > 1 ? "; the captures are invalidated"
                                                      : "; the capture is invalidated"));
}

cudaError_t checkUnsafeCall(Context& cx, const char* call) {
  std::vector<CaptureSequence*> conflicts = cx.captures().unsafeCallConflicts();
  if (conflicts.empty()) return cudaSuccess;
  return invalidate(cx, call, cudaErrorStreamCaptureUnsupported, conflicts,
                    "not permitted while " + describe(conflicts));
}

cudaError_t checkLegacyUse(Context& cx, const char* call) {
  std::vector<CaptureSequence*> blocking = cx.captures().blockingSequences();
  if (blocking.empty()) return cudaSuccess;
  return invalidate(cx, call, cudaErrorStreamCaptureImplicit, blocking,
                    "the legacy stream would depend on work being captured: " +
                        describe(blocking));
}

cudaError_t checkDeviceWait(Context& cx, const char* call) {
  std::vector<CaptureSequence*> all;
  for (const auto& s : cx.captures().active()) all.push_back(s.get());
  if (all.empty()) return cudaSuccess;
  return invalidate(cx, call, cudaErrorStreamCaptureUnsupported, all,
                    "not permitted while " + describe(all));
}

cudaError_t routeWork(Context& cx, const char* call, cudaStream_t stream,
                      StreamRecord*& capturing) {
  capturing = nullptr;
  StreamRecord* s = cx.stream(stream);
  if (s == nullptr) return cudaErrorInvalidResourceHandle;
  if (s->capture != nullptr) {
    // The invalidating call has printed why; further work only reports the state.
    if (s->capture->invalidated) return cudaErrorStreamCaptureInvalidated;
    capturing = s;
    return cudaSuccess;
  }
  return s->legacy ? checkLegacyUse(cx, call) : cudaSuccess;
}

}  // namespace warpsim::cudart
