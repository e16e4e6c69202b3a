// The validation microbenchmarks of digest s6.3, transaction by transaction, with the exact
// counters the protocol must produce.
#include <gtest/gtest.h>

#include "mech/avc/testing_harness.h"

namespace warpsim::mech::avc {
namespace {

using testing::Harness;
constexpr uint32_t kAll = ~0u, kLow = 0x0000FFFFu, kHigh = 0xFFFF0000u;
constexpr uint64_t k8K = 8192, k16K = 16384, k24K = 24576;

uint32_t uniform(unsigned) { return 0x3F800000u; }  // 1.0f in every lane
uint32_t tid(unsigned lane) { return 64 + lane; }    // stride 1
uint32_t byteAddress(unsigned lane) { return 0x2000 + 4 * lane; }  // stride 4

TEST(AvcMicro, UniformSpillHitsEveryTimeWithoutL1OrMemoryTraffic) {
  Harness h(k16K, 2);
  auto out = h.store(kAll, 0, uniform);
  ASSERT_EQ(out.count, 1u);
  EXPECT_TRUE(h.requests[0].byPath);
  EXPECT_EQ(out.latency, 1u);
  for (int i = 0; i < 3; ++i) {
    out = h.load(kAll, 0, uniform);
    ASSERT_EQ(out.count, 1u);
    EXPECT_TRUE(h.requests[0].byPath);
    EXPECT_EQ(out.latency, 20u);
    EXPECT_EQ(out.extraLatency, 1u);
  }
  const AvcStats& s = h.stats();
  EXPECT_EQ(s.writesAllocate, 1u);
  EXPECT_EQ(s.fullHits, 3u);
  EXPECT_EQ(s.stores[static_cast<unsigned>(ValueClass::Uniform)], 1u);
  EXPECT_EQ(s.loads[static_cast<unsigned>(ValueClass::Uniform)], 3u);
  EXPECT_EQ(s.belowFillsAvc + s.belowFillsL1 + s.belowWritebacksAvc + s.belowWritebacksL1, 0u);
  EXPECT_EQ(s.checkedWords, 96u);
  EXPECT_EQ(s.mismatches, 0u);
}

TEST(AvcMicro, UniformSpillOfManyWordsWritesBackSixteenTimesFewerBlocksThanWords) {
  // 64 uniform words of one warp in a direct-mapped 8 KB AVC: 4 lines of 16 vectors. A second
  // warp's words map to the same sets and evict them: each evicted line writes back 16 blocks
  // of 128 bytes, i.e. the same bytes as the L1 would — but the AVC held the 64 vectors in 4
  // lines (512 bytes of entries), where the L1 needs 64 lines (8 KB).
  Harness h(k8K, 1);
  for (uint64_t w = 0; w < 64; ++w) h.store(kAll, 4 * w, uniform);
  EXPECT_EQ(h.path->array().validWords(), 64u * 32u);
  EXPECT_EQ(h.stats().lineEvictions, 0u);
  EXPECT_EQ(h.stats().writesAllocate, 64u);
}

TEST(AvcMicro, StrideOneAndFourAreAffineStrideThreeIsGeneric) {
  Harness h(k16K, 2);
  h.store(kAll, 0, tid);
  h.store(kAll, 4, byteAddress);
  auto out = h.store(kAll, 8, [](unsigned lane) { return 3 * lane; });
  ASSERT_EQ(out.count, 1u);
  EXPECT_FALSE(h.requests[0].byPath);  // through the L1
  EXPECT_EQ(h.requests[0].sectors, 0xFu);
  EXPECT_EQ(h.requests[0].bytes, 128u);
  const AvcStats& s = h.stats();
  EXPECT_EQ(s.writesAllocate, 2u);
  EXPECT_EQ(s.genericWrites, 1u);
  EXPECT_EQ(s.stores[static_cast<unsigned>(ValueClass::Affine)], 3u);  // stride 3 is affine...
  EXPECT_EQ(s.affineUnrepresentable, 1u);                               // ...but not storable
  EXPECT_EQ(h.path->array().vector(h.block(0))->code, (AffineCode{64, 0}));
  EXPECT_EQ(h.path->array().vector(h.block(4))->code, (AffineCode{0x2000, 2}));
  // Reading them back: two AVC hits and one L1 hit, all values right.
  h.load(kAll, 0, tid);
  h.load(kAll, 4, byteAddress);
  h.load(kAll, 8, [](unsigned lane) { return 3 * lane; });
  EXPECT_EQ(s.fullHits, 2u);
  EXPECT_EQ(s.l1Hits, 1u);
  EXPECT_EQ(s.checkedWords, 96u);
  EXPECT_EQ(s.mismatches, 0u);
}

TEST(AvcMicro, ComplementaryMasksWithTheSameValueMerge) {
  Harness h(k16K, 2);
  h.store(kLow, 0, tid);   // if branch
  h.store(kHigh, 0, tid);  // else branch, the same affine vector
  const AvcStats& s = h.stats();
  EXPECT_EQ(s.writesAllocate, 1u);
  EXPECT_EQ(s.writesMerge, 1u);
  EXPECT_EQ(s.writesConflict, 0u);
  EXPECT_EQ(h.path->array().vector(h.block(0))->valid, kAll);
  h.load(kAll, 0, tid);
  EXPECT_EQ(s.fullHits, 1u);
  EXPECT_TRUE(h.port.writebacks.empty());
  EXPECT_EQ(s.genericWrites + s.l1Hits + s.belowFillsL1, 0u);
}

TEST(AvcMicro, ConflictingBranchesEvictTheOlderPartialVector) {
  Harness h(k16K, 2);
  auto second = [](unsigned lane) { return 1000 + 2 * lane; };
  h.store(kLow, 0, tid);
  h.store(kHigh, 0, second);
  const AvcStats& s = h.stats();
  EXPECT_EQ(s.writesConflict, 1u);
  EXPECT_EQ(s.conflictWritebacks, 1u);
  ASSERT_EQ(h.port.writebacks.size(), 1u);
  EXPECT_EQ(h.port.writebacks[0].line, h.block(0));
  EXPECT_EQ(h.port.writebacks[0].sectors, 0x3u);  // lanes 0-15: the first two 32-byte sectors
  EXPECT_EQ(h.path->array().vector(h.block(0))->valid, kHigh);
  // The merged read: lanes 16-31 hit, lanes 0-15 replay and come back from memory as an affine
  // fill, which conflicts with the vector now there (case 2) and writes it back in turn.
  auto merged = [&](unsigned lane) { return lane < 16 ? tid(lane) : second(lane); };
  auto out = h.load(kAll, 0, merged);
  ASSERT_EQ(out.count, 2u);
  EXPECT_TRUE(h.requests[0].byPath);
  EXPECT_TRUE(h.requests[1].aroundL1);
  EXPECT_EQ(h.requests[1].sectors, 0x3u);
  EXPECT_EQ(s.partialHits, 1u);
  EXPECT_EQ(s.replays, 1u);
  EXPECT_EQ(s.affineFills, 1u);
  EXPECT_EQ(s.fillConflicts, 1u);
  EXPECT_EQ(s.conflictWritebacks, 2u);
  EXPECT_EQ(h.port.writebacks.size(), 2u);
  EXPECT_EQ(s.checkedWords, 32u);
  EXPECT_EQ(s.mismatches, 0u);
}

TEST(AvcMicro, GenericOverwriteInvalidatesTheAvcWords) {
  Harness h(k16K, 2);
  auto noise = [](unsigned lane) { return 0x9E3779B9u * (lane + 1); };
  h.store(kAll, 0, tid);
  h.store(kAll, 0, noise);
  const AvcStats& s = h.stats();
  EXPECT_EQ(s.genericWrites, 1u);
  EXPECT_EQ(s.genericInvalidations, 1u);
  EXPECT_EQ(h.path->array().vector(h.block(0))->valid, 0u);
  // The load returns the new values from the L1, not the stale affine ones.
  auto out = h.load(kAll, 0, noise);
  ASSERT_EQ(out.count, 1u);
  EXPECT_FALSE(h.requests[0].byPath);
  EXPECT_EQ(s.l1Hits, 1u);
  EXPECT_EQ(s.mismatches, 0u);
}

TEST(AvcMicro, AKernelBoundaryDropsTheDataAndRestartsTheCounters) {
  Harness h(k16K, 2);
  h.store(kAll, 0, tid);
  h.load(kAll, 0, tid);
  EXPECT_EQ(h.stats().fullHits, 1u);
  h.path->beginKernel();
  EXPECT_EQ(h.stats().fullHits, 0u);
  EXPECT_EQ(h.stats().writesAllocate, 0u);
  EXPECT_EQ(h.path->array().validWords(), 0u);
  h.load(kAll, 0, tid);  // the next kernel's first load of the word misses
  EXPECT_EQ(h.stats().misses, 1u);
  EXPECT_TRUE(h.port.writebacks.empty());  // dead local data is dropped without traffic
}

TEST(AvcMicro, TheCheckCatchesAStaleValue) {
  Harness h(k16K, 2);
  h.store(kAll, 0, tid);
  // The functional value differs from what the AVC holds (as if a write had been lost).
  h.load(kAll, 0, [](unsigned lane) { return lane == 7 ? 0u : tid(lane); });
  EXPECT_EQ(h.stats().checkedWords, 32u);
  EXPECT_EQ(h.stats().mismatches, 1u);
}

TEST(AvcMicro, SupersetMaskIsAPartialHitAndAReplay) {
  // Lanes 16-31 of the vector were written back earlier by the L1 (same affine values): the
  // replay's fill carries the same (b, s), so the vector's valid mask just grows.
  Harness h(k16K, 2);
  h.store(kLow, 0, tid);
  auto out = h.load(kAll, 0, tid);
  ASSERT_EQ(out.count, 2u);
  EXPECT_TRUE(h.requests[0].byPath);
  EXPECT_TRUE(h.requests[1].aroundL1);
  EXPECT_EQ(h.requests[1].sectors, 0xCu);  // lanes 16-31
  const AvcStats& s = h.stats();
  EXPECT_EQ(s.partialHits, 1u);
  EXPECT_EQ(s.replays, 1u);
  EXPECT_EQ(s.affineFills, 1u);
  EXPECT_EQ(s.fillMerges, 1u);
  EXPECT_EQ(h.path->array().vector(h.block(0))->valid, kAll);
  EXPECT_EQ(h.path->array().vector(h.block(0))->dirty, kLow);
  h.load(kAll, 0, tid);
  EXPECT_EQ(s.fullHits, 1u);
}

TEST(AvcMicro, SupersetMaskWithGenericRestFillsTheL1) {
  Harness h(k16K, 2);
  auto rest = [](unsigned lane) { return lane < 16 ? tid(lane) : 0x9E3779B9u * lane; };
  h.store(kLow, 0, tid);
  auto out = h.load(kAll, 0, rest);
  ASSERT_EQ(out.count, 2u);
  EXPECT_FALSE(h.requests[1].byPath);
  EXPECT_FALSE(h.requests[1].aroundL1);
  const AvcStats& s = h.stats();
  EXPECT_EQ(s.partialHits, 1u);
  EXPECT_EQ(s.genericFills, 1u);
  EXPECT_EQ(s.belowFillsL1, 1u);
  EXPECT_EQ(s.belowFillWords, 16u);
  // Now both halves are cached: AVC for 0-15, L1 for 16-31 — a partial hit and an L1 replay.
  h.load(kAll, 0, rest);
  EXPECT_EQ(s.partialHits, 2u);
  EXPECT_EQ(s.l1Hits, 1u);
  EXPECT_EQ(s.mismatches, 0u);
}

TEST(AvcMicro, ConflictStressAmplifiesOnADirectMappedAvcNotOnThreeWays) {
  // Three warps each spill 16 affine words (one full AVC line each); warp-major layout maps the
  // three lines to the same set. Then each warp reloads its words.
  auto run = [](uint64_t bytes, uint32_t ways) {
    Harness h(bytes, ways);
    for (uint32_t warp = 0; warp < 3; ++warp) {
      for (uint64_t w = 0; w < 16; ++w) h.store(kAll, 4 * w, tid, warp);
    }
    for (uint32_t warp = 0; warp < 3; ++warp) {
      for (uint64_t w = 0; w < 16; ++w) h.load(kAll, 4 * w, tid, warp);
    }
    EXPECT_EQ(h.stats().mismatches, 0u);
    return h.stats();
  };
  const AvcStats dm = run(k8K, 1), threeWay = run(k24K, 3);
  EXPECT_EQ(threeWay.lineEvictions, 0u);
  EXPECT_EQ(threeWay.fullHits, 48u);
  EXPECT_EQ(threeWay.belowWritebacksAvc + threeWay.belowFillsAvc, 0u);
  // Direct-mapped: every new warp's line evicts the previous one. Stores: 2 evictions of 16
  // dirty vectors. Loads: warp 0's first word evicts warp 2's dirty line (16 write-backs), each
  // warp's 16 words come back as affine fills, and warps 1 and 2 evict clean lines (dropped).
  EXPECT_EQ(dm.lineEvictions, 5u);
  EXPECT_EQ(dm.evictedVectors, 80u);
  EXPECT_EQ(dm.belowWritebacksAvc, 48u);
  EXPECT_EQ(dm.belowFillsAvc, 48u);
  EXPECT_EQ(dm.fullHits, 0u);
}

}  // namespace
}  // namespace warpsim::mech::avc
