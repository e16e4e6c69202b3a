#include "cudart/graph_run.h"

#include <fmt/format.h>

#include "cudart/context.h"
#include "cudart/memory_ops.h"

namespace warpsim::cudart {

namespace {

cudaError_t runGraph(Context& cx, GraphExec& exec, const Graph& g);

cudaError_t runNode(Context& cx, GraphExec& exec, GraphNode& n) {
  switch (n.type) {
    case cudaGraphNodeTypeKernel: {
      if (cx.stickyError() != cudaSuccess) return cx.stickyError();
      auto& w = std::get<KernelWork>(n.work);
      return cx.launch(*w.kernel, w.grid, w.block, w.argumentPointers(), w.sharedBytes);
    }
    case cudaGraphNodeTypeMemcpy:
      return copyMemory3D(cx, std::get<CopyWork>(n.work).params);
    case cudaGraphNodeTypeMemset: {
      const cudaMemsetParams& p = std::get<MemsetWork>(n.work).params;
      return fillMemory2D(cx, p.dst, p.pitch, p.value, p.elementSize, p.width, p.height);
    }
    case cudaGraphNodeTypeHost: {
      const auto& w = std::get<HostWork>(n.work);
      w.fn(w.userData);
      return cudaSuccess;
    }
    case cudaGraphNodeTypeGraph:
      return runGraph(cx, exec, *std::get<ChildWork>(n.work).graph);
    case cudaGraphNodeTypeEventRecord: {
      auto* e = reinterpret_cast<EventRecord*>(std::get<EventWork>(n.work).event);
      if (!cx.isEvent(e)) {
        return cx.fail("cudaGraphLaunch", cudaErrorInvalidResourceHandle,
                       fmt::format("event record node {}: the event was destroyed", n.id));
      }
      e->recorded = true;
      e->timeNs = cx.nowNs();
      e->captureId = 0;
      return cudaSuccess;
    }
    case cudaGraphNodeTypeMemAlloc:
      cx.pools().setLive(*std::get<AllocWork>(n.work).allocation, true);
      return cudaSuccess;
    case cudaGraphNodeTypeMemFree: {
      GraphAllocation* a = cx.pools().graphAllocationAt(std::get<FreeWork>(n.work).address);
      if (a != nullptr) cx.pools().setLive(*a, false);
      return cudaSuccess;
    }
    default:  // empty and event-wait nodes: everything before them has completed
      return cudaSuccess;
  }
}

cudaError_t runGraph(Context& cx, GraphExec& exec, const Graph& g) {
  for (GraphNode* n : exec.order(g)) {
    if (!exec.enabled(n)) continue;
    if (cudaError_t e = runNode(cx, exec, *n); e != cudaSuccess) return e;
  }
  return cudaSuccess;
}

}  // namespace

cudaError_t launchGraph(Context& cx, GraphExec& exec) {
  for (GraphAllocation* a : exec.allocations()) {
    if (!a->live) continue;
    if ((exec.flags() & cudaGraphInstantiateFlagAutoFreeOnLaunch) != 0) {
      cx.pools().setLive(*a, false);
      continue;
    }
    return cx.fail("cudaGraphLaunch", cudaErrorInvalidValue,
                   fmt::format("the graph's allocation at 0x{:x} from an earlier launch is not "
                               "freed (free it, or instantiate with "
                               "cudaGraphInstantiateFlagAutoFreeOnLaunch)",
                               a->address));
  }
  return runGraph(cx, exec, exec.graph());
}

}  // namespace warpsim::cudart
