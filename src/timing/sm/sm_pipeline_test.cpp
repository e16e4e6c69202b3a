// Exact cycle counts of the SM pipeline on hand-written kernels (see README.md for the timing
// rules these numbers follow). Test configuration: testConfig() in sm_test_harness.h (ALU
// latency 4, two ALUs of 16 lanes, one 4-lane SFU of latency 10, icache miss 10 cycles,
// decode 1 cycle, fake memory latency 20 unless stated).
#include <gtest/gtest.h>

#include "timing/sm/sm_test_harness.h"

namespace warpsim::timing {
namespace {

using testing::SmHarness;
using testing::testConfig;

// mov, then three adds each needing the previous result, then ret (which waits for the
// warp's pending writes because the register frame ends).
const char* kChain = R"(
.visible .entry chain()
{
  .reg .b32 %r<8>;
  mov.u32 %r1, 1;
  add.u32 %r2, %r1, 1;
  add.u32 %r3, %r2, 1;
  add.u32 %r4, %r3, 1;
  ret;
}
)";

TEST(SmPipeline, DependentChainIssuesEveryLatencyPlusTwoCycles) {
  SmHarness h(kChain, testConfig());
  const Cycle end = h.run("chain", 1, 32);
  // Fetch in cycle 0 misses (10 cycles) + decode 1: first issue in 11. Each dependent issue
  // waits for operand read (1) + dispatch (1) + latency (4) = 6 cycles.
  EXPECT_EQ(h.trace.cyclesOf(0), (std::vector<Cycle>{11, 17, 23, 29, 35}));
  // ret issues at 35, reads 36, dispatches 37, completes 41: the CTA retires then.
  EXPECT_EQ(end, 41u);
  EXPECT_EQ(h.stats()["warp_instructions"], 5u);
  EXPECT_EQ(h.stats()["thread_instructions"], 160u);
  EXPECT_EQ(h.stats()["units"]["alu_lane_ops"], 160u);
}

TEST(SmPipeline, IssueSlotBreakdownCoversEveryCycle) {
  SmHarness h(kChain, testConfig());
  h.run("chain", 1, 32);
  // Cycles 0..41: 11 waiting for the first fetch, 5 issues, 4 x 5 cycles waiting for a result
  // (the ret waits for the last add), 5 with only the exited warp draining its ret, and the
  // cycle the slot frees.
  EXPECT_EQ(h.issue("fetch"), 11u);
  EXPECT_EQ(h.issue("issued"), 5u);
  EXPECT_EQ(h.issue("scoreboard"), 25u);
  EXPECT_EQ(h.issue("empty"), 1u);
  EXPECT_EQ(h.issue("memory"), 0u);
  EXPECT_EQ(h.issue("barrier"), 0u);
  EXPECT_EQ(h.issue("pipeline"), 0u);
  EXPECT_EQ(h.issue("collector"), 0u);
  // Active and resident counts cover cycles that end with the CTA resident (0..40).
  EXPECT_EQ(h.stats()["active_cycles"], 41u);
  EXPECT_EQ(h.stats()["resident_warp_cycles"], 41u);
  // Fetches in 0 (two instructions), 12, 18, 24 and 30 (the linker's sentinel ret after the
  // last instruction).
  EXPECT_EQ(h.stats()["icache"]["accesses"], 5u);
  EXPECT_EQ(h.stats()["icache"]["misses"], 1u);
}

TEST(SmPipeline, SkippingIdleCyclesChangesNothing) {
  SmHarness a(kChain, testConfig()), b(kChain, testConfig());
  EXPECT_EQ(a.run("chain", 1, 32, {}, true), b.run("chain", 1, 32, {}, false));
  EXPECT_EQ(a.stats(), b.stats());
}

// Independent adds (after the mov they all read) go through a single 8-lane ALU: one enters
// the unit every 4 cycles.
const char* kIndependent = R"(
.visible .entry indep()
{
  .reg .b32 %r<12>;
  mov.u32 %r1, 1;
  add.u32 %r2, %r1, 1;
  add.u32 %r3, %r1, 2;
  add.u32 %r4, %r1, 3;
  add.u32 %r5, %r1, 4;
  add.u32 %r6, %r1, 5;
  exit;
}
)";

TEST(SmPipeline, IndependentInstructionsIssueAtTheInitiationInterval) {
  SmHarness h(kIndependent, testConfig({{"sm.units.alu.count", "1"}, {"sm.units.alu.lanes", "8"}}));
  h.run("indep", 1, 32);
  // mov at 11 (dispatched 13, done 17). The first add issues at 17 and dispatches at 19; the
  // next waits in the collector stage (one instruction per unit instance), so adds enter the
  // unit at 19, 23, 27, 31, 35 and issue 2 cycles before each except the first two.
  EXPECT_EQ(h.trace.cyclesOf(0), (std::vector<Cycle>{11, 17, 19, 23, 27, 31, 35}));
  EXPECT_GT(h.issue("pipeline"), 0u);
}

TEST(SmPipeline, TwoAlusTakeOneInstructionPerCycle) {
  SmHarness h(kIndependent, testConfig());
  h.run("indep", 1, 32);
  EXPECT_EQ(h.trace.cyclesOf(0), (std::vector<Cycle>{11, 17, 18, 19, 20, 21, 22}));
  EXPECT_EQ(h.issue("pipeline"), 0u);
}

TEST(SmPipeline, InitiationIntervalCanBeSet) {
  SmHarness h(kIndependent, testConfig({{"sm.units.alu.count", "1"}, {"sm.units.alu.initiation_interval", "3"}}));
  h.run("indep", 1, 32);
  EXPECT_EQ(h.trace.cyclesOf(0), (std::vector<Cycle>{11, 17, 19, 22, 25, 28, 31}));
}

// add reads two registers; %r1 and %r17 sit in the same bank of 16, %r1 and %r2 do not.
const char* kBanks = R"(
.visible .entry banks()
{
  .reg .b32 %r<20>;
  mov.u32 %r1, 1;
  mov.u32 %r{SECOND}, 2;
  mov.u32 %r{OTHER}, 3;
  add.u32 %r3, %r1, %r{SECOND};
  ret;
}
)";

std::string banksKernel(const std::string& second) {
  const std::string other = second == "17" ? "2" : "17";
  std::string s = kBanks;
  for (size_t at; (at = s.find("{SECOND}")) != std::string::npos;) s.replace(at, 8, second);
  s.replace(s.find("{OTHER}"), 7, other);
  return s;
}

TEST(SmPipeline, BankConflictCostsOneCycle) {
  SmHarness same(banksKernel("17"), testConfig()), apart(banksKernel("2"), testConfig());
  const ir::Function& f = same.runner.program().module().functions[0];
  auto index = [&](const char* name) {
    for (uint32_t i = 0; i < f.regs.size(); ++i)
      if (f.regs[i].name == name) return i;
    return UINT32_MAX;
  };
  ASSERT_EQ(index("%r1") % 16, index("%r17") % 16);
  ASSERT_NE(index("%r1") % 16, index("%r2") % 16);
  const Cycle tSame = same.run("banks", 1, 32);
  const Cycle tApart = apart.run("banks", 1, 32);
  // The add issues at the same cycle in both; its ret waits for its result.
  EXPECT_EQ(same.trace.at(0, 3), apart.trace.at(0, 3));
  EXPECT_EQ(same.trace.at(0, 4), apart.trace.at(0, 4) + 1);
  EXPECT_EQ(tSame, tApart + 1);
  EXPECT_EQ(same.rf("bank_conflicts"), 1u);
  EXPECT_EQ(apart.rf("bank_conflicts"), 0u);
  EXPECT_EQ(same.rf("bank_reads"), 2u);
  EXPECT_EQ(apart.rf("bank_reads"), 2u);
  EXPECT_EQ(same.rf("bank_writes"), 4u);
  EXPECT_EQ(same.rf("collector_allocations"), 5u);
}

TEST(SmPipeline, TwoReadPortsRemoveTheConflict) {
  SmHarness h(banksKernel("17"), testConfig({{"sm.register_file.read_ports", "2"}}));
  h.run("banks", 1, 32);
  EXPECT_EQ(h.rf("bank_conflicts"), 0u);
}

// Four independent ex2.approx on the single 4-lane SFU: one every 8 cycles.
const char* kSfu = R"(
.visible .entry sfu()
{
  .reg .f32 %f<8>;
  mov.f32 %f1, 0f3F800000;
  ex2.approx.f32 %f2, %f1;
  ex2.approx.f32 %f3, %f1;
  ex2.approx.f32 %f4, %f1;
  ex2.approx.f32 %f5, %f1;
  ret;
}
)";

TEST(SmPipeline, SfuThroughputIsOneWarpPerEightCycles) {
  SmHarness h(kSfu, testConfig());
  const Cycle end = h.run("sfu", 1, 32);
  // mov 11 -> ready 17. ex2 #1 issues 17 and enters the SFU at 19; #2 issues 19 and waits for
  // the SFU until 27; #3 issues 27 (enters 35), #4 issues 35 (enters 43, result 53).
  EXPECT_EQ(h.trace.cyclesOf(0), (std::vector<Cycle>{11, 17, 19, 27, 35, 53}));
  EXPECT_EQ(end, 53u + 2 + 4);
  EXPECT_EQ(h.stats()["units"]["sfu_lane_ops"], 128u);
}

// A load's result comes back through the memory pipeline; a store does not hold the warp.
const char* kLoad = R"(
.visible .entry load(.param .u64 p)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];
  ld.global.u32 %r1, [%rd1];
  add.u32 %r2, %r1, 1;
  st.global.u32 [%rd1], %r2;
  mov.u32 %r3, 7;
  ret;
}
)";

TEST(SmPipeline, LoadLatencyGoesThroughTheMemoryPipeline) {
  SmHarness h(kLoad, testConfig(), 20);
  const uint64_t buf = h.runner.upload(std::vector<uint32_t>(32, 41));
  const Cycle end = h.run("load", 1, 32, {buf});
  // Issue 11, read 12, dispatch 13, LSU latency 1: handed over at 14, back at 34 and written:
  // the dependent load issues at 34, its data is back at 57, the add issues at 57.
  const std::vector<Cycle> t = h.trace.cyclesOf(0);
  ASSERT_EQ(t.size(), 6u);
  EXPECT_EQ(t[0], 11u);
  EXPECT_EQ(t[1], 34u);
  EXPECT_EQ(t[2], 57u);
  // The store issues when the add's result is written (57 + 6), the mov right after it
  // (stores hold no register); ret waits for the mov's write (the frame ends).
  EXPECT_EQ(t[3], 63u);
  EXPECT_EQ(t[4], 64u);
  EXPECT_EQ(t[5], 70u);
  // The CTA retires when the store completes: handed over at 66, done at 86.
  EXPECT_EQ(end, 86u);
  ASSERT_EQ(h.memory.accepted.size(), 3u);
  EXPECT_EQ(h.memory.accepted[0].space, ir::Space::KernelParam);
  EXPECT_EQ(h.memory.accepted[1].space, ir::Space::Global);
  EXPECT_EQ(h.memory.accepted[1].addr0, buf);
  EXPECT_TRUE(h.memory.accepted[2].isStore);
  EXPECT_EQ(h.memory.accepted[2].at, 66u);
  EXPECT_EQ(h.runner.download<uint32_t>(buf, 1)[0], 42u);
  EXPECT_EQ(h.stats()["units"]["lsu_lane_ops"], 96u);
  EXPECT_GT(h.issue("memory"), 0u);
}

// membar waits for the warp's store; overwriting a loaded register waits for the load (WAW).
const char* kFence = R"(
.visible .entry fence(.param .u64 p)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  mov.u64 %rd1, 0;
  ld.param.u64 %rd1, [p];
  st.global.u32 [%rd1], %r1;
  membar.gl;
  ld.global.u32 %r2, [%rd1];
  mov.u32 %r2, 5;
  ret;
}
)";

TEST(SmPipeline, FenceWaitsForStoresAndWriteAfterWriteWaits) {
  SmHarness h(kFence, testConfig(), 20);
  const uint64_t buf = h.runner.upload(std::vector<uint32_t>(32, 0));
  h.run("fence", 1, 32, {buf});
  // mov 11; ld.param waits for the mov's result (WAW on %rd1): 17; back at 17+3+20 = 40: st
  // issues 40, handed over 43, completes 63: membar issues 63; ld 64 (back 87); the mov of
  // %r2 waits for the load's write: 87; ret waits for the mov: 93.
  EXPECT_EQ(h.trace.cyclesOf(0), (std::vector<Cycle>{11, 17, 40, 63, 64, 87, 93}));
}

}  // namespace
}  // namespace warpsim::timing
