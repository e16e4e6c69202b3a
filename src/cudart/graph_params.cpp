#include "cudart/graph_params.h"

#include <fmt/format.h>

#include "cudart/context.h"
#include "cudart/memory_ops.h"

namespace warpsim::cudart {

namespace {

// Pool properties a graph allocation may ask for: pinned device memory of device 0, no IPC.
cudaError_t checkPoolProps(Context& cx, const char* call, const cudaMemPoolProps& p) {
  if (p.allocType != cudaMemAllocationTypePinned) {
    return cx.fail(call, cudaErrorInvalidValue, "poolProps.allocType must be cudaMemAllocationTypePinned");
  }
  if (p.location.type != cudaMemLocationTypeDevice || p.location.id != 0) {
    return cx.fail(call, cudaErrorInvalidValue,
                   "graph allocations must reside on device 0 (poolProps.location)");
  }
  if (p.handleTypes != cudaMemHandleTypeNone) {
    return cx.fail(call, cudaErrorInvalidValue, "graph allocations cannot be shared (handleTypes)");
  }
  return cudaSuccess;
}

}  // namespace

cudaError_t makeKernelWork(Context& cx, const char* call, const void* func, dim3 grid, dim3 block,
                           size_t sharedBytes, void** kernelParams, void** extra, Work& out) {
  KernelRecord* k = nullptr;
  if (cudaError_t e = cx.kernelFor(call, func, k); e != cudaSuccess) return e;
  KernelWork w;
  w.func = func;
  w.kernel = k;
  w.grid = grid;
  w.block = block;
  w.sharedBytes = static_cast<unsigned>(sharedBytes);
  if (std::string why = w.setArguments(*k, kernelParams, extra); !why.empty()) {
    return cx.fail(call, cudaErrorInvalidValue, why);
  }
  out = std::move(w);
  return cudaSuccess;
}

cudaError_t makeCopyWork(Context& cx, const char* call, const cudaMemcpy3DParms* p, Work& out) {
  if (p == nullptr) return cx.fail(call, cudaErrorInvalidValue, "no copy parameters");
  if (std::string why = checkCopy3D(*p); !why.empty()) {
    return cx.fail(call, p->srcArray || p->dstArray ? cudaErrorNotSupported : cudaErrorInvalidValue,
                   why);
  }
  out = CopyWork{*p};
  return cudaSuccess;
}

cudaError_t makeSymbolCopyWork(Context& cx, const char* call, const void* symbol, void* other,
                               size_t count, size_t offset, cudaMemcpyKind kind, bool toSymbol,
                               Work& out) {
  uint64_t a = 0, size = 0;
  if (cudaError_t e = cx.symbolFor(symbol, a, size); e != cudaSuccess) return e;
  if (offset > size || count > size - offset) {
    return cx.fail(call, cudaErrorInvalidValue,
                   fmt::format("{} bytes at offset {} exceed the symbol's {} bytes", count, offset,
                               size));
  }
  void* device = reinterpret_cast<void*>(a + offset);
  cudaMemcpy3DParms p = toSymbol ? copyParams1D(device, other, count, kind)
                                 : copyParams1D(other, device, count, kind);
  return makeCopyWork(cx, call, &p, out);
}

cudaError_t makeMemsetWork(Context& cx, const char* call, const cudaMemsetParams* p, Work& out) {
  if (p == nullptr) return cx.fail(call, cudaErrorInvalidValue, "no memset parameters");
  if (std::string why = checkMemset(*p); !why.empty()) {
    return cx.fail(call, cudaErrorInvalidValue, why);
  }
  out = MemsetWork{*p};
  return cudaSuccess;
}

cudaError_t makeHostWork(Context& cx, const char* call, const cudaHostNodeParams* p, Work& out) {
  if (p == nullptr || p->fn == nullptr) {
    return cx.fail(call, cudaErrorInvalidValue, "no host function");
  }
  out = HostWork{p->fn, p->userData};
  return cudaSuccess;
}

cudaError_t makeChildWork(Context& cx, const char* call, cudaGraph_t child, Work& out) {
  Graph* g = graphOf(cx, call, child);
  if (g == nullptr) return cudaErrorInvalidValue;
  std::vector<GraphNode*> order;
  if (!g->topologicalOrder(order)) {
    return cx.fail(call, cudaErrorInvalidValue, "the child graph's dependencies form a cycle");
  }
  out = ChildWork{g->clone()};
  return cudaSuccess;
}

cudaError_t makeEventWork(Context& cx, const char* call, cudaEvent_t event, Work& out) {
  if (!cx.isEvent(reinterpret_cast<EventRecord*>(event))) {
    return cx.fail(call, cudaErrorInvalidValue, "the event is not an event");
  }
  out = EventWork{event};
  return cudaSuccess;
}

cudaError_t makeAllocWork(Context& cx, const char* call, cudaMemAllocNodeParams* p, Work& out) {
  if (p == nullptr) return cx.fail(call, cudaErrorInvalidValue, "no allocation parameters");
  if (cudaError_t e = checkPoolProps(cx, call, p->poolProps); e != cudaSuccess) return e;
  if (p->bytesize == 0) return cx.fail(call, cudaErrorInvalidValue, "bytesize is 0");
  AllocWork w;
  w.poolProps = p->poolProps;
  w.allocation = cx.pools().allocateForGraph(p->bytesize);
  if (!w.allocation) {
    return cx.fail(call, cudaErrorMemoryAllocation,
                   fmt::format("{} bytes of device memory are not available", p->bytesize));
  }
  p->dptr = reinterpret_cast<void*>(w.allocation->address);
  out = std::move(w);
  return cudaSuccess;
}

cudaError_t makeFreeWork(Context& cx, const char* call, void* address, Work& out) {
  if (cx.pools().graphAllocationAt(reinterpret_cast<uint64_t>(address)) == nullptr) {
    return cx.fail(call, cudaErrorInvalidValue,
                   fmt::format("{} is not a graph allocation (the start of memory a graph "
                               "allocation node made)",
                               address));
  }
  out = FreeWork{reinterpret_cast<uint64_t>(address)};
  return cudaSuccess;
}

cudaError_t makeWork(Context& cx, const char* call, cudaGraphNodeParams* p, Work& out) {
  if (p == nullptr) return cx.fail(call, cudaErrorInvalidValue, "no node parameters");
  switch (p->type) {
    case cudaGraphNodeTypeKernel: {
      const cudaKernelNodeParamsV2& k = p->kernel;
      return makeKernelWork(cx, call, k.func, k.gridDim, k.blockDim, k.sharedMemBytes,
                            k.kernelParams, k.extra, out);
    }
    case cudaGraphNodeTypeMemcpy:
      return makeCopyWork(cx, call, &p->memcpy.copyParams, out);
    case cudaGraphNodeTypeMemset: {
      const cudaMemsetParamsV2& m = p->memset;
      cudaMemsetParams v1{m.dst, m.pitch, m.value, m.elementSize, m.width, m.height};
      return makeMemsetWork(cx, call, &v1, out);
    }
    case cudaGraphNodeTypeHost: {
      cudaHostNodeParams h{p->host.fn, p->host.userData};
      return makeHostWork(cx, call, &h, out);
    }
    case cudaGraphNodeTypeGraph:
      return makeChildWork(cx, call, p->graph.graph, out);
    case cudaGraphNodeTypeEmpty:
      out = std::monostate{};
      return cudaSuccess;
    case cudaGraphNodeTypeWaitEvent:
      return makeEventWork(cx, call, p->eventWait.event, out);
    case cudaGraphNodeTypeEventRecord:
      return makeEventWork(cx, call, p->eventRecord.event, out);
    case cudaGraphNodeTypeMemAlloc: {
      cudaMemAllocNodeParams a{p->alloc.poolProps, p->alloc.accessDescs,
                               p->alloc.accessDescCount, p->alloc.bytesize, nullptr};
      cudaError_t e = makeAllocWork(cx, call, &a, out);
      p->alloc.dptr = a.dptr;
      return e;
    }
    case cudaGraphNodeTypeMemFree:
      return makeFreeWork(cx, call, p->free.dptr, out);
    default:
      return cx.fail(call, cudaErrorNotSupported,
                     fmt::format("node type {} is not supported by warpsim",
                                 static_cast<int>(p->type)));
  }
}

Graph* graphOf(Context& cx, const char* call, cudaGraph_t graph) {
  auto* g = reinterpret_cast<Graph*>(graph);
  if (cx.graphs().registry.isGraph(g)) return g;
  cx.fail(call, cudaErrorInvalidValue, fmt::format("{} is not a graph", static_cast<void*>(g)));
  return nullptr;
}

GraphNode* nodeOf(Context& cx, const char* call, cudaGraphNode_t node, cudaGraphNodeType type) {
  auto* n = reinterpret_cast<GraphNode*>(node);
  if (!cx.graphs().registry.isNode(n)) {
    cx.fail(call, cudaErrorInvalidValue, fmt::format("{} is not a graph node", static_cast<void*>(n)));
    return nullptr;
  }
  if (type != cudaGraphNodeTypeCount && n->type != type) {
    cx.fail(call, cudaErrorInvalidValue,
            fmt::format("node {} is a {} node, not a {} node", n->id, nodeTypeName(n->type),
                        nodeTypeName(type)));
    return nullptr;
  }
  return n;
}

GraphExec* execOf(Context& cx, const char* call, cudaGraphExec_t exec) {
  auto* x = reinterpret_cast<GraphExec*>(exec);
  if (cx.graphs().execs.count(x) != 0) return x;
  cx.fail(call, cudaErrorInvalidValue,
          fmt::format("{} is not an executable graph", static_cast<void*>(x)));
  return nullptr;
}

}  // namespace warpsim::cudart
