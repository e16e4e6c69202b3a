#include "cudart/capture.h"

#include <gtest/gtest.h>

#include <thread>

namespace warpsim::cudart {
namespace {

struct Fixture {
  GraphRegistry registry;
  Captures captures;
  StreamRecord origin, other, nonBlocking;
  CaptureSequence* begin(cudaStreamCaptureMode mode) {
    auto g = std::make_unique<Graph>(registry);
    Graph* raw = g.get();
    return captures.begin(origin, mode, raw, std::move(g), {});
  }
};

TEST(Captures, RecordsWorkInStreamOrder) {
  Fixture f;
  CaptureSequence* s = f.begin(cudaStreamCaptureModeGlobal);
  EXPECT_EQ(f.origin.capture, s);
  GraphNode* a = f.captures.record(f.origin, cudaGraphNodeTypeEmpty, {});
  GraphNode* b = f.captures.record(f.origin, cudaGraphNodeTypeEmpty, {});
  EXPECT_EQ(b->dependencies, std::vector<GraphNode*>{a});
  EXPECT_EQ(f.origin.dependencies, std::vector<GraphNode*>{b});
  EXPECT_EQ(f.origin.edgeData.size(), 1u);
  EXPECT_EQ(f.captures.find(s->id), s);
  std::unique_ptr<CaptureSequence> ended = f.captures.end(s);
  EXPECT_EQ(f.origin.capture, nullptr);
  EXPECT_TRUE(f.origin.dependencies.empty());
  EXPECT_EQ(ended->owned->nodes().size(), 2u);
  EXPECT_FALSE(f.captures.anyActive());
}

TEST(Captures, ForksMustBeJoinedAndJoinsDropRedundantDependencies) {
  Fixture f;
  CaptureSequence* s = f.begin(cudaStreamCaptureModeGlobal);
  GraphNode* root = f.captures.record(f.origin, cudaGraphNodeTypeEmpty, {});
  f.captures.join(*s, f.other, {root});  // fork
  GraphNode* branch = f.captures.record(f.other, cudaGraphNodeTypeEmpty, {});
  EXPECT_FALSE(f.captures.joined(*s));
  f.captures.addDependencies(f.origin, {branch});  // join: root precedes branch
  EXPECT_EQ(f.origin.dependencies, std::vector<GraphNode*>{branch});
  EXPECT_TRUE(f.captures.joined(*s));
  GraphNode* after = f.captures.record(f.origin, cudaGraphNodeTypeEmpty, {});
  EXPECT_EQ(after->dependencies, std::vector<GraphNode*>{branch});
  f.captures.leave(f.other);
  EXPECT_EQ(s->streams, std::vector<StreamRecord*>{&f.origin});
}

TEST(Captures, UnsafeCallsConflictByMode) {
  Fixture f;
  CaptureSequence* s = f.begin(cudaStreamCaptureModeThreadLocal);
  EXPECT_EQ(f.captures.unsafeCallConflicts(), std::vector<CaptureSequence*>{s});
  // Another thread (global mode) ignores a thread-local capture.
  size_t fromOther = 1;
  std::thread([&] { fromOther = f.captures.unsafeCallConflicts().size(); }).join();
  EXPECT_EQ(fromOther, 0u);
  f.captures.end(s);
  s = f.begin(cudaStreamCaptureModeGlobal);
  std::thread([&] { fromOther = f.captures.unsafeCallConflicts().size(); }).join();
  EXPECT_EQ(fromOther, 1u);
  f.captures.threadMode() = cudaStreamCaptureModeRelaxed;
  EXPECT_TRUE(f.captures.unsafeCallConflicts().empty());
  f.captures.end(s);
  f.captures.threadMode() = cudaStreamCaptureModeGlobal;
  s = f.begin(cudaStreamCaptureModeRelaxed);
  EXPECT_TRUE(f.captures.unsafeCallConflicts().empty());
}

TEST(Captures, OnlyBlockingStreamsTieTheLegacyStream) {
  Fixture f;
  f.origin.flags = cudaStreamNonBlocking;
  CaptureSequence* s = f.begin(cudaStreamCaptureModeGlobal);
  EXPECT_TRUE(f.captures.blockingSequences().empty());
  f.captures.join(*s, f.other, {});
  EXPECT_EQ(f.captures.blockingSequences(), std::vector<CaptureSequence*>{s});
}

}  // namespace
}  // namespace warpsim::cudart
