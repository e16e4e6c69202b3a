// Streams and stream capture (cudaStreamBeginCapture ... cudaStreamEndCapture).
//
// A capturing stream records the work issued to it as graph nodes instead of running it. Each
// capturing stream keeps the set of nodes its next work depends on; recording work adds a node
// after that set and makes the node the new set. Streams join a capture sequence by waiting on
// an event recorded in it (cross-stream fork); the sequence's origin stream rejoins them by
// waiting on events they recorded, and cudaStreamEndCapture refuses forks that were not joined.
// Calls the capture rules forbid invalidate the sequences they conflict with; a sequence that is
// invalidated yields no graph. capture_rules.h applies the rules for the API entry points.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>
#include <thread>
#include <unordered_map>
#include <vector>

#include "cudart/graph.h"

namespace warpsim::cudart {

struct CaptureSequence;

// What a cudaStream_t handle points at (the legacy and per-thread default streams are the
// Context's own records).
struct StreamRecord {
  StreamRecord() = default;
  explicit StreamRecord(bool isLegacy) : legacy(isLegacy) {}

  unsigned flags = 0;  // cudaStreamNonBlocking: no implicit ordering with the legacy stream
  int priority = 0;
  bool legacy = false;  // the NULL stream, which can never capture
  CaptureSequence* capture = nullptr;
  // Timing mode, while kernels wait in the concurrent batch (launch_batch.h): the batch
  // launches this stream's next work follows (its last kernel, the kernels of events it waits
  // for).
  std::vector<uint32_t> batchTail;
  std::vector<GraphNode*> dependencies;      // while capturing: what the next work follows
  std::vector<cudaGraphEdgeData> edgeData;   // zeros beside them (cudaStreamGetCaptureInfo)
};

struct CaptureSequence {
  uint64_t id = 0;  // unique in the process (cudaStreamGetCaptureInfo)
  Graph* graph = nullptr;
  std::unique_ptr<Graph> owned;  // null when capturing into the program's own graph
  StreamRecord* origin = nullptr;
  cudaStreamCaptureMode mode = cudaStreamCaptureModeGlobal;
  std::thread::id thread;
  bool invalidated = false;
  std::vector<StreamRecord*> streams;  // every stream in the sequence, the origin first
};

class Captures {
 public:
  // Starts a sequence on `origin` into `graph` (owned when `owned` holds it), after `deps`.
  CaptureSequence* begin(StreamRecord& origin, cudaStreamCaptureMode mode, Graph* graph,
                         std::unique_ptr<Graph> owned, std::vector<GraphNode*> deps);
  // Takes every stream out of the sequence and removes it from the active ones.
  std::unique_ptr<CaptureSequence> end(CaptureSequence* sequence);
  // Brings a stream into a sequence with the given dependencies (a fork).
  void join(CaptureSequence& sequence, StreamRecord& stream, std::vector<GraphNode*> deps);
  // Takes a stream that is being destroyed out of its sequence.
  void leave(StreamRecord& stream);
  // The active sequence with this id, or nullptr (ended or never begun).
  CaptureSequence* find(uint64_t id) const;
  bool anyActive() const { return !active_.empty(); }
  const std::vector<std::unique_ptr<CaptureSequence>>& active() const { return active_; }

  // Records work on a capturing stream: a node after its dependencies, which then become it.
  GraphNode* record(StreamRecord& stream, cudaGraphNodeType type, Work work);
  // Adds `nodes` to a capturing stream's dependencies (a join). A node that comes before another
  // one of the set is dropped: it orders nothing more.
  void addDependencies(StreamRecord& stream, const std::vector<GraphNode*>& nodes);
  // Whether every stream forked from the origin has been joined back: all of their
  // dependencies are the origin's or come before them.
  bool joined(const CaptureSequence& sequence) const;

  // The calling thread's capture interaction mode (cudaThreadExchangeStreamCaptureMode).
  cudaStreamCaptureMode& threadMode() { return modes_[std::this_thread::get_id()]; }
  // The active sequences a potentially unsafe call (a synchronous allocation or copy) from the
  // calling thread conflicts with: none when the thread's mode is relaxed; otherwise its own
  // sequences that are not relaxed and, when its mode is global, other threads' global ones.
  std::vector<CaptureSequence*> unsafeCallConflicts();
  // The sequences with a blocking stream capturing, which the legacy stream would implicitly
  // depend on.
  std::vector<CaptureSequence*> blockingSequences() const;

 private:
  std::vector<std::unique_ptr<CaptureSequence>> active_;
  uint64_t nextId_ = 1;
  std::unordered_map<std::thread::id, cudaStreamCaptureMode> modes_;
};

}  // namespace warpsim::cudart
