// How the functional engine interleaves the warps of a CTA (cta.h): round robin, each warp
// executing RunOptions::warpQuantum instructions per turn (0: until it waits or exits).
#include <gtest/gtest.h>

#include "func/testing/kernel_runner.h"

namespace warpsim::func {
namespace {

using testing::KernelRunner;
using testing::ptxModule;

// Lane 0 of every warp takes four tickets from a counter with back-to-back atomics, the
// warp's instructions 6 to 9 (every warp runs the same instruction sequence), and stores them at
// out[4 * warp + k]. The tickets show which warp executed when.
const char* kTickets = R"(
.visible .entry tickets(.param .u64 counter, .param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [counter];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 31;
  setp.eq.u32 %p1, %r2, 0;
  shr.u32 %r3, %r1, 5;
  @%p1 atom.global.add.u32 %r4, [%rd1], 1;
  @%p1 atom.global.add.u32 %r5, [%rd1], 1;
  @%p1 atom.global.add.u32 %r6, [%rd1], 1;
  @%p1 atom.global.add.u32 %r7, [%rd1], 1;
  mul.wide.u32 %rd3, %r3, 16;
  add.s64 %rd4, %rd2, %rd3;
  @%p1 st.global.v4.u32 [%rd4], {%r4, %r5, %r6, %r7};
  ret;
}
)";

struct CountingObserver final : ExecObserver {
  uint64_t records = 0;
  void onExec(const ExecRecord&) override { ++records; }
};

std::vector<uint32_t> tickets(uint32_t quantum, bool observed) {
  KernelRunner r(ptxModule(kTickets));
  r.options.warpQuantum = quantum;
  CountingObserver observer;
  if (observed) r.options.observer = &observer;
  const uint64_t counter = r.upload(std::vector<uint32_t>(1, 0));
  const uint64_t out = r.upload(std::vector<uint32_t>(12, 99));
  const LaunchResult res = r.launch("tickets", {1, 1, 1}, {96, 1, 1}, {counter, out});
  EXPECT_TRUE(res.ok) << res.error;
  EXPECT_EQ(res.warpInstructions, 3u * 14);
  if (observed) {
    EXPECT_EQ(observer.records, 3u * 14);
  }
  return r.download<uint32_t>(out, 12);
}

TEST(Interleave, OneInstructionPerTurnByDefault) {
  EXPECT_EQ(RunOptions{}.warpQuantum, 1u);
  // Warp w's k-th atomic executes in round 6 + k, after the same atomic of warps 0..w-1.
  const std::vector<uint32_t> expected = {0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11};
  EXPECT_EQ(tickets(1, false), expected);
  EXPECT_EQ(tickets(1, true), expected);
}

TEST(Interleave, QuantumOfTwoInstructions) {
  // Turns cover instructions 0-1, 2-3, 4-5, 6-7, 8-9: two atomics per warp per turn.
  const std::vector<uint32_t> expected = {0, 1, 6, 7, 2, 3, 8, 9, 4, 5, 10, 11};
  EXPECT_EQ(tickets(2, false), expected);
  EXPECT_EQ(tickets(2, true), expected);
}

TEST(Interleave, QuantumOfThreeInstructions) {
  // Turns cover instructions 0-2, 3-5, 6-8, 9-11: three atomics, then the fourth a round later.
  const std::vector<uint32_t> expected = {0, 1, 2, 9, 3, 4, 5, 10, 6, 7, 8, 11};
  EXPECT_EQ(tickets(3, false), expected);
  EXPECT_EQ(tickets(3, true), expected);
}

TEST(Interleave, QuantumZeroRunsEachWarpToItsEnd) {
  const std::vector<uint32_t> expected = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  EXPECT_EQ(tickets(0, false), expected);
  EXPECT_EQ(tickets(0, true), expected);
}

// A benign race: every thread does counter += 1 (load, add, store; no atomic). Warps that take
// turns instruction by instruction all load before any stores, as on a GPU, where the load's
// latency alone keeps the stores behind every warp's load: the counter ends at 1. Warps run one
// after another would each see the previous warp's store.
const char* kRacyIncrement = R"(
.visible .entry racy(.param .u64 counter)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [counter];
  ld.global.u32 %r1, [%rd1];
  add.u32 %r2, %r1, 1;
  st.global.u32 [%rd1], %r2;
  ret;
}
)";

uint32_t racyCounter(uint32_t quantum) {
  KernelRunner r(ptxModule(kRacyIncrement));
  r.options.warpQuantum = quantum;
  const uint64_t counter = r.upload(std::vector<uint32_t>(1, 0));
  const LaunchResult res = r.launch("racy", {1, 1, 1}, {128, 1, 1}, {counter});
  EXPECT_TRUE(res.ok) << res.error;
  return r.download<uint32_t>(counter, 1)[0];
}

TEST(Interleave, RacyIncrementsFromSeveralWarpsCountOnce) {
  EXPECT_EQ(racyCounter(1), 1u);
  EXPECT_EQ(racyCounter(3), 1u);  // instructions 0-2 (the load among them), then the store
  EXPECT_EQ(racyCounter(4), 4u);  // each warp stores in the turn it loads
  EXPECT_EQ(racyCounter(0), 4u);
}

// The instruction limit stops the launch before the turn of the warp that would exceed it.
TEST(Interleave, InstructionLimitNamesTheWarpWhoseTurnItIs) {
  KernelRunner r(ptxModule(kTickets));
  r.options.maxWarpInstructions = 20;  // rounds of 3 warps: warp 2 would issue the 21st
  const uint64_t counter = r.upload(std::vector<uint32_t>(1, 0));
  const uint64_t out = r.upload(std::vector<uint32_t>(12, 0));
  const LaunchResult res = r.launch("tickets", {1, 1, 1}, {96, 1, 1}, {counter, out});
  ASSERT_FALSE(res.ok);
  EXPECT_EQ(res.error,
            "kernel 'tickets' CTA (0,0,0) warp 2 at test.ptx:17: instruction limit of 20 warp-instructions "
            "reached (infinite loop?)");
  EXPECT_EQ(res.warpInstructions, 20u);
}

}  // namespace
}  // namespace warpsim::func
