// L1D behaviour through the SM's memory pipeline: hits, misses, MSHR merges, eviction order,
// write policies per space.
#include <gtest/gtest.h>

#include "timing/mem/testing/harness.h"

namespace warpsim::timing::mem {
namespace {

using testing::Harness;
using testing::kA;
using testing::record;
using testing::tinyParams;

constexpr uint64_t kL1Hit = 5;

nlohmann::json stats(Harness& h) {
  nlohmann::json s;
  h.system().reportStats(s);
  return s;
}

// An L1 of one set with two ways.
MemoryParams twoWayL1() {
  MemoryParams p = tinyParams();
  p.l1.cache.sizeBytes = 256;
  p.l1.cache.assoc = 2;
  return p;
}

func::ExecRecord load(uint64_t line) { return record(ir::Op::Ld, ir::Space::Global, line, 4); }

TEST(L1DataCache, SecondMissToALineMergesIntoItsMshr) {
  Harness h(tinyParams());
  h.issue(load(kA), 1);
  h.issue(load(kA), 2);
  EXPECT_EQ(h.runUntil(1), 74u);
  EXPECT_EQ(h.runUntil(2), 74u);  // woken by the same fill
  const nlohmann::json s = stats(h);
  EXPECT_EQ(s["l1d"]["accesses"], 2);
  EXPECT_EQ(s["l1d"]["misses"], 1);
  EXPECT_EQ(s["l1d"]["sector_misses"], 1);
  EXPECT_EQ(s["l1d"]["mshr_merges"], 1);
  EXPECT_EQ(s["l2"]["accesses"], 1);
}

TEST(L1DataCache, MergeSlotsAndMshrsLimitOutstandingMisses) {
  MemoryParams p = tinyParams();
  p.l1.mshrs = 1;
  p.l1.mshrMerge = 2;
  Harness h(p);
  h.issue(load(kA), 1);
  h.issue(load(kA), 2);
  h.issue(load(kA), 3);         // no merge slot left: waits for the fill, then hits
  h.issue(load(kA + 4096), 4);  // behind it in order
  EXPECT_EQ(h.runUntil(3), 74u + kL1Hit);
  const Cycle t4 = h.runUntil(4);
  EXPECT_GT(t4, 74u);
  const nlohmann::json s = stats(h);
  EXPECT_GT(s["l1d"]["mshr_full_stalls"].get<uint64_t>(), 0u);
  EXPECT_EQ(s["l1d"]["hits"], 1);
}

TEST(L1DataCache, EvictsTheLeastRecentlyUsedLine) {
  Harness h(twoWayL1());
  const uint64_t x = kA, y = kA + 128, z = kA + 256;
  h.latencyOf(load(x), 1);
  h.latencyOf(load(y), 2);
  EXPECT_EQ(h.latencyOf(load(x), 3), kL1Hit);  // x is now more recent than y
  EXPECT_GT(h.latencyOf(load(z), 4), kL1Hit);  // evicts y
  EXPECT_EQ(h.latencyOf(load(x), 5), kL1Hit);
  EXPECT_EQ(h.latencyOf(load(z), 6), kL1Hit);
  EXPECT_GT(h.latencyOf(load(y), 7), kL1Hit);  // evicts x (z was used last)
  EXPECT_GT(h.latencyOf(load(x), 8), kL1Hit);
  const nlohmann::json s = stats(h);
  EXPECT_EQ(s["l1d"]["evictions"], 3);
  EXPECT_EQ(s["l1d"]["hits"], 3);
  EXPECT_EQ(s["l1d"]["misses"], 5);
  EXPECT_EQ(s["l1d"]["writebacks"], 0);
}

TEST(L1DataCache, FifoEvictsTheOldestLineDespiteHits) {
  MemoryParams p = twoWayL1();
  p.l1.cache.replacement = Replacement::Fifo;
  Harness h(p);
  const uint64_t x = kA, y = kA + 128, z = kA + 256;
  h.latencyOf(load(x), 1);
  h.latencyOf(load(y), 2);
  EXPECT_EQ(h.latencyOf(load(x), 3), kL1Hit);
  h.latencyOf(load(z), 4);  // evicts x, the first installed
  EXPECT_EQ(h.latencyOf(load(y), 5), kL1Hit);
  EXPECT_GT(h.latencyOf(load(x), 6), kL1Hit);
}

TEST(L1DataCache, GlobalStoresWriteThroughWithoutAllocating) {
  Harness h(tinyParams());
  EXPECT_EQ(h.latencyOf(record(ir::Op::St, ir::Space::Global, kA, 4), 1), 1u);
  h.drain();
  EXPECT_GT(h.latencyOf(load(kA), 2), kL1Hit);  // not allocated
  EXPECT_EQ(h.latencyOf(record(ir::Op::St, ir::Space::Global, kA, 4), 3), 1u);
  EXPECT_EQ(h.latencyOf(load(kA), 4), kL1Hit);  // a hit updates the line and keeps it
  h.drain();
  const nlohmann::json s = stats(h);
  EXPECT_EQ(s["l1d"]["writes"], 2);
  EXPECT_EQ(s["l2"]["writes"], 2);
  EXPECT_EQ(s["l1d"]["writebacks"], 0);
}

TEST(L1DataCache, WriteThroughAllocateInstallsWrittenSectors) {
  MemoryParams p = tinyParams();
  p.l1.globalWrite = WritePolicy::WriteThroughAllocate;
  Harness h(p);
  h.latencyOf(record(ir::Op::St, ir::Space::Global, kA, 4, 4, 0x000000FFu), 1);  // sector 0
  EXPECT_EQ(h.latencyOf(load(kA), 2) > kL1Hit, true);  // sectors 1..3 missing
  EXPECT_EQ(h.latencyOf(record(ir::Op::Ld, ir::Space::Global, kA, 4, 4, 0xFFu), 3), kL1Hit);
  h.drain();
  EXPECT_EQ(stats(h)["l2"]["writes"], 1);
}

TEST(L1DataCache, LocalStoresWriteBackAndAllocate) {
  Harness h(twoWayL1());
  // Lane l's word 0 of its local memory: one 128-byte block per word of the warp.
  EXPECT_EQ(h.latencyOf(record(ir::Op::St, ir::Space::Local, 0, 0), 1), 1u);
  EXPECT_EQ(h.latencyOf(record(ir::Op::Ld, ir::Space::Local, 0, 0), 2), kL1Hit);
  h.drain();
  nlohmann::json s = stats(h);
  EXPECT_EQ(s["l2"]["accesses"], 0);
  // Two more blocks (words 1 and 2) push the dirty block out: one write-back.
  h.latencyOf(record(ir::Op::St, ir::Space::Local, 4, 0), 3);
  h.latencyOf(record(ir::Op::St, ir::Space::Local, 8, 0), 4);
  h.drain();
  s = stats(h);
  EXPECT_EQ(s["l1d"]["evictions"], 1);
  EXPECT_EQ(s["l1d"]["writebacks"], 1);
  EXPECT_EQ(s["l2"]["writes"], 1);
  EXPECT_EQ(s["l2"]["accesses"], 1);
}

TEST(L1DataCache, EightByteLocalAccessesTouchTwoBlocks) {
  Harness h(tinyParams());
  h.latencyOf(record(ir::Op::St, ir::Space::Local, 0, 0, 8), 1);
  EXPECT_EQ(stats(h)["l1d"]["writes"], 2);
}

TEST(L1DataCache, VolatileAndUncachedLoadsBypassTheTags) {
  MemoryParams p = tinyParams();
  p.l1.cacheGlobalLoads = false;
  Harness h(p);
  EXPECT_EQ(h.latencyOf(load(kA), 1), 74u);
  EXPECT_EQ(h.latencyOf(load(kA), 2), 46u);  // L2 hit again: nothing kept in L1
  EXPECT_EQ(stats(h)["l1d"]["accesses"], 0);
}

TEST(L1DataCache, NoL1SendsEverythingToL2) {
  MemoryParams p = tinyParams();
  p.l1.cache.sizeBytes = 0;
  Harness h(p);
  EXPECT_EQ(h.latencyOf(load(kA), 1), 74u);
  EXPECT_EQ(h.latencyOf(load(kA), 2), 46u);
  EXPECT_EQ(h.latencyOf(record(ir::Op::St, ir::Space::Local, 0, 0), 3), 1u);
  h.drain();
  EXPECT_EQ(stats(h)["l2"]["writes"], 1);
}

TEST(L1DataCache, FootprintCountsDistinctLinesPerKernel) {
  MemoryParams p = twoWayL1();
  p.l1.countFootprint = true;
  Harness h(p);
  // A warp loading 32 words 64 bytes apart touches 16 lines; again, and two stores, one new.
  h.latencyOf(record(ir::Op::Ld, ir::Space::Global, kA, 64), 1);
  h.latencyOf(record(ir::Op::Ld, ir::Space::Global, kA, 64), 2);
  h.latencyOf(record(ir::Op::St, ir::Space::Global, kA, 0), 3);
  h.latencyOf(record(ir::Op::St, ir::Space::Global, kA + 4096, 0), 4);
  h.drain();
  EXPECT_EQ(stats(h)["l1d_footprint"]["lines"], 17);
  EXPECT_EQ(stats(h)["l1d_footprint"]["sms"], 1);
  h.system().beginKernel();
  EXPECT_EQ(stats(h)["l1d_footprint"]["lines"], 0);
  EXPECT_EQ(stats(h)["l1d_footprint"]["sms"], 0);
  Harness off(twoWayL1());
  EXPECT_FALSE(stats(off).contains("l1d_footprint"));
}

TEST(L1DataCache, KernelBoundaryInvalidatesL1AndRestartsCounters) {
  Harness h(tinyParams());
  h.latencyOf(load(kA), 1);
  EXPECT_EQ(h.latencyOf(load(kA), 2), kL1Hit);
  h.system().beginKernel();
  EXPECT_EQ(stats(h)["l1d"]["accesses"], 0);
  EXPECT_EQ(h.latencyOf(load(kA), 3), 46u);
}

TEST(L1DataCache, PerKernelCapacityChangesTheSetsAndEmptiesTheCache) {
  // One set of two ways: x, y, z all map to it; with two sets z has a set of its own.
  Harness h(twoWayL1());
  const uint64_t x = kA, y = kA + 128, z = kA + 256;
  h.latencyOf(load(x), 1);
  h.latencyOf(load(y), 2);
  h.unit().setL1Bytes(512);  // two sets of two ways
  EXPECT_EQ(h.unit().l1Capacity(), 512u);
  EXPECT_GT(h.latencyOf(load(x), 3), kL1Hit);  // emptied
  h.latencyOf(load(y), 4);
  h.latencyOf(load(z), 5);                     // set 0 holds x and z, set 1 holds y
  EXPECT_EQ(h.latencyOf(load(x), 6), kL1Hit);
  EXPECT_EQ(h.latencyOf(load(y), 7), kL1Hit);
  EXPECT_EQ(h.latencyOf(load(z), 8), kL1Hit);
  EXPECT_EQ(stats(h)["l1d"]["evictions"], 0);
  h.unit().setL1Bytes(300);  // rounded down to whole sets: one set
  EXPECT_EQ(h.unit().l1Capacity(), 256u);
  h.unit().setL1Bytes(std::nullopt);  // the configuration's size (the same: the lines stay)
  EXPECT_EQ(h.unit().l1Capacity(), 256u);
  h.unit().setL1Bytes(0);    // no L1: everything goes to the L2
  EXPECT_EQ(h.unit().l1Capacity(), 0u);
  const uint64_t w = kA + 4096;  // not loaded before: DRAM, then the L2, never the L1
  EXPECT_EQ(h.latencyOf(load(w), 9), 74u);
  EXPECT_EQ(h.latencyOf(load(w), 10), 46u);
  EXPECT_EQ(h.latencyOf(load(x), 11), 46u);
}

TEST(L1DataCache, PerKernelCapacityChangesTheWaysWhenTheSetsStay) {
  // l1.resize = "ways": one set of two ways grows to one set of four; x, y, z and w all stay.
  MemoryParams p = twoWayL1();
  p.l1.resizeWays = true;
  Harness h(p);
  const uint64_t x = kA, y = kA + 128, z = kA + 256, w = kA + 384;
  h.unit().setL1Bytes(512);
  EXPECT_EQ(h.unit().l1Capacity(), 512u);
  EXPECT_EQ(h.unit().l1().tags().sets(), 1u);
  EXPECT_EQ(h.unit().l1().tags().ways(), 4u);
  uint32_t slot = 1;
  for (uint64_t line : {x, y, z, w}) h.latencyOf(load(line), slot++);
  for (uint64_t line : {x, y, z, w}) EXPECT_EQ(h.latencyOf(load(line), slot++), kL1Hit);
  EXPECT_EQ(stats(h)["l1d"]["evictions"], 0);
  h.unit().setL1Bytes(400);  // rounded down to whole ways of the one set: three
  EXPECT_EQ(h.unit().l1Capacity(), 384u);
  EXPECT_EQ(h.unit().l1().tags().ways(), 3u);
  h.unit().setL1Bytes(std::nullopt);  // the configuration's two ways
  EXPECT_EQ(h.unit().l1Capacity(), 256u);
  EXPECT_EQ(h.unit().l1().tags().ways(), 2u);
}

TEST(L1DataCache, CapacityChangeWaitsForFillsOnTheirWay) {
  Harness h(twoWayL1());
  h.issue(load(kA), 1);
  h.step();
  h.unit().setL1Bytes(512);
  EXPECT_EQ(h.unit().l1Capacity(), 256u);  // a fill is on its way
  EXPECT_EQ(h.runUntil(1), 74u);
  EXPECT_EQ(h.unit().l1Capacity(), 512u);  // applied with the last fill, the cache empty
  EXPECT_GT(h.latencyOf(load(kA), 2), kL1Hit);
}

}  // namespace
}  // namespace warpsim::timing::mem
