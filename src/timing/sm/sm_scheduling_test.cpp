// Warp scheduling policies, barriers, sub-cores and the front end, on hand-written kernels.
#include <gtest/gtest.h>

#include "timing/sm/sm_test_harness.h"

namespace warpsim::timing {
namespace {

using testing::SmHarness;
using testing::testConfig;

// Four independent movs and an exit per warp.
const char* kMovs = R"(
.visible .entry movs()
{
  .reg .b32 %r<8>;
  mov.u32 %r1, 1;
  mov.u32 %r2, 2;
  mov.u32 %r3, 3;
  mov.u32 %r4, 4;
  exit;
}
)";

std::vector<uint32_t> warpOrder(const testing::TraceRecorder& t) {
  std::vector<uint32_t> out;
  for (const auto& i : t.issues) out.push_back(i.warp);
  return out;
}

TEST(SmScheduling, GreedyThenOldestRunsOneWarpWhileItCan) {
  SmHarness h(kMovs, testConfig({{"sm.warp_scheduler.impl", "\"gto\""}}));
  h.run("movs", 1, 64);
  EXPECT_EQ(warpOrder(h.trace), (std::vector<uint32_t>{0, 0, 0, 0, 0, 1, 1, 1, 1, 1}));
  // Both warps' first fetch lands at 11 (the second waits for the same line).
  EXPECT_EQ(h.trace.cyclesOf(0), (std::vector<Cycle>{11, 12, 13, 14, 15}));
  EXPECT_EQ(h.trace.cyclesOf(1), (std::vector<Cycle>{16, 17, 18, 19, 20}));
}

TEST(SmScheduling, LooseRoundRobinAlternates) {
  SmHarness h(kMovs, testConfig({{"sm.warp_scheduler.impl", "\"lrr\""}}));
  h.run("movs", 1, 64);
  EXPECT_EQ(warpOrder(h.trace), (std::vector<uint32_t>{0, 1, 0, 1, 0, 1, 0, 1, 0, 1}));
  EXPECT_EQ(h.trace.cyclesOf(0), (std::vector<Cycle>{11, 13, 15, 17, 19}));
  EXPECT_EQ(h.trace.cyclesOf(1), (std::vector<Cycle>{12, 14, 16, 18, 20}));
}

TEST(SmScheduling, GreedyThenOldestFallsBackToTheOldestWarp) {
  // Warp 0 stalls on a dependent chain; GTO then issues from warp 1 until warp 0 is ready.
  SmHarness h(R"(
.visible .entry k()
{
  .reg .b32 %r<8>;
  mov.u32 %r1, 1;
  add.u32 %r2, %r1, 1;
  exit;
}
)", testConfig());
  h.run("k", 1, 64);
  EXPECT_EQ(h.trace.cyclesOf(0), (std::vector<Cycle>{11, 17, 18}));
  EXPECT_EQ(h.trace.cyclesOf(1), (std::vector<Cycle>{12, 19, 20}));
}

// Warp 1 runs a dependent chain before the barrier; warp 0 arrives first and waits.
const char* kBarrier = R"(
.visible .entry bar()
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 32;
  @%p1 bra SKIP;
  add.u32 %r2, %r1, 1;
  add.u32 %r2, %r2, 1;
  add.u32 %r2, %r2, 1;
SKIP:
  bar.sync 0;
  add.u32 %r3, %r1, 5;
  exit;
}
)";

TEST(SmScheduling, BarrierHoldsTheEarlyWarpUntilTheLastArrives) {
  // Four ALUs: the two schedulers never compete for a unit here.
  SmHarness h(kBarrier, testConfig({{"sm.schedulers", "2"}, {"sm.units.alu.count", "4"}}));
  h.run("bar", 1, 64);
  const Cycle arrive0 = h.trace.at(0, 6), arrive1 = h.trace.at(1, 6);
  ASSERT_NE(arrive0, kNever);
  ASSERT_NE(arrive1, kNever);
  EXPECT_LT(arrive0, arrive1);
  // Released when warp 1 executes bar.sync; each warp has its own scheduler.
  EXPECT_EQ(h.trace.at(0, 7), arrive1 + 1);
  EXPECT_EQ(h.trace.at(1, 7), arrive1 + 1);
  EXPECT_EQ(h.stats()["barrier_waits"], 1u);
  // Scheduler 0 (warp 0) spends every cycle from its arrival to the release at the barrier.
  EXPECT_EQ(h.issue("barrier"), arrive1 - arrive0);
}

std::string subCoreConfig() {
  return testConfig({{"sm.schedulers", "2"}, {"sm.sub_cores", "true"}, {"sm.units.sfu.count", "2"},
                     {"sm.units.fp64.count", "2"}, {"sm.units.lsu.count", "2"}});
}

TEST(SmScheduling, SubCoresGiveEachSchedulerItsOwnUnits) {
  // One warp of independent movs: with two shared ALUs it issues every cycle; with sub-cores
  // its scheduler owns one ALU of interval 2.
  SmHarness shared(kMovs, testConfig({{"sm.schedulers", "2"}}));
  SmHarness split(kMovs, subCoreConfig());
  shared.run("movs", 1, 32);
  split.run("movs", 1, 32);
  EXPECT_EQ(shared.trace.cyclesOf(0), (std::vector<Cycle>{11, 12, 13, 14, 15}));
  EXPECT_EQ(split.trace.cyclesOf(0), (std::vector<Cycle>{11, 13, 15, 17, 19}));
}

TEST(SmScheduling, SubCoreWarpsIssueInParallel) {
  SmHarness h(kMovs, subCoreConfig());
  h.run("movs", 1, 64);
  EXPECT_EQ(h.trace.cyclesOf(0), h.trace.cyclesOf(1));
  for (const auto& i : h.trace.issues) EXPECT_EQ(i.scheduler, i.warp);
}

// Warp 0 and 1 each load twice and use the result. With one active warp, a warp that has to
// wait for its load leaves the active set and the other warp gets in.
const char* kLoads = R"(
.visible .entry loads(.param .u64 p)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];
  ld.global.u32 %r1, [%rd1];
  add.u32 %r2, %r1, 1;
  exit;
}
)";

TEST(SmScheduling, TwoLevelDeschedulesWarpsWaitingForMemory) {
  SmHarness h(kLoads, testConfig({{"sm.warp_scheduler.impl", "\"two-level\""},
                                  {"sm.warp_scheduler.active_warps", "1"},
                                  {"sm.units.lsu.count", "2"}}),
              20);
  const uint64_t buf = h.runner.upload(std::vector<uint32_t>(64, 1));
  h.run("loads", 1, 64, {buf});
  // 11: warp 0 issues; 12: it waits on the load and leaves the active set; 13: warp 1 enters
  // and issues; 14: it leaves; warp 0's %rd1 is back at 11+3+20 = 34: it re-enters and issues.
  EXPECT_EQ(h.trace.cyclesOf(0)[0], 11u);
  EXPECT_EQ(h.trace.cyclesOf(1)[0], 13u);
  EXPECT_EQ(h.trace.cyclesOf(0)[1], 34u);
  // Each warp leaves the set after each of its two loads.
  EXPECT_EQ(h.stats()["scheduler"]["deschedules"].get<uint64_t>(), 4u);
  EXPECT_EQ(h.stats()["scheduler"]["activations"].get<uint64_t>(),
            h.stats()["scheduler"]["deschedules"].get<uint64_t>() + 2);
}

TEST(SmScheduling, TwoLevelWithEveryWarpActiveMatchesGreedyOrder) {
  SmHarness a(kLoads, testConfig({{"sm.warp_scheduler.impl", "\"two-level\""}, {"sm.units.lsu.count", "2"}}), 20);
  SmHarness b(kLoads, testConfig({{"sm.warp_scheduler.impl", "\"lrr\""}, {"sm.units.lsu.count", "2"}}), 20);
  const uint64_t bufA = a.runner.upload(std::vector<uint32_t>(64, 1));
  const uint64_t bufB = b.runner.upload(std::vector<uint32_t>(64, 1));
  // Both warps in the active set (two load/store units): the first load of each issues back
  // to back; with one active warp the second warp lost a cycle (see above).
  a.run("loads", 1, 64, {bufA});
  b.run("loads", 1, 64, {bufB});
  EXPECT_EQ(a.trace.cyclesOf(1)[0], 12u);
  EXPECT_EQ(b.trace.cyclesOf(1)[0], 12u);
}

TEST(SmScheduling, TakenBranchRefetchesWithOneBubble) {
  SmHarness h(R"(
.visible .entry br()
{
  .reg .b32 %r<8>;
  mov.u32 %r1, 1;
  bra DONE;
  mov.u32 %r2, 2;
DONE:
  mov.u32 %r3, 3;
  exit;
}
)", testConfig());
  h.run("br", 1, 32);
  // bra at 12 empties the buffer; the target is fetched at 13 (hit) and issues at 14.
  EXPECT_EQ(h.trace.cyclesOf(0), (std::vector<Cycle>{11, 12, 14, 15}));
  EXPECT_EQ(h.trace.at(0, 2), kNever);
}

TEST(SmScheduling, NewCacheLineMissesInTheInstructionCache) {
  // 32-byte lines hold 4 instructions: pc 4 is on the second line.
  SmHarness h(R"(
.visible .entry lines()
{
  .reg .b32 %r<8>;
  mov.u32 %r1, 1;
  mov.u32 %r2, 2;
  mov.u32 %r3, 3;
  mov.u32 %r4, 4;
  mov.u32 %r5, 5;
  exit;
}
)", testConfig({{"sm.icache.line", "32"}}));
  h.run("lines", 1, 32);
  // pc 0,1 at 11,12; pc 2 fetched 12 -> 13; pc 3 fetched 13 -> 14; pc 4 (new line) fetched 14
  // misses: 24 + 1 = 25.
  EXPECT_EQ(h.trace.cyclesOf(0), (std::vector<Cycle>{11, 12, 13, 14, 25, 26}));
  EXPECT_EQ(h.stats()["icache"]["misses"], 2u);
}

TEST(SmScheduling, DivergentPathsRunOneAfterTheOther) {
  SmHarness h(R"(
.visible .entry div(.param .u64 p)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [p];
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 16;
  @%p1 bra LOW;
  mov.u32 %r2, 200;
  bra JOIN;
LOW:
  mov.u32 %r2, 100;
JOIN:
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r2;
  exit;
}
)", testConfig());
  const uint64_t buf = h.runner.upload(std::vector<uint32_t>(32, 0));
  h.run("div", 1, 32, {buf});
  const auto v = h.runner.download<uint32_t>(buf, 32);
  for (uint32_t t = 0; t < 32; ++t) EXPECT_EQ(v[t], t < 16 ? 100u : 200u) << t;
  // Both sides of the branch issued (the fall-through side first), the join once.
  EXPECT_NE(h.trace.at(0, 4), kNever);
  EXPECT_NE(h.trace.at(0, 6), kNever);
  EXPECT_EQ(h.stats()["thread_instructions"].get<uint64_t>(), 32u * 4 + 16 * 3 + 32u * 4);
}

}  // namespace
}  // namespace warpsim::timing
