// Stream capture: cudaStreamBeginCapture ... cudaStreamEndCapture and the queries (capture.h has
// the model, capture_rules.h the rules the other entry points apply).
#include <fmt/format.h>

#include "cudart/api_util.h"
#include "cudart/capture_rules.h"

using namespace warpsim::cudart;

namespace {

bool validMode(cudaStreamCaptureMode m) {
  return m == cudaStreamCaptureModeGlobal || m == cudaStreamCaptureModeThreadLocal ||
         m == cudaStreamCaptureModeRelaxed;
}

// The checks both ways of beginning a capture make.
cudaError_t checkBegin(Context& cx, const char* call, StreamRecord* s, cudaStreamCaptureMode mode) {
  if (s == nullptr) return cudaErrorInvalidResourceHandle;
  if (!validMode(mode)) {
    return cx.fail(call, cudaErrorInvalidValue,
                   fmt::format("{} is not a cudaStreamCaptureMode", static_cast<int>(mode)));
  }
  if (s->legacy) {
    return cx.fail(call, cudaErrorStreamCaptureUnsupported,
                   "the legacy (NULL) stream cannot capture; capture on a created stream");
  }
  if (s->capture != nullptr) {
    return cx.fail(call, cudaErrorIllegalState, "the stream is capturing already");
  }
  return cudaSuccess;
}

}  // namespace

extern "C" {

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode mode) {
  return apiCall("cudaStreamBeginCapture", cudaErrorInvalidValue, [&](Context& cx) {
    StreamRecord* s = cx.stream(stream);
    if (cudaError_t e = checkBegin(cx, "cudaStreamBeginCapture", s, mode); e != cudaSuccess) {
      return e;
    }
    auto graph = std::make_unique<Graph>(cx.graphs().registry);
    Graph* g = graph.get();
    cx.captures().begin(*s, mode, g, std::move(graph), {});
    return cudaSuccess;
  });
}

cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph,
                                          const cudaGraphNode_t* dependencies,
                                          const cudaGraphEdgeData* dependencyData,
                                          size_t numDependencies, cudaStreamCaptureMode mode) {
  return apiCall("cudaStreamBeginCaptureToGraph", cudaErrorInvalidValue, [&](Context& cx) {
    const char* call = "cudaStreamBeginCaptureToGraph";
    StreamRecord* s = cx.stream(stream);
    if (cudaError_t e = checkBegin(cx, call, s, mode); e != cudaSuccess) return e;
    auto* g = reinterpret_cast<Graph*>(graph);
    if (!cx.graphs().registry.isGraph(g)) {
      return cx.fail(call, cudaErrorInvalidValue, "graph is not a graph");
    }
    if (std::string why = g->checkDependencies(dependencies, numDependencies); !why.empty()) {
      return cx.fail(call, cudaErrorInvalidValue, why);
    }
    std::vector<GraphNode*> deps;
    for (size_t i = 0; i < numDependencies; ++i) {
      deps.push_back(reinterpret_cast<GraphNode*>(dependencies[i]));
    }
    cx.captures().begin(*s, mode, g, nullptr, std::move(deps));
    return cudaSuccess;
  });
}

cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* pGraph) {
  return apiCall("cudaStreamEndCapture", cudaErrorInvalidValue, [&](Context& cx) {
    const char* call = "cudaStreamEndCapture";
    StreamRecord* s = cx.stream(stream);
    if (s == nullptr) return cudaErrorInvalidResourceHandle;
    if (pGraph == nullptr) return cudaErrorInvalidValue;
    CaptureSequence* seq = s->capture;
    if (seq == nullptr) return cx.fail(call, cudaErrorIllegalState, "the stream is not capturing");
    if (seq->origin != s) {
      return invalidate(cx, call, cudaErrorStreamCaptureUnmatched, {seq},
                        "the capture began on another stream; end it there");
    }
    if (seq->mode != cudaStreamCaptureModeRelaxed && seq->thread != std::this_thread::get_id()) {
      return cx.fail(call, cudaErrorStreamCaptureWrongThread,
                     "a capture not begun in relaxed mode must end on the thread that began it");
    }
    *pGraph = nullptr;
    bool joined = cx.captures().joined(*seq);
    std::unique_ptr<CaptureSequence> ended = cx.captures().end(seq);
    if (ended->invalidated) return cudaErrorStreamCaptureInvalidated;
    if (!joined) {
      return cx.fail(call, cudaErrorStreamCaptureUnjoined,
                     "work forked onto another stream was not joined back to the capturing "
                     "stream (wait on an event recorded after it)");
    }
    Graph* g = ended->graph;
    if (ended->owned) cx.graphs().graphs.emplace(g, std::move(ended->owned));
    *pGraph = reinterpret_cast<cudaGraph_t>(g);
    return cudaSuccess;
  });
}

cudaError_t cudaStreamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus* pCaptureStatus) {
  return apiCallKeepingBatch("cudaStreamIsCapturing", cudaErrorInvalidValue, [&](Context& cx) {
    StreamRecord* s = cx.stream(stream);
    if (s == nullptr) return cudaErrorInvalidResourceHandle;
    if (pCaptureStatus == nullptr) return cudaErrorInvalidValue;
    // The legacy stream cannot capture, but it may not be used while a blocking stream does
    // (the query reports that and invalidates nothing).
    if (s->legacy && !cx.captures().blockingSequences().empty()) {
      return cudaErrorStreamCaptureImplicit;
    }
    *pCaptureStatus = s->capture == nullptr ? cudaStreamCaptureStatusNone
                      : s->capture->invalidated ? cudaStreamCaptureStatusInvalidated
                                                : cudaStreamCaptureStatusActive;
    return cudaSuccess;
  });
}

cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream,
                                     cudaStreamCaptureStatus* captureStatus_out,
                                     unsigned long long* id_out, cudaGraph_t* graph_out,
                                     const cudaGraphNode_t** dependencies_out,
                                     const cudaGraphEdgeData** edgeData_out,
                                     size_t* numDependencies_out) {
  cudaError_t e = cudaStreamIsCapturing(stream, captureStatus_out);
  if (e != cudaSuccess) return e;
  return apiCall("cudaStreamGetCaptureInfo", cudaErrorInvalidValue, [&](Context& cx) {
    if (edgeData_out != nullptr && dependencies_out == nullptr) return cudaErrorInvalidValue;
    // Only an active capture has more to report.
    if (*captureStatus_out != cudaStreamCaptureStatusActive) return cudaSuccess;
    StreamRecord* s = cx.stream(stream);
    if (id_out != nullptr) *id_out = s->capture->id;
    if (graph_out != nullptr) *graph_out = reinterpret_cast<cudaGraph_t>(s->capture->graph);
    if (dependencies_out != nullptr) {
      *dependencies_out = reinterpret_cast<const cudaGraphNode_t*>(s->dependencies.data());
    }
    if (edgeData_out != nullptr) *edgeData_out = s->edgeData.data();
    if (numDependencies_out != nullptr) *numDependencies_out = s->dependencies.size();
    return cudaSuccess;
  });
}

cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t* dependencies,
                                                const cudaGraphEdgeData* dependencyData,
                                                size_t numDependencies, unsigned int flags) {
  return apiCall("cudaStreamUpdateCaptureDependencies", cudaErrorInvalidValue, [&](Context& cx) {
    const char* call = "cudaStreamUpdateCaptureDependencies";
    StreamRecord* s = cx.stream(stream);
    if (s == nullptr) return cudaErrorInvalidResourceHandle;
    if (s->capture == nullptr) return cx.fail(call, cudaErrorIllegalState, "the stream is not capturing");
    if (s->capture->invalidated) return cudaErrorStreamCaptureInvalidated;
    if (flags != cudaStreamAddCaptureDependencies && flags != cudaStreamSetCaptureDependencies) {
      return cx.fail(call, cudaErrorInvalidValue, fmt::format("flags {} are not valid", flags));
    }
    Graph& g = *s->capture->graph;
    if (std::string why = g.checkDependencies(dependencies, numDependencies); !why.empty()) {
      return cx.fail(call, cudaErrorInvalidValue, why);
    }
    std::vector<GraphNode*> deps;
    if (flags == cudaStreamAddCaptureDependencies) deps = s->dependencies;
    for (size_t i = 0; i < numDependencies; ++i) {
      auto* n = reinterpret_cast<GraphNode*>(dependencies[i]);
      if (std::find(deps.begin(), deps.end(), n) == deps.end()) deps.push_back(n);
    }
    s->dependencies = std::move(deps);
    s->edgeData.assign(s->dependencies.size(), cudaGraphEdgeData{});
    return cudaSuccess;
  });
}

cudaError_t cudaThreadExchangeStreamCaptureMode(cudaStreamCaptureMode* mode) {
  return apiCall("cudaThreadExchangeStreamCaptureMode", cudaErrorInvalidValue, [&](Context& cx) {
    if (mode == nullptr || !validMode(*mode)) return cudaErrorInvalidValue;
    std::swap(cx.captures().threadMode(), *mode);
    return cudaSuccess;
  });
}

}  // extern "C"

WARPSIM_SAME_FUNCTION(cudaStreamBeginCapture, cudaStreamBeginCapture_ptsz)
WARPSIM_SAME_FUNCTION(cudaStreamBeginCaptureToGraph, cudaStreamBeginCaptureToGraph_ptsz)
WARPSIM_SAME_FUNCTION(cudaStreamEndCapture, cudaStreamEndCapture_ptsz)
WARPSIM_SAME_FUNCTION(cudaStreamIsCapturing, cudaStreamIsCapturing_ptsz)
WARPSIM_SAME_FUNCTION(cudaStreamGetCaptureInfo, cudaStreamGetCaptureInfo_ptsz)
WARPSIM_SAME_FUNCTION(cudaStreamUpdateCaptureDependencies,
                      cudaStreamUpdateCaptureDependencies_ptsz)
