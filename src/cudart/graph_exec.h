// An executable graph (cudaGraphExec_t): its own copy of the graph it was instantiated from,
// with a run order for it and each child graph, so that later changes to the source graph do not
// reach it. Parameters are changed per node (cudaGraphExec*NodeSetParams, identified by the
// source graph's node) or for the whole graph from a graph of the same shape (cudaGraphExecUpdate).
#pragma once
#include <cuda_runtime_api.h>

#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "cudart/graph.h"

namespace warpsim::cudart {

class GraphExec {
 public:
  // Instantiates `graph`; nullptr with `why` and the offending node when its edges form a cycle.
  static std::unique_ptr<GraphExec> instantiate(const Graph& graph, unsigned long long flags,
                                                std::string& why, const GraphNode*& errorNode);

  Graph& graph() { return *graph_; }
  unsigned long long flags() const { return flags_; }
  // The run order of the instantiated graph or one of its child graphs.
  const std::vector<GraphNode*>& order(const Graph& g) const { return orders_.at(&g); }
  // This graph's node made from `source` (a node of the instantiated graph), or nullptr.
  GraphNode* nodeFor(const GraphNode* source) const;
  bool enabled(const GraphNode* n) const { return disabled_.count(n) == 0; }
  void setEnabled(const GraphNode* n, bool on);
  // Replaces a child graph node's graph after checking that the new one has the same shape.
  // Returns cudaGraphExecUpdateSuccess or why not (errorNode: the offending node of `child`).
  cudaGraphExecUpdateResult setChildGraph(GraphNode* node, const Graph& child,
                                          const GraphNode*& errorNode);

  // cudaGraphExecUpdate: takes the parameters of `source`, which must have the same shape as
  // the instantiated graph (nodes paired in creation order, same types and dependencies, and
  // only the parameter changes CUDA allows). `isDevice` says whether an address is device memory
  // (a memcpy operand may not change between host and device).
  cudaGraphExecUpdateResult update(const Graph& source,
                                   const std::function<bool(const void*)>& isDevice,
                                   const GraphNode*& errorNode, const GraphNode*& errorFrom);

  // Every graph allocation the graph makes (memory allocation nodes, child graphs included).
  std::vector<GraphAllocation*> allocations() const;

 private:
  void computeOrders(const Graph& g);
  void mapSources(const Graph& g);

  std::unique_ptr<Graph> graph_;
  unsigned long long flags_ = 0;
  std::unordered_map<const Graph*, std::vector<GraphNode*>> orders_;
  std::unordered_map<const GraphNode*, GraphNode*> bySource_;
  std::unordered_set<const GraphNode*> disabled_;
};

}  // namespace warpsim::cudart

namespace warpsim::cudart {

// The graphs and executable graphs the program holds (their handles are these addresses). Child
// graphs belong to their nodes and capture sequences own the graph they record until it ends.
struct GraphState {
  GraphRegistry registry;
  std::unordered_map<const Graph*, std::unique_ptr<Graph>> graphs;
  std::unordered_map<const GraphExec*, std::unique_ptr<GraphExec>> execs;
};

}  // namespace warpsim::cudart
