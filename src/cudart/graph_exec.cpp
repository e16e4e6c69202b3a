#include "cudart/graph_exec.h"

#include <fmt/format.h>

#include <algorithm>

namespace warpsim::cudart {

namespace {

bool sameMemset(const cudaMemsetParams& a, const cudaMemsetParams& b) {
  // A 2D memset may change only its address and value; a 1D one its size as well.
  if (a.elementSize != b.elementSize) return false;
  if (a.height <= 1 && b.height <= 1) return true;
  return a.height == b.height && a.width == b.width && a.pitch == b.pitch;
}

// Whether `from` may take the parameters of `to` (the nodes have the same type).
cudaGraphExecUpdateResult compareWork(const GraphNode& from, const GraphNode& to,
                                      const std::function<bool(const void*)>& isDevice,
                                      const GraphNode*& errorNode, const GraphNode*& errorFrom);

cudaGraphExecUpdateResult compareGraphs(const Graph& exec, const Graph& source,
                                        const std::function<bool(const void*)>& isDevice,
                                        const GraphNode*& errorNode,
                                        const GraphNode*& errorFrom) {
  const auto& a = exec.nodes();
  const auto& b = source.nodes();
  if (a.size() != b.size()) {
    errorNode = nullptr;
    return cudaGraphExecUpdateErrorTopologyChanged;
  }
  for (size_t i = 0; i < a.size(); ++i) {
    const GraphNode& x = *a[i];
    const GraphNode& y = *b[i];
    errorNode = &y;
    if (x.type != y.type) return cudaGraphExecUpdateErrorNodeTypeChanged;
    // Compare dependencies by position in creation order.
    std::vector<uint64_t> want, have;
    for (const GraphNode* d : x.dependencies) {
      want.push_back(static_cast<uint64_t>(
          std::find_if(a.begin(), a.end(), [&](const auto& p) { return p.get() == d; }) -
          a.begin()));
    }
    for (const GraphNode* d : y.dependencies) {
      have.push_back(static_cast<uint64_t>(
          std::find_if(b.begin(), b.end(), [&](const auto& p) { return p.get() == d; }) -
          b.begin()));
    }
    if (want.size() != have.size()) return cudaGraphExecUpdateErrorTopologyChanged;
    std::sort(want.begin(), want.end());
    for (size_t k = 0; k < have.size(); ++k) {
      if (!std::binary_search(want.begin(), want.end(), have[k])) {
        errorFrom = y.dependencies[k];
        return cudaGraphExecUpdateErrorTopologyChanged;
      }
    }
    cudaGraphExecUpdateResult r = compareWork(x, y, isDevice, errorNode, errorFrom);
    if (r != cudaGraphExecUpdateSuccess) return r;
  }
  errorNode = nullptr;
  return cudaGraphExecUpdateSuccess;
}

cudaGraphExecUpdateResult compareWork(const GraphNode& from, const GraphNode& to,
                                      const std::function<bool(const void*)>& isDevice,
                                      const GraphNode*& errorNode, const GraphNode*& errorFrom) {
  switch (from.type) {
    case cudaGraphNodeTypeMemcpy: {
      const auto& a = std::get<CopyWork>(from.work).params;
      const auto& b = std::get<CopyWork>(to.work).params;
      bool same = isDevice(a.srcPtr.ptr) == isDevice(b.srcPtr.ptr) &&
                  isDevice(a.dstPtr.ptr) == isDevice(b.dstPtr.ptr);
      return same ? cudaGraphExecUpdateSuccess : cudaGraphExecUpdateErrorParametersChanged;
    }
    case cudaGraphNodeTypeMemset:
      return sameMemset(std::get<MemsetWork>(from.work).params, std::get<MemsetWork>(to.work).params)
                 ? cudaGraphExecUpdateSuccess
                 : cudaGraphExecUpdateErrorParametersChanged;
    case cudaGraphNodeTypeGraph:
      return compareGraphs(*std::get<ChildWork>(from.work).graph,
                           *std::get<ChildWork>(to.work).graph, isDevice, errorNode, errorFrom);
    case cudaGraphNodeTypeMemAlloc:
      return std::get<AllocWork>(from.work).allocation == std::get<AllocWork>(to.work).allocation
                 ? cudaGraphExecUpdateSuccess
                 : cudaGraphExecUpdateErrorNotSupported;
    case cudaGraphNodeTypeMemFree:
      return std::get<FreeWork>(from.work).address == std::get<FreeWork>(to.work).address
                 ? cudaGraphExecUpdateSuccess
                 : cudaGraphExecUpdateErrorNotSupported;
    default:  // kernels (any function of this device), host and event nodes
      return cudaGraphExecUpdateSuccess;
  }
}

// Copies the parameters of `source`'s nodes into `exec`'s (same shape, checked).
void takeWork(Graph& exec, const Graph& source) {
  for (size_t i = 0; i < exec.nodes().size(); ++i) {
    exec.nodes()[i]->work = source.nodes()[i]->work;
  }
}

}  // namespace

std::unique_ptr<GraphExec> GraphExec::instantiate(const Graph& graph, unsigned long long flags,
                                                  std::string& why,
                                                  const GraphNode*& errorNode) {
  std::vector<GraphNode*> order;
  if (!graph.topologicalOrder(order)) {
    // A node left out of the order lies on (or after) a cycle.
    for (const auto& n : graph.nodes()) {
      if (std::find(order.begin(), order.end(), n.get()) == order.end()) {
        errorNode = n.get();
        break;
      }
    }
    why = fmt::format("the graph's dependencies form a cycle (through node {})", errorNode->id);
    return nullptr;
  }
  auto exec = std::unique_ptr<GraphExec>(new GraphExec);
  exec->graph_ = graph.clone();
  exec->flags_ = flags;
  exec->computeOrders(*exec->graph_);
  exec->mapSources(*exec->graph_);
  return exec;
}

void GraphExec::computeOrders(const Graph& g) {
  std::vector<GraphNode*>& order = orders_[&g];
  g.topologicalOrder(order);  // child graphs were checked when they were added
  for (GraphNode* n : order) {
    if (auto* child = std::get_if<ChildWork>(&n->work)) computeOrders(*child->graph);
  }
}

void GraphExec::mapSources(const Graph& g) {
  for (const auto& n : g.nodes()) {
    if (n->origin != nullptr) bySource_[n->origin] = n.get();
  }
}

GraphNode* GraphExec::nodeFor(const GraphNode* source) const {
  auto it = bySource_.find(source);
  return it == bySource_.end() ? nullptr : it->second;
}

void GraphExec::setEnabled(const GraphNode* n, bool on) {
  if (on) disabled_.erase(n);
  else disabled_.insert(n);
}

cudaGraphExecUpdateResult GraphExec::setChildGraph(GraphNode* node, const Graph& child,
                                                   const GraphNode*& errorNode) {
  Graph& mine = *std::get<ChildWork>(node->work).graph;
  const GraphNode* errorFrom = nullptr;
  auto anyIsDevice = [](const void*) { return true; };  // operands' kinds are not compared here
  cudaGraphExecUpdateResult r = compareGraphs(mine, child, anyIsDevice, errorNode, errorFrom);
  if (r != cudaGraphExecUpdateSuccess) return r;
  takeWork(mine, child);
  orders_.clear();
  computeOrders(*graph_);
  return r;
}

cudaGraphExecUpdateResult GraphExec::update(const Graph& source,
                                            const std::function<bool(const void*)>& isDevice,
                                            const GraphNode*& errorNode,
                                            const GraphNode*& errorFrom) {
  errorNode = errorFrom = nullptr;
  cudaGraphExecUpdateResult r = compareGraphs(*graph_, source, isDevice, errorNode, errorFrom);
  if (r != cudaGraphExecUpdateSuccess) return r;
  takeWork(*graph_, source);
  orders_.clear();  // child graphs were replaced
  computeOrders(*graph_);
  return r;
}

std::vector<GraphAllocation*> GraphExec::allocations() const {
  std::vector<GraphAllocation*> out;
  std::vector<const Graph*> todo{graph_.get()};
  while (!todo.empty()) {
    const Graph* g = todo.back();
    todo.pop_back();
    for (const auto& n : g->nodes()) {
      if (const auto* a = std::get_if<AllocWork>(&n->work)) out.push_back(a->allocation.get());
      if (const auto* c = std::get_if<ChildWork>(&n->work)) todo.push_back(c->graph.get());
    }
  }
  return out;
}

}  // namespace warpsim::cudart
