// Executable graphs: instantiation, launch (run at once, or recorded as a child graph node when
// the stream is capturing), per-node parameter changes and whole-graph updates, and the graph
// memory attributes (graph_exec.h, graph_run.h).
#include <fmt/format.h>

#include <cstdlib>

#include "cudart/api_util.h"
#include "cudart/capture_rules.h"
#include "cudart/graph_params.h"
#include "cudart/graph_run.h"
#include "cudart/memory_ops.h"
#include "func/device_memory.h"

using namespace warpsim::cudart;

namespace {

constexpr unsigned long long kKnownFlags =
    cudaGraphInstantiateFlagAutoFreeOnLaunch | cudaGraphInstantiateFlagUpload |
    cudaGraphInstantiateFlagDeviceLaunch | cudaGraphInstantiateFlagUseNodePriority;

cudaError_t instantiate(Context& cx, const char* call, cudaGraphExec_t* pGraphExec,
                        cudaGraph_t graph, unsigned long long flags,
                        cudaGraphInstantiateResult& result, const GraphNode*& errorNode) {
  result = cudaGraphInstantiateError;
  errorNode = nullptr;
  if (pGraphExec == nullptr) return cudaErrorInvalidValue;
  Graph* g = graphOf(cx, call, graph);
  if (g == nullptr) return cudaErrorInvalidValue;
  if ((flags & ~kKnownFlags) != 0) {
    return cx.fail(call, cudaErrorInvalidValue, fmt::format("unknown flags 0x{:x}", flags));
  }
  if ((flags & cudaGraphInstantiateFlagDeviceLaunch) != 0) {
    return cx.fail(call, cudaErrorNotSupported,
                   "graphs launched from the device are not supported by warpsim");
  }
  std::string why;
  std::unique_ptr<GraphExec> exec = GraphExec::instantiate(*g, flags, why, errorNode);
  if (!exec) {
    result = cudaGraphInstantiateInvalidStructure;
    return cx.fail(call, cudaErrorInvalidValue, why);
  }
  *pGraphExec = reinterpret_cast<cudaGraphExec_t>(exec.get());
  cx.graphs().execs.emplace(exec.get(), std::move(exec));
  result = cudaGraphInstantiateSuccess;
  return cudaSuccess;
}

// Runs `body(cx, exec, node)` with `node` this executable graph's copy of a source node of the
// given type.
template <class Body>
cudaError_t onExecNode(const char* call, cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                       cudaGraphNodeType type, Body&& body) {
  return apiCall(call, cudaErrorInvalidValue, [&](Context& cx) {
    GraphExec* exec = execOf(cx, call, hGraphExec);
    if (exec == nullptr) return cudaErrorInvalidValue;
    GraphNode* mine = exec->nodeFor(reinterpret_cast<const GraphNode*>(node));
    if (mine == nullptr) {
      return cx.fail(call, cudaErrorInvalidValue,
                     fmt::format("{} is not a node of the graph this was instantiated from",
                                 static_cast<void*>(node)));
    }
    if (type != cudaGraphNodeTypeCount && mine->type != type) {
      return cx.fail(call, cudaErrorInvalidValue,
                     fmt::format("node {} is a {} node, not a {} node", mine->id,
                                 nodeTypeName(mine->type), nodeTypeName(type)));
    }
    return body(cx, *exec, *mine);
  });
}

// A copy node's operands may not change between host and device memory in an executable graph.
cudaError_t setCopy(Context& cx, const char* call, GraphNode& n, const cudaMemcpy3DParms* p) {
  Work w;
  if (cudaError_t e = makeCopyWork(cx, call, p, w); e != cudaSuccess) return e;
  const auto& before = std::get<CopyWork>(n.work).params;
  auto isDevice = [&](const void* a) { return cx.device().memory().isMapped(address(a), 1); };
  if (isDevice(before.srcPtr.ptr) != isDevice(p->srcPtr.ptr) ||
      isDevice(before.dstPtr.ptr) != isDevice(p->dstPtr.ptr)) {
    return cx.fail(call, cudaErrorInvalidValue,
                   "a copy operand may not change between host and device memory");
  }
  n.work = std::move(w);
  return cudaSuccess;
}

}  // namespace

extern "C" {

cudaError_t cudaGraphInstantiate(cudaGraphExec_t* pGraphExec, cudaGraph_t graph,
                                 unsigned long long flags) {
  return apiCall("cudaGraphInstantiate", cudaErrorInvalidValue, [&](Context& cx) {
    cudaGraphInstantiateResult result;
    const GraphNode* errorNode = nullptr;
    return instantiate(cx, "cudaGraphInstantiate", pGraphExec, graph, flags, result, errorNode);
  });
}

cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t* pGraphExec, cudaGraph_t graph,
                                          unsigned long long flags) {
  return apiCall("cudaGraphInstantiateWithFlags", cudaErrorInvalidValue, [&](Context& cx) {
    cudaGraphInstantiateResult result;
    const GraphNode* errorNode = nullptr;
    return instantiate(cx, "cudaGraphInstantiateWithFlags", pGraphExec, graph, flags, result,
                       errorNode);
  });
}

cudaError_t cudaGraphInstantiateWithParams(cudaGraphExec_t* pGraphExec, cudaGraph_t graph,
                                           cudaGraphInstantiateParams* params) {
  return apiCall("cudaGraphInstantiateWithParams", cudaErrorInvalidValue, [&](Context& cx) {
    if (params == nullptr) return cudaErrorInvalidValue;
    const GraphNode* errorNode = nullptr;
    cudaError_t e = instantiate(cx, "cudaGraphInstantiateWithParams", pGraphExec, graph,
                                params->flags, params->result_out, errorNode);
    params->errNode_out = reinterpret_cast<cudaGraphNode_t>(const_cast<GraphNode*>(errorNode));
    // An upload needs a valid stream; there is nothing to upload (graphs run from host memory).
    if (e == cudaSuccess && (params->flags & cudaGraphInstantiateFlagUpload) != 0 &&
        !cx.isStream(params->uploadStream)) {
      return cudaErrorInvalidResourceHandle;
    }
    return e;
  });
}

cudaError_t cudaGraphExecGetFlags(cudaGraphExec_t graphExec, unsigned long long* flags) {
  return apiCall("cudaGraphExecGetFlags", cudaErrorInvalidValue, [&](Context& cx) {
    GraphExec* exec = execOf(cx, "cudaGraphExecGetFlags", graphExec);
    if (exec == nullptr || flags == nullptr) return cudaErrorInvalidValue;
    *flags = exec->flags();
    return cudaSuccess;
  });
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec) {
  return apiCall("cudaGraphExecDestroy", cudaErrorInvalidValue, [&](Context& cx) {
    GraphExec* exec = execOf(cx, "cudaGraphExecDestroy", graphExec);
    if (exec == nullptr) return cudaErrorInvalidValue;
    cx.graphs().execs.erase(exec);
    return cudaSuccess;
  });
}

cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream) {
  return apiCall("cudaGraphUpload", cudaErrorInvalidValue, [&](Context& cx) {
    if (execOf(cx, "cudaGraphUpload", graphExec) == nullptr) return cudaErrorInvalidValue;
    return cx.isStream(stream) ? cudaSuccess : cudaErrorInvalidResourceHandle;
  });
}

cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream) {
  cudaError_t result = apiCall("cudaGraphLaunch", cudaErrorInvalidValue, [&](Context& cx) {
    GraphExec* exec = execOf(cx, "cudaGraphLaunch", graphExec);
    if (exec == nullptr) return cudaErrorInvalidValue;
    StreamRecord* capturing = nullptr;
    if (cudaError_t e = routeWork(cx, "cudaGraphLaunch", stream, capturing); e != cudaSuccess) {
      return e;
    }
    if (capturing != nullptr) {  // the launch becomes a child graph node of the capture
      cx.captures().record(*capturing, cudaGraphNodeTypeGraph, ChildWork{exec->graph().clone()});
      return cudaSuccess;
    }
    return launchGraph(cx, *exec);
  });
  // A kernel fault's one-line message is already on stderr.
  if (Context::get().faultEndsProcess()) std::exit(1);
  return result;
}

// ---- per-node changes -----------------------------------------------------------------------

cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const cudaKernelNodeParams* p) {
  const char* call = "cudaGraphExecKernelNodeSetParams";
  return onExecNode(call, hGraphExec, node, cudaGraphNodeTypeKernel,
                    [&](Context& cx, GraphExec&, GraphNode& n) {
    if (p == nullptr) return cudaErrorInvalidValue;
    return makeKernelWork(cx, call, p->func, p->gridDim, p->blockDim, p->sharedMemBytes,
                          p->kernelParams, p->extra, n.work);
  });
}

cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const cudaMemcpy3DParms* p) {
  const char* call = "cudaGraphExecMemcpyNodeSetParams";
  return onExecNode(call, hGraphExec, node, cudaGraphNodeTypeMemcpy,
                    [&](Context& cx, GraphExec&, GraphNode& n) { return setCopy(cx, call, n, p); });
}

cudaError_t cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                               void* dst, const void* src, size_t count,
                                               cudaMemcpyKind kind) {
  const char* call = "cudaGraphExecMemcpyNodeSetParams1D";
  cudaMemcpy3DParms p = copyParams1D(dst, src, count, kind);
  return onExecNode(call, hGraphExec, node, cudaGraphNodeTypeMemcpy,
                    [&](Context& cx, GraphExec&, GraphNode& n) { return setCopy(cx, call, n, &p); });
}

cudaError_t cudaGraphExecMemcpyNodeSetParamsToSymbol(cudaGraphExec_t hGraphExec,
                                                     cudaGraphNode_t node, const void* symbol,
                                                     const void* src, size_t count,
                                                     size_t offset, cudaMemcpyKind kind) {
  const char* call = "cudaGraphExecMemcpyNodeSetParamsToSymbol";
  return onExecNode(call, hGraphExec, node, cudaGraphNodeTypeMemcpy,
                    [&](Context& cx, GraphExec&, GraphNode& n) {
    Work w;
    cudaError_t e = makeSymbolCopyWork(cx, call, symbol, const_cast<void*>(src), count, offset,
                                       kind, true, w);
    return e != cudaSuccess ? e : setCopy(cx, call, n, &std::get<CopyWork>(w).params);
  });
}

cudaError_t cudaGraphExecMemcpyNodeSetParamsFromSymbol(cudaGraphExec_t hGraphExec,
                                                       cudaGraphNode_t node, void* dst,
                                                       const void* symbol, size_t count,
                                                       size_t offset, cudaMemcpyKind kind) {
  const char* call = "cudaGraphExecMemcpyNodeSetParamsFromSymbol";
  return onExecNode(call, hGraphExec, node, cudaGraphNodeTypeMemcpy,
                    [&](Context& cx, GraphExec&, GraphNode& n) {
    Work w;
    cudaError_t e = makeSymbolCopyWork(cx, call, symbol, dst, count, offset, kind, false, w);
    return e != cudaSuccess ? e : setCopy(cx, call, n, &std::get<CopyWork>(w).params);
  });
}

cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const cudaMemsetParams* p) {
  const char* call = "cudaGraphExecMemsetNodeSetParams";
  return onExecNode(call, hGraphExec, node, cudaGraphNodeTypeMemset,
                    [&](Context& cx, GraphExec&, GraphNode& n) {
    Work w;
    if (cudaError_t e = makeMemsetWork(cx, call, p, w); e != cudaSuccess) return e;
    const cudaMemsetParams& before = std::get<MemsetWork>(n.work).params;
    bool twoD = before.height > 1 || p->height > 1;
    if (before.elementSize != p->elementSize ||
        (twoD && (before.width != p->width || before.height != p->height ||
                  before.pitch != p->pitch))) {
      return cx.fail(call, cudaErrorInvalidValue,
                     "a 2D memset may change only its address and value, a 1D one not its "
                     "element size");
    }
    n.work = std::move(w);
    return cudaSuccess;
  });
}

cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                           const cudaHostNodeParams* p) {
  const char* call = "cudaGraphExecHostNodeSetParams";
  return onExecNode(call, hGraphExec, node, cudaGraphNodeTypeHost,
                    [&](Context& cx, GraphExec&, GraphNode& n) {
    return makeHostWork(cx, call, p, n.work);
  });
}

cudaError_t cudaGraphExecChildGraphNodeSetParams(cudaGraphExec_t hGraphExec,
                                                 cudaGraphNode_t node, cudaGraph_t childGraph) {
  const char* call = "cudaGraphExecChildGraphNodeSetParams";
  return onExecNode(call, hGraphExec, node, cudaGraphNodeTypeGraph,
                    [&](Context& cx, GraphExec& exec, GraphNode& n) {
    Graph* child = graphOf(cx, call, childGraph);
    if (child == nullptr) return cudaErrorInvalidValue;
    const GraphNode* errorNode = nullptr;
    if (exec.setChildGraph(&n, *child, errorNode) != cudaGraphExecUpdateSuccess) {
      return cx.fail(call, cudaErrorInvalidValue,
                     "the child graph's shape differs from the one instantiated");
    }
    return cudaSuccess;
  });
}

cudaError_t cudaGraphExecEventRecordNodeSetEvent(cudaGraphExec_t hGraphExec,
                                                 cudaGraphNode_t hNode, cudaEvent_t event) {
  const char* call = "cudaGraphExecEventRecordNodeSetEvent";
  return onExecNode(call, hGraphExec, hNode, cudaGraphNodeTypeEventRecord,
                    [&](Context& cx, GraphExec&, GraphNode& n) {
    return makeEventWork(cx, call, event, n.work);
  });
}

cudaError_t cudaGraphExecEventWaitNodeSetEvent(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                                               cudaEvent_t event) {
  const char* call = "cudaGraphExecEventWaitNodeSetEvent";
  return onExecNode(call, hGraphExec, hNode, cudaGraphNodeTypeWaitEvent,
                    [&](Context& cx, GraphExec&, GraphNode& n) {
    return makeEventWork(cx, call, event, n.work);
  });
}

cudaError_t cudaGraphExecNodeSetParams(cudaGraphExec_t graphExec, cudaGraphNode_t node,
                                       cudaGraphNodeParams* nodeParams) {
  const char* call = "cudaGraphExecNodeSetParams";
  return onExecNode(call, graphExec, node, cudaGraphNodeTypeCount,
                    [&](Context& cx, GraphExec& exec, GraphNode& n) {
    if (nodeParams == nullptr || nodeParams->type != n.type) {
      return cx.fail(call, cudaErrorInvalidValue, "the parameters are not for this node's type");
    }
    switch (n.type) {
      case cudaGraphNodeTypeMemcpy:
        return setCopy(cx, call, n, &nodeParams->memcpy.copyParams);
      case cudaGraphNodeTypeGraph: {
        Graph* child = graphOf(cx, call, nodeParams->graph.graph);
        const GraphNode* errorNode = nullptr;
        if (child == nullptr) return cudaErrorInvalidValue;
        return exec.setChildGraph(&n, *child, errorNode) == cudaGraphExecUpdateSuccess
                   ? cudaSuccess
                   : cx.fail(call, cudaErrorInvalidValue,
                             "the child graph's shape differs from the one instantiated");
      }
      case cudaGraphNodeTypeMemAlloc:
      case cudaGraphNodeTypeMemFree:
        return cx.fail(call, cudaErrorInvalidValue, "memory node parameters cannot change");
      default:
        return makeWork(cx, call, nodeParams, n.work);
    }
  });
}

cudaError_t cudaGraphNodeSetEnabled(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                                    unsigned int isEnabled) {
  const char* call = "cudaGraphNodeSetEnabled";
  return onExecNode(call, hGraphExec, hNode, cudaGraphNodeTypeCount,
                    [&](Context& cx, GraphExec& exec, GraphNode& n) {
    if (n.type != cudaGraphNodeTypeKernel && n.type != cudaGraphNodeTypeMemcpy &&
        n.type != cudaGraphNodeTypeMemset) {
      return cx.fail(call, cudaErrorInvalidValue,
                     "only kernel, memcpy and memset nodes can be disabled");
    }
    exec.setEnabled(&n, isEnabled != 0);
    return cudaSuccess;
  });
}

cudaError_t cudaGraphNodeGetEnabled(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                                    unsigned int* isEnabled) {
  return onExecNode("cudaGraphNodeGetEnabled", hGraphExec, hNode, cudaGraphNodeTypeCount,
                    [&](Context&, GraphExec& exec, GraphNode& n) {
    if (isEnabled == nullptr) return cudaErrorInvalidValue;
    *isEnabled = exec.enabled(&n) ? 1 : 0;
    return cudaSuccess;
  });
}

cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                                cudaGraphExecUpdateResultInfo* resultInfo) {
  const char* call = "cudaGraphExecUpdate";
  return apiCall(call, cudaErrorInvalidValue, [&](Context& cx) {
    if (resultInfo == nullptr) return cudaErrorInvalidValue;
    *resultInfo = cudaGraphExecUpdateResultInfo{cudaGraphExecUpdateError, nullptr, nullptr};
    GraphExec* exec = execOf(cx, call, hGraphExec);
    Graph* g = exec != nullptr ? graphOf(cx, call, hGraph) : nullptr;
    if (g == nullptr) return cudaErrorInvalidValue;
    const GraphNode* errorNode = nullptr;
    const GraphNode* errorFrom = nullptr;
    auto isDevice = [&](const void* a) { return cx.device().memory().isMapped(address(a), 1); };
    resultInfo->result = exec->update(*g, isDevice, errorNode, errorFrom);
    resultInfo->errorNode = reinterpret_cast<cudaGraphNode_t>(const_cast<GraphNode*>(errorNode));
    resultInfo->errorFromNode =
        reinterpret_cast<cudaGraphNode_t>(const_cast<GraphNode*>(errorFrom));
    return resultInfo->result == cudaGraphExecUpdateSuccess ? cudaSuccess
                                                            : cudaErrorGraphExecUpdateFailure;
  });
}

// ---- graph memory -----------------------------------------------------------------------------

cudaError_t cudaDeviceGetGraphMemAttribute(int device, cudaGraphMemAttributeType attr,
                                           void* value) {
  return apiCall("cudaDeviceGetGraphMemAttribute", cudaErrorInvalidValue, [&](Context& cx) {
    if (device != 0) return cudaErrorInvalidDevice;
    if (value == nullptr) return cudaErrorInvalidValue;
    MemPools& p = cx.pools();
    auto* out = static_cast<unsigned long long*>(value);
    switch (attr) {
      case cudaGraphMemAttrUsedMemCurrent: *out = p.graphUsed(); break;
      case cudaGraphMemAttrUsedMemHigh: *out = p.graphUsedHigh(); break;
      case cudaGraphMemAttrReservedMemCurrent: *out = p.graphReserved(); break;
      case cudaGraphMemAttrReservedMemHigh: *out = p.graphReservedHigh(); break;
      default: return cudaErrorInvalidValue;
    }
    return cudaSuccess;
  });
}

cudaError_t cudaDeviceSetGraphMemAttribute(int device, cudaGraphMemAttributeType attr,
                                           void* value) {
  return apiCall("cudaDeviceSetGraphMemAttribute", cudaErrorInvalidValue, [&](Context& cx) {
    if (device != 0) return cudaErrorInvalidDevice;
    // Only the high watermarks may be set, and only to 0 (a reset).
    if (value == nullptr || *static_cast<unsigned long long*>(value) != 0) {
      return cudaErrorInvalidValue;
    }
    if (attr == cudaGraphMemAttrUsedMemHigh) cx.pools().resetGraphUsedHigh();
    else if (attr == cudaGraphMemAttrReservedMemHigh) cx.pools().resetGraphReservedHigh();
    else return cudaErrorInvalidValue;
    return cudaSuccess;
  });
}

// Graph allocations keep their memory while their graphs exist (mem_pools.h): nothing to trim.
cudaError_t cudaDeviceGraphMemTrim(int device) {
  return device == 0 ? cudaSuccess : Context::get().setError(cudaErrorInvalidDevice);
}

}  // extern "C"

WARPSIM_SAME_FUNCTION(cudaGraphLaunch, cudaGraphLaunch_ptsz)
WARPSIM_SAME_FUNCTION(cudaGraphUpload, cudaGraphUpload_ptsz)
WARPSIM_SAME_FUNCTION(cudaGraphInstantiateWithParams, cudaGraphInstantiateWithParams_ptsz)
