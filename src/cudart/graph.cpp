#include "cudart/graph.h"

#include <fmt/format.h>

#include <algorithm>
#include <queue>

namespace warpsim::cudart {

ChildWork::ChildWork(const ChildWork& other) : graph(other.graph ? other.graph->clone() : nullptr) {}

ChildWork& ChildWork::operator=(const ChildWork& other) {
  if (this != &other) graph = other.graph ? other.graph->clone() : nullptr;
  return *this;
}

Graph::Graph(GraphRegistry& registry) : registry_(&registry) { registry_->graphs_.insert(this); }

Graph::~Graph() {
  for (const auto& n : nodes_) registry_->nodes_.erase(n.get());
  registry_->graphs_.erase(this);
}

std::string Graph::checkDependencies(const cudaGraphNode_t* deps, size_t count) const {
  if (count != 0 && deps == nullptr) return fmt::format("{} dependencies but no array", count);
  for (size_t i = 0; i < count; ++i) {
    const auto* d = reinterpret_cast<const GraphNode*>(deps[i]);
    if (!registry_->isNode(d) || !contains(d)) {
      return fmt::format("dependency {} ({}) is not a node of this graph", i,
                         static_cast<const void*>(d));
    }
    for (size_t j = 0; j < i; ++j) {
      if (deps[j] == deps[i]) return fmt::format("dependency {} is listed twice", i);
    }
  }
  return "";
}

GraphNode* Graph::add(cudaGraphNodeType type, Work work, const cudaGraphNode_t* deps,
                      size_t count) {
  auto node = std::make_unique<GraphNode>();
  node->graph = this;
  node->type = type;
  node->id = nextId_++;
  node->work = std::move(work);
  GraphNode* n = node.get();
  nodes_.push_back(std::move(node));
  registry_->nodes_.insert(n);
  for (size_t i = 0; i < count; ++i) addEdge(reinterpret_cast<GraphNode*>(deps[i]), n);
  return n;
}

bool Graph::addEdge(GraphNode* from, GraphNode* to) {
  auto& out = from->dependents;
  if (std::find(out.begin(), out.end(), to) != out.end()) return false;
  out.push_back(to);
  to->dependencies.push_back(from);
  return true;
}

bool Graph::removeEdge(GraphNode* from, GraphNode* to) {
  auto& out = from->dependents;
  auto it = std::find(out.begin(), out.end(), to);
  if (it == out.end()) return false;
  out.erase(it);
  auto& in = to->dependencies;
  in.erase(std::find(in.begin(), in.end(), from));
  return true;
}

void Graph::remove(GraphNode* node) {
  while (!node->dependencies.empty()) removeEdge(node->dependencies.back(), node);
  while (!node->dependents.empty()) removeEdge(node, node->dependents.back());
  registry_->nodes_.erase(node);
  nodes_.erase(std::find_if(nodes_.begin(), nodes_.end(),
                            [&](const auto& p) { return p.get() == node; }));
}

bool Graph::topologicalOrder(std::vector<GraphNode*>& order) const {
  // Kahn's algorithm; the ready set is ordered by creation so that the order is deterministic.
  std::unordered_map<const GraphNode*, size_t> waiting;
  auto byId = [](const GraphNode* a, const GraphNode* b) { return a->id > b->id; };
  std::priority_queue<GraphNode*, std::vector<GraphNode*>, decltype(byId)> ready(byId);
  for (const auto& n : nodes_) {
    waiting[n.get()] = n->dependencies.size();
    if (n->dependencies.empty()) ready.push(n.get());
  }
  order.clear();
  while (!ready.empty()) {
    GraphNode* n = ready.top();
    ready.pop();
    order.push_back(n);
    for (GraphNode* d : n->dependents) {
      if (--waiting[d] == 0) ready.push(d);
    }
  }
  return order.size() == nodes_.size();
}

std::unique_ptr<Graph> Graph::clone() const {
  auto copy = std::make_unique<Graph>(*registry_);
  std::unordered_map<const GraphNode*, GraphNode*> map;
  for (const auto& n : nodes_) {
    GraphNode* c = copy->add(n->type, n->work, nullptr, 0);
    c->id = n->id;
    c->origin = n.get();
    map[n.get()] = c;
  }
  copy->nextId_ = nextId_;
  // Edges in each node's dependency order, so that the copy lists them as the original does.
  for (const auto& n : nodes_) {
    for (const GraphNode* d : n->dependencies) copy->addEdge(map[d], map[n.get()]);
  }
  return copy;
}

bool Graph::hasMemoryNodes() const {
  return std::any_of(nodes_.begin(), nodes_.end(), [](const auto& n) {
    if (n->type == cudaGraphNodeTypeMemAlloc || n->type == cudaGraphNodeTypeMemFree) return true;
    const auto* child = std::get_if<ChildWork>(&n->work);
    return child != nullptr && child->graph && child->graph->hasMemoryNodes();
  });
}

const char* nodeTypeName(cudaGraphNodeType type) {
  switch (type) {
    case cudaGraphNodeTypeKernel: return "KERNEL";
    case cudaGraphNodeTypeMemcpy: return "MEMCPY";
    case cudaGraphNodeTypeMemset: return "MEMSET";
    case cudaGraphNodeTypeHost: return "HOST";
    case cudaGraphNodeTypeGraph: return "GRAPH";
    case cudaGraphNodeTypeEmpty: return "EMPTY";
    case cudaGraphNodeTypeWaitEvent: return "WAIT_EVENT";
    case cudaGraphNodeTypeEventRecord: return "EVENT_RECORD";
    case cudaGraphNodeTypeMemAlloc: return "MEM_ALLOC";
    case cudaGraphNodeTypeMemFree: return "MEM_FREE";
    default: return "UNKNOWN";
  }
}

}  // namespace warpsim::cudart
