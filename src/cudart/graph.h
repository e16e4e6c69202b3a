// CUDA graphs (cudaGraph_t, cudaGraphNode_t): nodes of stream work and the dependencies between
// them, as built explicitly (cudaGraphAdd*Node) or recorded by stream capture (capture.h).
//
// A node owns its work: a kernel node a copy of the launch's arguments, a child-graph node its
// own graph. Handles given to the program are the Graph and GraphNode addresses; every live graph
// and node is listed in a GraphRegistry so that a stale or foreign handle is refused, never
// dereferenced. Running the work is graph_run.h's job; this file knows only the structure.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <variant>
#include <vector>

#include "cudart/kernel_args.h"

namespace warpsim::cudart {

class Graph;
struct GraphAllocation;

struct CopyWork {
  cudaMemcpy3DParms params{};  // pitched pointers only (no CUDA arrays)
};
struct MemsetWork {
  cudaMemsetParams params{};
};
struct HostWork {
  cudaHostFn_t fn = nullptr;
  void* userData = nullptr;
};
// A child graph node owns a copy of the graph it was given; copying the work clones it.
struct ChildWork {
  std::unique_ptr<Graph> graph;
  ChildWork() = default;
  explicit ChildWork(std::unique_ptr<Graph> g) : graph(std::move(g)) {}
  ChildWork(const ChildWork& other);
  ChildWork& operator=(const ChildWork& other);
  ChildWork(ChildWork&&) = default;
  ChildWork& operator=(ChildWork&&) = default;
};
struct EventWork {
  cudaEvent_t event = nullptr;  // recorded (cudaGraphNodeTypeEventRecord) or waited for
};
// A graph allocation is made when its node is created and keeps its address for the life of
// every graph and executable graph that holds the node (as CUDA's graph allocations do).
struct AllocWork {
  std::shared_ptr<GraphAllocation> allocation;
  cudaMemPoolProps poolProps{};
};
struct FreeWork {
  uint64_t address = 0;
};
using Work = std::variant<std::monostate, KernelWork, CopyWork, MemsetWork, HostWork, ChildWork,
                          EventWork, AllocWork, FreeWork>;

struct GraphNode {
  Graph* graph = nullptr;
  cudaGraphNodeType type = cudaGraphNodeTypeEmpty;
  uint64_t id = 0;                     // creation order within its graph (DOT output, pairing)
  const GraphNode* origin = nullptr;   // the node this one was cloned from, if any
  Work work;
  std::vector<GraphNode*> dependencies;  // incoming edges, in the order they were added
  std::vector<GraphNode*> dependents;    // outgoing edges
};

// The live graphs and nodes of a process, for checking handles.
class GraphRegistry {
 public:
  bool isGraph(const void* p) const { return graphs_.count(p) != 0; }
  bool isNode(const void* p) const { return nodes_.count(p) != 0; }

 private:
  friend class Graph;
  std::unordered_set<const void*> graphs_;
  std::unordered_set<const void*> nodes_;
};

class Graph {
 public:
  explicit Graph(GraphRegistry& registry);
  ~Graph();
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  GraphRegistry& registry() const { return *registry_; }
  const std::vector<std::unique_ptr<GraphNode>>& nodes() const { return nodes_; }
  bool contains(const GraphNode* n) const { return n != nullptr && n->graph == this; }

  // Why a dependency list cannot be used for a new node ("" when it can): each entry must be a
  // node of this graph, listed once.
  std::string checkDependencies(const cudaGraphNode_t* deps, size_t count) const;
  // Adds a node after the given dependencies (checked by checkDependencies).
  GraphNode* add(cudaGraphNodeType type, Work work, const cudaGraphNode_t* deps, size_t count);
  // Edges between two nodes of this graph; false when it exists already (add) or not (remove).
  bool addEdge(GraphNode* from, GraphNode* to);
  bool removeEdge(GraphNode* from, GraphNode* to);
  // Removes a node and its edges.
  void remove(GraphNode* node);

  // Every node after all of its dependencies, ties in creation order; false when the edges form
  // a cycle (`order` is then incomplete).
  bool topologicalOrder(std::vector<GraphNode*>& order) const;
  // A copy with the same structure; each copied node's `origin` is the node it copies.
  std::unique_ptr<Graph> clone() const;
  // Whether any node, in this graph or a child graph, allocates or frees graph memory.
  bool hasMemoryNodes() const;

 private:
  GraphRegistry* registry_;
  std::vector<std::unique_ptr<GraphNode>> nodes_;  // creation order
  uint64_t nextId_ = 0;
};

// The node type's name as cudaGraphDebugDotPrint writes it ("KERNEL", "MEMCPY", ...).
const char* nodeTypeName(cudaGraphNodeType type);

}  // namespace warpsim::cudart
