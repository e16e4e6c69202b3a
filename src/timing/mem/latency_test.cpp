// End-to-end latencies through the whole hierarchy, exact to the cycle.
//
// testing::tinyParams(): every clock 1000 MHz (one cycle = 1 ns in every domain), l1.hit_latency
// 5, icnt.latency 10 (flits of 32 B, 1 per cycle, 8-byte headers), l2.hit_latency 20,
// l2.atomic_latency 7, DRAM tRCD 12, tCL 12, 1 bus cycle per 32-byte burst, no DRAM return
// latency, const.hit_latency 2, shared.latency 3. An instruction issued at core cycle 0 goes
// through:
//   0            the L1 port: miss, the Read (1 flit) enters the SM's input port
//   1            the next interconnect cycle grants it; it arrives at 1 + 10 = 11
//   11           the L2 slice takes it; its tag lookup is at 11 + 20 = 31
//   31           L2 hit: the reply (8 + 128 B = 5 flits) is ready
//                L2 miss: DRAM ACT at 31, RD at 31 + tRCD = 43, last of 4 bursts at
//                43 + tCL + 4 = 59, the reply is ready at 59
//   ready + 1    the interconnect grants the reply; its last flit leaves 4 cycles later and
//                arrives 10 cycles after that: ready + 15, when the SM takes it.
// So: L1 hit 5; L1 miss, L2 hit 31 + 15 = 46; L1 miss, L2 miss (closed bank) 59 + 15 = 74.
#include <gtest/gtest.h>

#include "timing/mem/testing/harness.h"

namespace warpsim::timing::mem {
namespace {

using testing::Harness;
using testing::kA;
using testing::record;
using testing::tinyParams;

TEST(Latency, L1MissToDramThenL1HitThenL2Hit) {
  Harness h(tinyParams());
  const auto load = record(ir::Op::Ld, ir::Space::Global, kA, 4);
  EXPECT_EQ(h.latencyOf(load, 1), 74u);
  EXPECT_EQ(h.latencyOf(load, 2), 5u);
  h.system().beginKernel();  // L1s are invalidated, the L2 keeps the line
  EXPECT_EQ(h.latencyOf(load, 3), 46u);
  nlohmann::json s;
  h.system().reportStats(s);
  EXPECT_EQ(s["l2"]["accesses"], 1);
  EXPECT_EQ(s["l2"]["hits"], 1);
  EXPECT_EQ(s["l2"]["reads"], 1);
  EXPECT_EQ(s["l2"]["atomics"], 0);
}

TEST(Latency, DramReturnLatencyAddsToEveryMiss) {
  MemoryParams p = tinyParams();
  p.dram.returnLatency = 30;
  Harness h(p);
  EXPECT_EQ(h.latencyOf(record(ir::Op::Ld, ir::Space::Global, kA, 4), 1), 74u + 30);
}

TEST(Latency, SectorMissFetchesOnlyMissingSectorsAndRowHitIsShorter) {
  Harness h(tinyParams());
  // Lanes 0..15: sectors 0 and 1. DRAM: ACT 31, RD 43, 2 bursts end at 57; reply of
  // 8 + 64 B = 3 flits: granted 58, arrives 58 + 2 + 10 = 70.
  EXPECT_EQ(h.latencyOf(record(ir::Op::Ld, ir::Space::Global, kA, 4, 4, 0x0000FFFFu), 1), 70u);
  // The whole line: sectors 2 and 3 are missing in L1 and L2; the DRAM row is open (RD at 31,
  // data ends at 31 + 12 + 2 = 45); reply 3 flits: 45 + 1 + 2 + 10 = 58.
  EXPECT_EQ(h.latencyOf(record(ir::Op::Ld, ir::Space::Global, kA, 4), 2), 58u);
  nlohmann::json s;
  h.system().reportStats(s);
  EXPECT_EQ(s["l1d"]["misses"], 1);
  EXPECT_EQ(s["l1d"]["sector_misses"], 1);
  EXPECT_EQ(s["l2"]["sector_misses"], 1);
  EXPECT_EQ(s["dram"]["read_bursts"], 4);
  EXPECT_EQ(s["dram"]["row_hits"], 1);
  EXPECT_EQ(s["dram"]["row_misses"], 1);
  // Read latencies at the L2, request to data: 31 -> 57 (ACT, RD, bursts) and 31 -> 45 (RD on
  // the open row, bursts).
  EXPECT_EQ(s["dram"]["reads_returned"], 2);
  EXPECT_EQ(s["dram"]["read_latency_l2_cycles"], (57 - 31) + (45 - 31));
}

TEST(Latency, WholeLineFillsFetchEverySectorOnAMiss) {
  MemoryParams p = tinyParams();
  p.l1.fillLines = true;
  p.l2.fillLines = true;
  Harness h(p);
  // Lanes 0..15 need sectors 0 and 1, but both caches fetch the whole line: 4 bursts and a
  // 5-flit reply, the 74 cycles of a whole-line miss (L1MissToDramThenL1HitThenL2Hit).
  EXPECT_EQ(h.latencyOf(record(ir::Op::Ld, ir::Space::Global, kA, 4, 4, 0x0000FFFFu), 1), 74u);
  // Sectors 2 and 3 are in the L1 already.
  EXPECT_EQ(h.latencyOf(record(ir::Op::Ld, ir::Space::Global, kA, 4), 2), 5u);
  nlohmann::json s;
  h.system().reportStats(s);
  EXPECT_EQ(s["l1d"]["misses"], 1);
  EXPECT_EQ(s["l1d"]["sector_misses"], 0);
  EXPECT_EQ(s["dram"]["read_bursts"], 4);
}

TEST(Latency, GlobalStoreCompletesWhenItLeavesAndFenceWaitsForTheAck) {
  Harness h(tinyParams());
  h.issue(record(ir::Op::St, ir::Space::Global, kA, 4), 1);
  func::ExecRecord fence = record(ir::Op::Membar, ir::Space::None, 0, 0);
  h.issue(fence, 2);
  // Store at the port at 0: done at 1. Write: 8 + 128 B = 5 flits, granted 1, arrives 15; L2
  // lookup 35, ack (1 flit) ready 35, granted 36, arrives 46: the fence completes at 46.
  EXPECT_EQ(h.runUntil(1), 1u);
  EXPECT_EQ(h.runUntil(2), 46u);
}

TEST(Latency, WrittenSectorsHitInTheL2) {
  Harness h(tinyParams());
  EXPECT_EQ(h.latencyOf(record(ir::Op::St, ir::Space::Global, kA, 4), 1), 1u);
  h.drain();
  // Write-through without allocation: the L1 misses; the L2 allocated the written sectors.
  EXPECT_EQ(h.latencyOf(record(ir::Op::Ld, ir::Space::Global, kA, 4), 2), 46u);
}

TEST(Latency, AtomicsArePerformedAtTheL2) {
  Harness h(tinyParams());
  h.latencyOf(record(ir::Op::Ld, ir::Space::Global, kA, 4), 1);  // line into L2
  // 32 distinct words: request 8 + 128 B (5 flits) arrives 15, lookup 35, atomic unit
  // 35..35, result at 35 + 7 = 42, reply 5 flits: 42 + 15 = 57.
  EXPECT_EQ(h.latencyOf(record(ir::Op::Atom, ir::Space::Global, kA, 4), 2), 57u);
  // 32 lanes on one word: 32 passes of the atomic unit, result at 35 + 7 + 31 = 73: 88.
  EXPECT_EQ(h.latencyOf(record(ir::Op::Atom, ir::Space::Global, kA, 0), 3), 88u);
  nlohmann::json s;
  h.system().reportStats(s);
  EXPECT_EQ(s["l2"]["atomics"], 2);
  EXPECT_EQ(s["l1d"]["atomics"], 2);
  EXPECT_EQ(s["l1d"]["accesses"], 1);
}

TEST(Latency, ReductionCompletesWhenSent) {
  Harness h(tinyParams());
  EXPECT_EQ(h.latencyOf(record(ir::Op::Red, ir::Space::Global, kA, 4), 1), 1u);
  h.drain();
  EXPECT_TRUE(h.system().idle());
}

TEST(Latency, SharedMemoryConflictsAddPasses) {
  Harness h(tinyParams());
  // Completion of a load: start + cycles - 1 + shared.latency (3).
  EXPECT_EQ(h.latencyOf(record(ir::Op::Ld, ir::Space::Shared, 0, 4), 1), 3u);
  EXPECT_EQ(h.latencyOf(record(ir::Op::Ld, ir::Space::Shared, 0, 8), 2), 4u);
  EXPECT_EQ(h.latencyOf(record(ir::Op::Ld, ir::Space::Shared, 0, 128), 3), 34u);
  EXPECT_EQ(h.latencyOf(record(ir::Op::St, ir::Space::Shared, 0, 128), 4), 32u);
  // A 32-way access holds the port: an L1 access behind it starts 32 cycles later.
  h.issue(record(ir::Op::Ld, ir::Space::Shared, 0, 128), 5);
  h.issue(record(ir::Op::Ld, ir::Space::Shared, 0, 4), 6);
  const Cycle start = h.now();
  EXPECT_EQ(h.runUntil(6) - start, 32u + 3);
  nlohmann::json s;
  h.system().reportStats(s);
  EXPECT_EQ(s["shared"]["accesses"], 6);
  EXPECT_EQ(s["shared"]["bank_conflict_replays"], 1 + 31 + 31 + 31);
}

TEST(Latency, ConstantCacheBroadcastsAndSerialisesDistinctAddresses) {
  Harness h(tinyParams());
  // Miss: the 64-byte line (2 sectors) from DRAM: RD 43, data ends 57; reply 3 flits: 70.
  EXPECT_EQ(h.latencyOf(record(ir::Op::Ld, ir::Space::Const, kA, 0), 1), 70u);
  EXPECT_EQ(h.latencyOf(record(ir::Op::Ld, ir::Space::Const, kA, 0), 2), 2u);
  // Four distinct words of the line: accesses start at t..t+3, the last is ready at t + 3 + 2.
  func::ExecRecord four = record(ir::Op::Ld, ir::Space::Const, kA, 0);
  for (int l = 0; l < 32; ++l) four.addr[l] = kA + 4 * (l % 4);
  EXPECT_EQ(h.latencyOf(four, 3), 5u);
  nlohmann::json s;
  h.system().reportStats(s);
  EXPECT_EQ(s["const"]["accesses"], 6);
  EXPECT_EQ(s["const"]["hits"], 5);
  EXPECT_EQ(s["const"]["misses"], 1);
}

TEST(Latency, KernelParametersUseTheConstantCache) {
  Harness h(tinyParams());
  EXPECT_EQ(h.latencyOf(record(ir::Op::Ld, ir::Space::KernelParam, 16, 0), 1), 70u);
  EXPECT_EQ(h.latencyOf(record(ir::Op::Ld, ir::Space::KernelParam, 24, 0), 2), 2u);
}

TEST(Latency, EmptyMaskAndPrefetchTakeThePipelineLatency) {
  Harness h(tinyParams());
  EXPECT_EQ(h.latencyOf(record(ir::Op::Ld, ir::Space::Global, kA, 4, 4, 0), 1), 5u);
  EXPECT_EQ(h.latencyOf(record(ir::Op::Prefetch, ir::Space::Global, kA, 4), 2), 5u);
  EXPECT_EQ(h.latencyOf(record(ir::Op::Ld, ir::Space::FrameParam, 0, 4), 3), 5u);
}

}  // namespace
}  // namespace warpsim::timing::mem
