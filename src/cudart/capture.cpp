#include "cudart/capture.h"

#include <algorithm>
#include <unordered_set>

namespace warpsim::cudart {

namespace {

void setDependencies(StreamRecord& s, std::vector<GraphNode*> deps) {
  s.dependencies = std::move(deps);
  s.edgeData.assign(s.dependencies.size(), cudaGraphEdgeData{});
}

}  // namespace

CaptureSequence* Captures::begin(StreamRecord& origin, cudaStreamCaptureMode mode, Graph* graph,
                                 std::unique_ptr<Graph> owned, std::vector<GraphNode*> deps) {
  auto seq = std::make_unique<CaptureSequence>();
  seq->id = nextId_++;
  seq->graph = graph;
  seq->owned = std::move(owned);
  seq->origin = &origin;
  seq->mode = mode;
  seq->thread = std::this_thread::get_id();
  seq->streams.push_back(&origin);
  origin.capture = seq.get();
  setDependencies(origin, std::move(deps));
  active_.push_back(std::move(seq));
  return active_.back().get();
}

std::unique_ptr<CaptureSequence> Captures::end(CaptureSequence* sequence) {
  auto it = std::find_if(active_.begin(), active_.end(),
                         [&](const auto& p) { return p.get() == sequence; });
  std::unique_ptr<CaptureSequence> seq = std::move(*it);
  active_.erase(it);
  for (StreamRecord* s : seq->streams) {
    s->capture = nullptr;
    setDependencies(*s, {});
  }
  return seq;
}

void Captures::join(CaptureSequence& sequence, StreamRecord& stream, std::vector<GraphNode*> deps) {
  stream.capture = &sequence;
  setDependencies(stream, std::move(deps));
  sequence.streams.push_back(&stream);
}

void Captures::leave(StreamRecord& stream) {
  if (stream.capture == nullptr) return;
  auto& list = stream.capture->streams;
  list.erase(std::find(list.begin(), list.end(), &stream));
  stream.capture = nullptr;
  setDependencies(stream, {});
}

CaptureSequence* Captures::find(uint64_t id) const {
  for (const auto& s : active_) {
    if (s->id == id) return s.get();
  }
  return nullptr;
}

GraphNode* Captures::record(StreamRecord& stream, cudaGraphNodeType type, Work work) {
  Graph& g = *stream.capture->graph;
  std::vector<cudaGraphNode_t> deps;
  deps.reserve(stream.dependencies.size());
  for (GraphNode* d : stream.dependencies) deps.push_back(reinterpret_cast<cudaGraphNode_t>(d));
  GraphNode* node = g.add(type, std::move(work), deps.data(), deps.size());
  setDependencies(stream, {node});
  return node;
}

namespace {

// Whether `a` comes before `b` (a path of edges leads from a to b).
bool precedes(const GraphNode* a, const GraphNode* b) {
  std::unordered_set<const GraphNode*> seen;
  std::vector<const GraphNode*> todo(b->dependencies.begin(), b->dependencies.end());
  while (!todo.empty()) {
    const GraphNode* n = todo.back();
    todo.pop_back();
    if (n == a) return true;
    if (!seen.insert(n).second) continue;
    todo.insert(todo.end(), n->dependencies.begin(), n->dependencies.end());
  }
  return false;
}

}  // namespace

void Captures::addDependencies(StreamRecord& stream, const std::vector<GraphNode*>& nodes) {
  std::vector<GraphNode*> all = stream.dependencies;
  for (GraphNode* n : nodes) {
    if (std::find(all.begin(), all.end(), n) == all.end()) all.push_back(n);
  }
  std::vector<GraphNode*> kept;
  for (GraphNode* n : all) {
    bool redundant = std::any_of(all.begin(), all.end(),
                                 [&](const GraphNode* m) { return m != n && precedes(n, m); });
    if (!redundant) kept.push_back(n);
  }
  setDependencies(stream, std::move(kept));
}

bool Captures::joined(const CaptureSequence& sequence) const {
  // Everything the origin's next work would follow: its dependencies and their ancestors.
  std::unordered_set<const GraphNode*> reached;
  std::vector<const GraphNode*> todo(sequence.origin->dependencies.begin(),
                                     sequence.origin->dependencies.end());
  while (!todo.empty()) {
    const GraphNode* n = todo.back();
    todo.pop_back();
    if (!reached.insert(n).second) continue;
    todo.insert(todo.end(), n->dependencies.begin(), n->dependencies.end());
  }
  for (const StreamRecord* s : sequence.streams) {
    for (const GraphNode* d : s->dependencies) {
      if (reached.count(d) == 0) return false;
    }
  }
  return true;
}

std::vector<CaptureSequence*> Captures::unsafeCallConflicts() {
  const std::thread::id self = std::this_thread::get_id();
  const cudaStreamCaptureMode mine = threadMode();
  std::vector<CaptureSequence*> out;
  if (mine == cudaStreamCaptureModeRelaxed) return out;
  for (const auto& s : active_) {
    if (s->mode == cudaStreamCaptureModeRelaxed) continue;
    bool own = s->thread == self;
    bool global = s->mode == cudaStreamCaptureModeGlobal && mine == cudaStreamCaptureModeGlobal;
    if (own || global) out.push_back(s.get());
  }
  return out;
}

std::vector<CaptureSequence*> Captures::blockingSequences() const {
  std::vector<CaptureSequence*> out;
  for (const auto& s : active_) {
    bool blocking = std::any_of(s->streams.begin(), s->streams.end(), [](const StreamRecord* r) {
      return (r->flags & cudaStreamNonBlocking) == 0;
    });
    if (blocking) out.push_back(s.get());
  }
  return out;
}

}  // namespace warpsim::cudart
