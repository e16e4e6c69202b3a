// Building graphs explicitly: creating, cloning and destroying graphs, adding nodes and edges,
// reading and changing node parameters (graph.h has the model).
#include <fmt/format.h>

#include <fstream>

#include "cudart/api_util.h"
#include "cudart/graph_dot.h"
#include "cudart/graph_params.h"
#include "cudart/memory_ops.h"

using namespace warpsim::cudart;

namespace {

// Adds a node of `type` to `graph` after `deps`, its work made by `make(cx, work)` once the graph
// and the dependencies are known to be valid.
template <class Make>
cudaError_t addNode(const char* call, cudaGraphNode_t* pNode, cudaGraph_t graph,
                    const cudaGraphNode_t* deps, size_t count, cudaGraphNodeType type,
                    Make&& make) {
  return apiCall(call, cudaErrorInvalidValue, [&](Context& cx) {
    if (pNode == nullptr) return cx.fail(call, cudaErrorInvalidValue, "pGraphNode is NULL");
    Graph* g = graphOf(cx, call, graph);
    if (g == nullptr) return cudaErrorInvalidValue;
    if (std::string why = g->checkDependencies(deps, count); !why.empty()) {
      return cx.fail(call, cudaErrorInvalidValue, why);
    }
    Work work;
    if (cudaError_t e = make(cx, work); e != cudaSuccess) return e;
    *pNode = reinterpret_cast<cudaGraphNode_t>(g->add(type, std::move(work), deps, count));
    return cudaSuccess;
  });
}

// Runs `body(node)` on a node of the given type (cudaGraphNodeTypeCount: any).
template <class Body>
cudaError_t onNode(const char* call, cudaGraphNode_t node, cudaGraphNodeType type, Body&& body) {
  return apiCall(call, cudaErrorInvalidValue, [&](Context& cx) {
    GraphNode* n = nodeOf(cx, call, node, type);
    return n == nullptr ? cudaErrorInvalidValue : body(cx, *n);
  });
}

// Writes up to *count entries of `items` to `out` (NULL: only the count), the rest NULL, and
// the number written (or available) to *count, as the cudaGraphGet* queries do.
template <class T, class Item>
cudaError_t listOut(const std::vector<Item>& items, T* out, cudaGraphEdgeData* edgeData,
                    size_t* count) {
  if (count == nullptr) return cudaErrorInvalidValue;
  if (out == nullptr) {
    *count = items.size();
    return cudaSuccess;
  }
  for (size_t i = 0; i < *count; ++i) {
    out[i] = i < items.size() ? reinterpret_cast<T>(items[i]) : T{};
    if (edgeData != nullptr) edgeData[i] = cudaGraphEdgeData{};
  }
  *count = std::min(*count, items.size());
  return cudaSuccess;
}

bool zeroEdges(const cudaGraphEdgeData* data, size_t count) {
  for (size_t i = 0; data != nullptr && i < count; ++i) {
    const cudaGraphEdgeData& d = data[i];
    if (d.from_port != 0 || d.to_port != 0 || d.type != cudaGraphDependencyTypeDefault) {
      return false;
    }
  }
  return true;
}

// Adds or removes the edges from[i] -> to[i].
cudaError_t changeEdges(const char* call, cudaGraph_t graph, const cudaGraphNode_t* from,
                        const cudaGraphNode_t* to, const cudaGraphEdgeData* edgeData,
                        size_t count, bool add) {
  return apiCall(call, cudaErrorInvalidValue, [&](Context& cx) {
    Graph* g = graphOf(cx, call, graph);
    if (g == nullptr) return cudaErrorInvalidValue;
    if (count != 0 && (from == nullptr || to == nullptr)) return cudaErrorInvalidValue;
    if (!zeroEdges(edgeData, count)) {
      return cx.fail(call, cudaErrorNotSupported,
                     "edges with ports or programmatic dependencies are not supported by warpsim");
    }
    for (size_t i = 0; i < count; ++i) {
      for (cudaGraphNode_t n : {from[i], to[i]}) {
        if (!cx.graphs().registry.isNode(n) || !g->contains(reinterpret_cast<GraphNode*>(n))) {
          return cx.fail(call, cudaErrorInvalidValue,
                         fmt::format("edge {}: {} is not a node of this graph", i,
                                     static_cast<void*>(n)));
        }
      }
      if (from[i] == to[i]) {
        return cx.fail(call, cudaErrorInvalidValue, fmt::format("edge {} joins a node to itself", i));
      }
    }
    for (size_t i = 0; i < count; ++i) {
      auto* a = reinterpret_cast<GraphNode*>(from[i]);
      auto* b = reinterpret_cast<GraphNode*>(to[i]);
      if (!(add ? g->addEdge(a, b) : g->removeEdge(a, b))) {
        return cx.fail(call, cudaErrorInvalidValue,
                       fmt::format("edge {}: node {} -> node {} {}", i, a->id, b->id,
                                   add ? "exists already" : "does not exist"));
      }
    }
    return cudaSuccess;
  });
}

}  // namespace

extern "C" {

cudaError_t cudaGraphCreate(cudaGraph_t* pGraph, unsigned int flags) {
  return apiCall("cudaGraphCreate", cudaErrorInvalidValue, [&](Context& cx) {
    if (pGraph == nullptr || flags != 0) return cudaErrorInvalidValue;
    auto g = std::make_unique<Graph>(cx.graphs().registry);
    *pGraph = reinterpret_cast<cudaGraph_t>(g.get());
    cx.graphs().graphs.emplace(g.get(), std::move(g));
    return cudaSuccess;
  });
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
  return apiCall("cudaGraphDestroy", cudaErrorInvalidValue, [&](Context& cx) {
    auto it = cx.graphs().graphs.find(reinterpret_cast<Graph*>(graph));
    if (it == cx.graphs().graphs.end()) {
      return cx.fail("cudaGraphDestroy", cudaErrorInvalidValue,
                     fmt::format("{} is not a graph the program owns (a child graph belongs to "
                                 "its node)",
                                 static_cast<void*>(graph)));
    }
    cx.graphs().graphs.erase(it);
    return cudaSuccess;
  });
}

cudaError_t cudaGraphClone(cudaGraph_t* pGraphClone, cudaGraph_t originalGraph) {
  return apiCall("cudaGraphClone", cudaErrorInvalidValue, [&](Context& cx) {
    if (pGraphClone == nullptr) return cudaErrorInvalidValue;
    Graph* g = graphOf(cx, "cudaGraphClone", originalGraph);
    if (g == nullptr) return cudaErrorInvalidValue;
    std::unique_ptr<Graph> copy = g->clone();
    *pGraphClone = reinterpret_cast<cudaGraph_t>(copy.get());
    cx.graphs().graphs.emplace(copy.get(), std::move(copy));
    return cudaSuccess;
  });
}

cudaError_t cudaGraphNodeFindInClone(cudaGraphNode_t* pNode, cudaGraphNode_t originalNode,
                                     cudaGraph_t clonedGraph) {
  return apiCall("cudaGraphNodeFindInClone", cudaErrorInvalidValue, [&](Context& cx) {
    Graph* g = graphOf(cx, "cudaGraphNodeFindInClone", clonedGraph);
    if (g == nullptr || pNode == nullptr) return cudaErrorInvalidValue;
    for (const auto& n : g->nodes()) {
      if (n->origin == reinterpret_cast<GraphNode*>(originalNode)) {
        *pNode = reinterpret_cast<cudaGraphNode_t>(n.get());
        return cudaSuccess;
      }
    }
    return cudaErrorInvalidValue;
  });
}

// ---- nodes --------------------------------------------------------------------------------

cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                   const cudaKernelNodeParams* p) {
  const char* call = "cudaGraphAddKernelNode";
  return addNode(call, pGraphNode, graph, pDependencies, numDependencies, cudaGraphNodeTypeKernel,
                 [&](Context& cx, Work& w) {
    if (p == nullptr) return cx.fail(call, cudaErrorInvalidValue, "pNodeParams is NULL");
    return makeKernelWork(cx, call, p->func, p->gridDim, p->blockDim, p->sharedMemBytes,
                          p->kernelParams, p->extra, w);
  });
}

cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, cudaKernelNodeParams* p) {
  return onNode("cudaGraphKernelNodeGetParams", node, cudaGraphNodeTypeKernel,
                [&](Context&, GraphNode& n) {
    if (p == nullptr) return cudaErrorInvalidValue;
    auto& w = std::get<KernelWork>(n.work);
    p->func = const_cast<void*>(w.func);
    p->gridDim = w.grid;
    p->blockDim = w.block;
    p->sharedMemBytes = w.sharedBytes;
    p->kernelParams = w.kernelParams();
    p->extra = w.extra();
    return cudaSuccess;
  });
}

cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const cudaKernelNodeParams* p) {
  const char* call = "cudaGraphKernelNodeSetParams";
  return onNode(call, node, cudaGraphNodeTypeKernel, [&](Context& cx, GraphNode& n) {
    if (p == nullptr) return cudaErrorInvalidValue;
    return makeKernelWork(cx, call, p->func, p->gridDim, p->blockDim, p->sharedMemBytes,
                          p->kernelParams, p->extra, n.work);
  });
}

cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                   const cudaMemcpy3DParms* pCopyParams) {
  const char* call = "cudaGraphAddMemcpyNode";
  return addNode(call, pGraphNode, graph, pDependencies, numDependencies, cudaGraphNodeTypeMemcpy,
                 [&](Context& cx, Work& w) { return makeCopyWork(cx, call, pCopyParams, w); });
}

cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                     const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                     void* dst, const void* src, size_t count,
                                     cudaMemcpyKind kind) {
  const char* call = "cudaGraphAddMemcpyNode1D";
  cudaMemcpy3DParms p = copyParams1D(dst, src, count, kind);
  return addNode(call, pGraphNode, graph, pDependencies, numDependencies, cudaGraphNodeTypeMemcpy,
                 [&](Context& cx, Work& w) { return makeCopyWork(cx, call, &p, w); });
}

cudaError_t cudaGraphAddMemcpyNodeToSymbol(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                           const cudaGraphNode_t* pDependencies,
                                           size_t numDependencies, const void* symbol,
                                           const void* src, size_t count, size_t offset,
                                           cudaMemcpyKind kind) {
  const char* call = "cudaGraphAddMemcpyNodeToSymbol";
  return addNode(call, pGraphNode, graph, pDependencies, numDependencies, cudaGraphNodeTypeMemcpy,
                 [&](Context& cx, Work& w) {
    return makeSymbolCopyWork(cx, call, symbol, const_cast<void*>(src), count, offset, kind, true,
                              w);
  });
}

cudaError_t cudaGraphAddMemcpyNodeFromSymbol(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                             const cudaGraphNode_t* pDependencies,
                                             size_t numDependencies, void* dst,
                                             const void* symbol, size_t count, size_t offset,
                                             cudaMemcpyKind kind) {
  const char* call = "cudaGraphAddMemcpyNodeFromSymbol";
  return addNode(call, pGraphNode, graph, pDependencies, numDependencies, cudaGraphNodeTypeMemcpy,
                 [&](Context& cx, Work& w) {
    return makeSymbolCopyWork(cx, call, symbol, dst, count, offset, kind, false, w);
  });
}

cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node, cudaMemcpy3DParms* p) {
  return onNode("cudaGraphMemcpyNodeGetParams", node, cudaGraphNodeTypeMemcpy,
                [&](Context&, GraphNode& n) {
    if (p == nullptr) return cudaErrorInvalidValue;
    *p = std::get<CopyWork>(n.work).params;
    return cudaSuccess;
  });
}

cudaError_t cudaGraphMemcpyNodeSetParams(cudaGraphNode_t node, const cudaMemcpy3DParms* p) {
  const char* call = "cudaGraphMemcpyNodeSetParams";
  return onNode(call, node, cudaGraphNodeTypeMemcpy,
                [&](Context& cx, GraphNode& n) { return makeCopyWork(cx, call, p, n.work); });
}

cudaError_t cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t node, void* dst, const void* src,
                                           size_t count, cudaMemcpyKind kind) {
  const char* call = "cudaGraphMemcpyNodeSetParams1D";
  cudaMemcpy3DParms p = copyParams1D(dst, src, count, kind);
  return onNode(call, node, cudaGraphNodeTypeMemcpy,
                [&](Context& cx, GraphNode& n) { return makeCopyWork(cx, call, &p, n.work); });
}

cudaError_t cudaGraphMemcpyNodeSetParamsToSymbol(cudaGraphNode_t node, const void* symbol,
                                                 const void* src, size_t count, size_t offset,
                                                 cudaMemcpyKind kind) {
  const char* call = "cudaGraphMemcpyNodeSetParamsToSymbol";
  return onNode(call, node, cudaGraphNodeTypeMemcpy, [&](Context& cx, GraphNode& n) {
    return makeSymbolCopyWork(cx, call, symbol, const_cast<void*>(src), count, offset, kind, true,
                              n.work);
  });
}

cudaError_t cudaGraphMemcpyNodeSetParamsFromSymbol(cudaGraphNode_t node, void* dst,
                                                   const void* symbol, size_t count,
                                                   size_t offset, cudaMemcpyKind kind) {
  const char* call = "cudaGraphMemcpyNodeSetParamsFromSymbol";
  return onNode(call, node, cudaGraphNodeTypeMemcpy, [&](Context& cx, GraphNode& n) {
    return makeSymbolCopyWork(cx, call, symbol, dst, count, offset, kind, false, n.work);
  });
}

cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                   const cudaMemsetParams* p) {
  const char* call = "cudaGraphAddMemsetNode";
  return addNode(call, pGraphNode, graph, pDependencies, numDependencies, cudaGraphNodeTypeMemset,
                 [&](Context& cx, Work& w) { return makeMemsetWork(cx, call, p, w); });
}

cudaError_t cudaGraphMemsetNodeGetParams(cudaGraphNode_t node, cudaMemsetParams* p) {
  return onNode("cudaGraphMemsetNodeGetParams", node, cudaGraphNodeTypeMemset,
                [&](Context&, GraphNode& n) {
    if (p == nullptr) return cudaErrorInvalidValue;
    *p = std::get<MemsetWork>(n.work).params;
    return cudaSuccess;
  });
}

cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t node, const cudaMemsetParams* p) {
  const char* call = "cudaGraphMemsetNodeSetParams";
  return onNode(call, node, cudaGraphNodeTypeMemset,
                [&](Context& cx, GraphNode& n) { return makeMemsetWork(cx, call, p, n.work); });
}

cudaError_t cudaGraphAddHostNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                 const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                 const cudaHostNodeParams* p) {
  const char* call = "cudaGraphAddHostNode";
  return addNode(call, pGraphNode, graph, pDependencies, numDependencies, cudaGraphNodeTypeHost,
                 [&](Context& cx, Work& w) { return makeHostWork(cx, call, p, w); });
}

cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t node, cudaHostNodeParams* p) {
  return onNode("cudaGraphHostNodeGetParams", node, cudaGraphNodeTypeHost,
                [&](Context&, GraphNode& n) {
    if (p == nullptr) return cudaErrorInvalidValue;
    const auto& w = std::get<HostWork>(n.work);
    *p = cudaHostNodeParams{w.fn, w.userData};
    return cudaSuccess;
  });
}

cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t node, const cudaHostNodeParams* p) {
  const char* call = "cudaGraphHostNodeSetParams";
  return onNode(call, node, cudaGraphNodeTypeHost,
                [&](Context& cx, GraphNode& n) { return makeHostWork(cx, call, p, n.work); });
}

cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                       const cudaGraphNode_t* pDependencies,
                                       size_t numDependencies, cudaGraph_t childGraph) {
  const char* call = "cudaGraphAddChildGraphNode";
  return addNode(call, pGraphNode, graph, pDependencies, numDependencies, cudaGraphNodeTypeGraph,
                 [&](Context& cx, Work& w) { return makeChildWork(cx, call, childGraph, w); });
}

cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node, cudaGraph_t* pGraph) {
  return onNode("cudaGraphChildGraphNodeGetGraph", node, cudaGraphNodeTypeGraph,
                [&](Context&, GraphNode& n) {
    if (pGraph == nullptr) return cudaErrorInvalidValue;
    *pGraph = reinterpret_cast<cudaGraph_t>(std::get<ChildWork>(n.work).graph.get());
    return cudaSuccess;
  });
}

cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                  const cudaGraphNode_t* pDependencies, size_t numDependencies) {
  return addNode("cudaGraphAddEmptyNode", pGraphNode, graph, pDependencies, numDependencies,
                 cudaGraphNodeTypeEmpty, [](Context&, Work&) { return cudaSuccess; });
}

cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                        const cudaGraphNode_t* pDependencies,
                                        size_t numDependencies, cudaEvent_t event) {
  const char* call = "cudaGraphAddEventRecordNode";
  return addNode(call, pGraphNode, graph, pDependencies, numDependencies,
                 cudaGraphNodeTypeEventRecord,
                 [&](Context& cx, Work& w) { return makeEventWork(cx, call, event, w); });
}

cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                      const cudaGraphNode_t* pDependencies,
                                      size_t numDependencies, cudaEvent_t event) {
  const char* call = "cudaGraphAddEventWaitNode";
  return addNode(call, pGraphNode, graph, pDependencies, numDependencies,
                 cudaGraphNodeTypeWaitEvent,
                 [&](Context& cx, Work& w) { return makeEventWork(cx, call, event, w); });
}

cudaError_t cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t node, cudaEvent_t* event_out) {
  return onNode("cudaGraphEventRecordNodeGetEvent", node, cudaGraphNodeTypeEventRecord,
                [&](Context&, GraphNode& n) {
    if (event_out == nullptr) return cudaErrorInvalidValue;
    *event_out = std::get<EventWork>(n.work).event;
    return cudaSuccess;
  });
}

cudaError_t cudaGraphEventRecordNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event) {
  const char* call = "cudaGraphEventRecordNodeSetEvent";
  return onNode(call, node, cudaGraphNodeTypeEventRecord,
                [&](Context& cx, GraphNode& n) { return makeEventWork(cx, call, event, n.work); });
}

cudaError_t cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t node, cudaEvent_t* event_out) {
  return onNode("cudaGraphEventWaitNodeGetEvent", node, cudaGraphNodeTypeWaitEvent,
                [&](Context&, GraphNode& n) {
    if (event_out == nullptr) return cudaErrorInvalidValue;
    *event_out = std::get<EventWork>(n.work).event;
    return cudaSuccess;
  });
}

cudaError_t cudaGraphEventWaitNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event) {
  const char* call = "cudaGraphEventWaitNodeSetEvent";
  return onNode(call, node, cudaGraphNodeTypeWaitEvent,
                [&](Context& cx, GraphNode& n) { return makeEventWork(cx, call, event, n.work); });
}

cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                     const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                     cudaMemAllocNodeParams* nodeParams) {
  const char* call = "cudaGraphAddMemAllocNode";
  return addNode(call, pGraphNode, graph, pDependencies, numDependencies,
                 cudaGraphNodeTypeMemAlloc,
                 [&](Context& cx, Work& w) { return makeAllocWork(cx, call, nodeParams, w); });
}

cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node, cudaMemAllocNodeParams* out) {
  return onNode("cudaGraphMemAllocNodeGetParams", node, cudaGraphNodeTypeMemAlloc,
                [&](Context&, GraphNode& n) {
    if (out == nullptr) return cudaErrorInvalidValue;
    const auto& w = std::get<AllocWork>(n.work);
    *out = cudaMemAllocNodeParams{};
    out->poolProps = w.poolProps;
    out->bytesize = w.allocation->bytes;
    out->dptr = reinterpret_cast<void*>(w.allocation->address);
    return cudaSuccess;
  });
}

cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                    const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                    void* dptr) {
  const char* call = "cudaGraphAddMemFreeNode";
  return addNode(call, pGraphNode, graph, pDependencies, numDependencies, cudaGraphNodeTypeMemFree,
                 [&](Context& cx, Work& w) { return makeFreeWork(cx, call, dptr, w); });
}

cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node, void* dptr_out) {
  return onNode("cudaGraphMemFreeNodeGetParams", node, cudaGraphNodeTypeMemFree,
                [&](Context&, GraphNode& n) {
    if (dptr_out == nullptr) return cudaErrorInvalidValue;
    *static_cast<void**>(dptr_out) = reinterpret_cast<void*>(std::get<FreeWork>(n.work).address);
    return cudaSuccess;
  });
}

cudaError_t cudaGraphAddNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                             const cudaGraphNode_t* pDependencies,
                             const cudaGraphEdgeData* dependencyData, size_t numDependencies,
                             cudaGraphNodeParams* nodeParams) {
  const char* call = "cudaGraphAddNode";
  if (nodeParams == nullptr || !zeroEdges(dependencyData, numDependencies)) {
    return apiCall(call, cudaErrorInvalidValue, [](Context&) { return cudaErrorInvalidValue; });
  }
  return addNode(call, pGraphNode, graph, pDependencies, numDependencies, nodeParams->type,
                 [&](Context& cx, Work& w) { return makeWork(cx, call, nodeParams, w); });
}

cudaError_t cudaGraphNodeSetParams(cudaGraphNode_t node, cudaGraphNodeParams* nodeParams) {
  const char* call = "cudaGraphNodeSetParams";
  return onNode(call, node, cudaGraphNodeTypeCount, [&](Context& cx, GraphNode& n) {
    if (nodeParams == nullptr || nodeParams->type != n.type) {
      return cx.fail(call, cudaErrorInvalidValue, "the parameters are not for this node's type");
    }
    if (n.type == cudaGraphNodeTypeMemAlloc || n.type == cudaGraphNodeTypeMemFree) {
      return cx.fail(call, cudaErrorInvalidValue, "memory node parameters cannot change");
    }
    return makeWork(cx, call, nodeParams, n.work);
  });
}

cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, cudaGraphNodeType* pType) {
  return onNode("cudaGraphNodeGetType", node, cudaGraphNodeTypeCount,
                [&](Context&, GraphNode& n) {
    if (pType == nullptr) return cudaErrorInvalidValue;
    *pType = n.type;
    return cudaSuccess;
  });
}

cudaError_t cudaGraphDestroyNode(cudaGraphNode_t node) {
  return onNode("cudaGraphDestroyNode", node, cudaGraphNodeTypeCount,
                [&](Context&, GraphNode& n) {
    n.graph->remove(&n);
    return cudaSuccess;
  });
}

// ---- structure ----------------------------------------------------------------------------

cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, size_t* numNodes) {
  return apiCall("cudaGraphGetNodes", cudaErrorInvalidValue, [&](Context& cx) {
    Graph* g = graphOf(cx, "cudaGraphGetNodes", graph);
    if (g == nullptr) return cudaErrorInvalidValue;
    std::vector<GraphNode*> all;
    for (const auto& n : g->nodes()) all.push_back(n.get());
    return listOut(all, nodes, nullptr, numNodes);
  });
}

cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t* pRootNodes,
                                  size_t* pNumRootNodes) {
  return apiCall("cudaGraphGetRootNodes", cudaErrorInvalidValue, [&](Context& cx) {
    Graph* g = graphOf(cx, "cudaGraphGetRootNodes", graph);
    if (g == nullptr) return cudaErrorInvalidValue;
    std::vector<GraphNode*> roots;
    for (const auto& n : g->nodes()) {
      if (n->dependencies.empty()) roots.push_back(n.get());
    }
    return listOut(roots, pRootNodes, nullptr, pNumRootNodes);
  });
}

cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t* from, cudaGraphNode_t* to,
                              cudaGraphEdgeData* edgeData, size_t* numEdges) {
  return apiCall("cudaGraphGetEdges", cudaErrorInvalidValue, [&](Context& cx) {
    Graph* g = graphOf(cx, "cudaGraphGetEdges", graph);
    if (g == nullptr || numEdges == nullptr || (from == nullptr) != (to == nullptr)) {
      return cudaErrorInvalidValue;
    }
    std::vector<GraphNode*> sources, targets;
    for (const auto& n : g->nodes()) {
      for (GraphNode* d : n->dependencies) {
        sources.push_back(d);
        targets.push_back(n.get());
      }
    }
    size_t count = *numEdges;
    if (cudaError_t e = listOut(sources, from, edgeData, &count); e != cudaSuccess) return e;
    return listOut(targets, to, nullptr, numEdges);
  });
}

cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t* pDependencies,
                                         cudaGraphEdgeData* edgeData, size_t* pNumDependencies) {
  return onNode("cudaGraphNodeGetDependencies", node, cudaGraphNodeTypeCount,
                [&](Context&, GraphNode& n) {
    return listOut(n.dependencies, pDependencies, edgeData, pNumDependencies);
  });
}

cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t* pDependentNodes,
                                           cudaGraphEdgeData* edgeData,
                                           size_t* pNumDependentNodes) {
  return onNode("cudaGraphNodeGetDependentNodes", node, cudaGraphNodeTypeCount,
                [&](Context&, GraphNode& n) {
    return listOut(n.dependents, pDependentNodes, edgeData, pNumDependentNodes);
  });
}

cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t* from,
                                     const cudaGraphNode_t* to, const cudaGraphEdgeData* edgeData,
                                     size_t numDependencies) {
  return changeEdges("cudaGraphAddDependencies", graph, from, to, edgeData, numDependencies, true);
}

cudaError_t cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t* from,
                                        const cudaGraphNode_t* to,
                                        const cudaGraphEdgeData* edgeData,
                                        size_t numDependencies) {
  return changeEdges("cudaGraphRemoveDependencies", graph, from, to, edgeData, numDependencies,
                     false);
}

}  // extern "C"

extern "C" {

cudaError_t cudaGraphDebugDotPrint(cudaGraph_t graph, const char* path, unsigned int flags) {
  const char* call = "cudaGraphDebugDotPrint";
  return apiCall(call, cudaErrorInvalidValue, [&](Context& cx) {
    Graph* g = graphOf(cx, call, graph);
    if (g == nullptr || path == nullptr) return cudaErrorInvalidValue;
    std::ofstream out(path);
    if (out) out << graphDot(*g, flags);
    if (!out) return cx.fail(call, cudaErrorOperatingSystem, fmt::format("cannot write {}", path));
    return cudaSuccess;
  });
}

}  // extern "C"
