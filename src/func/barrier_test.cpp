// CTA barriers: ordering across warps, reductions, producer/consumer arrive, deadlocks,
// stepping warps one at a time, and the paths of a diverged warp arriving at different barrier
// instructions (sm_70 and later, warp_barrier.cpp).
#include <gtest/gtest.h>

#include "func/cta.h"
#include "func/testing/kernel_runner.h"

namespace warpsim::func {
namespace {

using testing::KernelRunner;
using testing::ptxModule;

// Every thread writes shared[tid], syncs, then reads its neighbour 32 threads ahead: without
// the barrier the first warp would read before the others write.
const char* kRotate = R"(
.visible .entry rotate(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b8 buf[512];
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, buf;
  shl.b32 %r3, %r1, 2;
  add.u32 %r4, %r2, %r3;
  mul.lo.u32 %r5, %r1, 3;
  st.shared.u32 [%r4], %r5;
  bar.sync 0;
  add.u32 %r6, %r1, 32;
  and.b32 %r6, %r6, 127;
  shl.b32 %r6, %r6, 2;
  add.u32 %r6, %r2, %r6;
  ld.shared.u32 %r7, [%r6];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r7;
  ret;
}
)";

TEST(Barrier, SyncOrdersSharedMemoryAcrossWarps) {
  KernelRunner r(ptxModule(kRotate));
  uint64_t out = r.upload(std::vector<uint32_t>(256, 0));
  LaunchResult res = r.launch("rotate", {2, 1, 1}, {128, 1, 1}, {out});
  ASSERT_TRUE(res.ok) << res.error;
  auto v = r.download<uint32_t>(out, 128);
  for (uint32_t t = 0; t < 128; ++t) EXPECT_EQ(v[t], ((t + 32) % 128) * 3) << t;
  EXPECT_EQ(res.ctasExecuted, 2u);
}

const char* kReduce = R"(
.visible .entry reduce(.param .u64 out)
{
  .reg .pred %p<6>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  rem.u32 %r2, %r1, 3;
  setp.eq.u32 %p1, %r2, 0;
  bar.red.popc.u32 %r3, 0, %p1;
  setp.lt.u32 %p2, %r1, 1000;
  bar.red.and.pred %p3, 1, %p2;
  setp.eq.u32 %p4, %r1, 77;
  bar.red.or.pred %p5, 2, !%p4;
  selp.u32 %r4, 10, 20, %p3;
  selp.u32 %r5, 100, 200, %p5;
  add.u32 %r6, %r3, %r4;
  add.u32 %r6, %r6, %r5;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r6;
  ret;
}
)";

TEST(Barrier, ReductionsReachEveryWarp) {
  KernelRunner r(ptxModule(kReduce));
  uint64_t out = r.upload(std::vector<uint32_t>(100, 0));
  LaunchResult res = r.launch("reduce", {1, 1, 1}, {100, 1, 1}, {out});
  ASSERT_TRUE(res.ok) << res.error;
  auto v = r.download<uint32_t>(out, 100);
  // 34 multiples of 3 below 100; all tids < 1000; !(tid == 77) holds for some thread.
  for (uint32_t t = 0; t < 100; ++t) EXPECT_EQ(v[t], 34u + 10 + 100) << t;
}

// Warp 0 produces into shared memory and arrives; warp 1 waits on the same barrier.
const char* kProducer = R"(
.visible .entry prodcons(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b8 buf[128];
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 31;
  shl.b32 %r2, %r2, 2;
  mov.u32 %r3, buf;
  add.u32 %r3, %r3, %r2;
  setp.ge.u32 %p1, %r1, 32;
  @%p1 bra CONSUMER;
  add.u32 %r4, %r1, 500;
  st.shared.u32 [%r3], %r4;
  bar.arrive 3, 64;
  ret;
CONSUMER:
  bar.sync 3, 64;
  ld.shared.u32 %r5, [%r3];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r5;
  ret;
}
)";

TEST(Barrier, ArriveLetsAProducerContinue) {
  KernelRunner r(ptxModule(kProducer));
  uint64_t out = r.upload(std::vector<uint32_t>(64, 0));
  LaunchResult res = r.launch("prodcons", {1, 1, 1}, {64, 1, 1}, {out});
  ASSERT_TRUE(res.ok) << res.error;
  auto v = r.download<uint32_t>(out, 64);
  for (uint32_t t = 32; t < 64; ++t) EXPECT_EQ(v[t], t - 32 + 500) << t;
}

// Warps whose threads all returned no longer count for bar.sync without a thread count.
const char* kExitBeforeSync = R"(
.visible .entry exitsync(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  setp.ge.u32 %p1, %r1, 64;
  @%p1 ret;
  bar.sync 0;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r1;
  ret;
}
)";

TEST(Barrier, ExitedWarpsDoNotBlockBarZero) {
  KernelRunner r(ptxModule(kExitBeforeSync));
  uint64_t out = r.upload(std::vector<uint32_t>(128, 9));
  LaunchResult res = r.launch("exitsync", {1, 1, 1}, {128, 1, 1}, {out});
  ASSERT_TRUE(res.ok) << res.error;
  auto v = r.download<uint32_t>(out, 128);
  for (uint32_t t = 0; t < 128; ++t) EXPECT_EQ(v[t], t < 64 ? t : 9u) << t;
}

const char* kDeadlock = R"(
.visible .entry dl()
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  mov.u32 %r1, %tid.x;
  setp.ge.u32 %p1, %r1, 32;
  @%p1 bra OTHER;
  bar.sync 0;
  ret;
OTHER:
  bar.sync 1;
  ret;
}
)";

TEST(Barrier, DeadlockIsReportedWithEveryWarpsState) {
  KernelRunner r(ptxModule(kDeadlock));
  LaunchResult res = r.launch("dl", {1, 1, 1}, {96, 1, 1});
  ASSERT_FALSE(res.ok);
  EXPECT_EQ(res.error,
            "kernel 'dl' CTA (0,0,0): deadlock: 3 warp(s) wait at barriers that can never complete (3 of 3 warps "
            "still running)\n"
            "  warp 0: pc 3 (test.ptx:13) in 'dl' active mask 0xffffffff waiting at barrier 0 (1 of 3 warps arrived)\n"
            "  warp 1: pc 5 (test.ptx:16) in 'dl' active mask 0xffffffff waiting at barrier 1 (2 of 3 warps arrived)\n"
            "  warp 2: pc 5 (test.ptx:16) in 'dl' active mask 0xffffffff waiting at barrier 1 (2 of 3 warps arrived)");
}

const char* kCountDeadlock = R"(
.visible .entry dl2()
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  mov.u32 %r1, %tid.x;
  setp.ge.u32 %p1, %r1, 32;
  @%p1 ret;
  bar.sync 2, 64;
  ret;
}
)";

TEST(Barrier, ExitedPartnerLeavesACountedBarrierWaitingForever) {
  KernelRunner r(ptxModule(kCountDeadlock));
  LaunchResult res = r.launch("dl2", {1, 1, 1}, {64, 1, 1});
  ASSERT_FALSE(res.ok);
  EXPECT_EQ(res.error,
            "kernel 'dl2' CTA (0,0,0): deadlock: 1 warp(s) wait at barriers that can never complete (1 of 2 warps "
            "still running)\n"
            "  warp 0: pc 3 (test.ptx:13) in 'dl2' active mask 0xffffffff waiting at barrier 2 (1 of 2 warps arrived)\n"
            "  warp 1: exited");
}

TEST(Barrier, BadThreadCountFaults) {
  KernelRunner r(ptxModule(R"(
.visible .entry badcount()
{
  bar.sync 0, 48;
  ret;
}
)"));
  LaunchResult res = r.launch("badcount", {1, 1, 1}, {64, 1, 1});
  ASSERT_FALSE(res.ok);
  EXPECT_EQ(res.error,
            "kernel 'badcount' CTA (0,0,0) thread (0,0,0) at test.ptx:8: barrier thread count 48 is not a positive "
            "multiple of the warp size");
}

// The stepping interface: advance warps one instruction at a time in an arbitrary order.
TEST(Barrier, WarpsCanBeSteppedIndividually) {
  KernelRunner r(ptxModule(kRotate));
  uint64_t out = r.upload(std::vector<uint32_t>(128, 0));
  const Program& p = r.program();
  LaunchConfig cfg;
  cfg.grid = {1, 1, 1};
  cfg.block = {128, 1, 1};
  cfg.params.resize(8);
  std::memcpy(cfg.params.data(), &out, 8);
  RunOptions opts;
  const auto k = static_cast<uint32_t>(p.findKernel("rotate"));
  ASSERT_EQ(validateLaunch(p, k, cfg, opts), "");
  GridContext grid = prepareGrid(p, k, cfg, r.memory, opts);
  Cta cta(grid, 0);
  ASSERT_EQ(cta.numWarps(), 4u);
  ExecRecord rec;
  // Run the last warp first, up to its barrier.
  StepStatus s = StepStatus::Ok;
  int steps = 0;
  while ((s = cta.warp(3).step(&rec)) == StepStatus::Ok) ++steps;
  EXPECT_EQ(s, StepStatus::AtBarrier);
  EXPECT_EQ(rec.instr->op, ir::Op::Bar);
  EXPECT_TRUE(cta.warp(3).waitingAtBarrier());
  EXPECT_EQ(cta.warp(3).step(&rec), StepStatus::AtBarrier);  // stays blocked
  // Then round-robin one instruction at a time.
  uint64_t issued = 0, idle = 0;
  while (!cta.done()) {
    for (uint32_t w = 0; w < 4; ++w) {
      StepStatus st = cta.warp(w).step(&rec);
      ASSERT_NE(st, StepStatus::Error) << cta.warp(w).error();
      if (rec.instr) ++issued;
      else ++idle;  // waiting at the barrier, or already exited
    }
    ASSERT_LT(issued, 10000u);
  }
  EXPECT_EQ(issued, 4u * (steps + 1 + 9) - (steps + 1));
  EXPECT_GT(idle, 0u);
  EXPECT_EQ(cta.warp(0).step(&rec), StepStatus::Exited);
  EXPECT_EQ(rec.instr, nullptr);
  auto v = r.download<uint32_t>(out, 128);
  for (uint32_t t = 0; t < 128; ++t) EXPECT_EQ(v[t], ((t + 32) % 128) * 3) << t;
  EXPECT_EQ(grid.warpInstructions, 4u * (steps + 1 + 9));
}

// Each half of every warp writes shared memory and syncs at its own bar.sync, then reads what
// the other half of the neighbouring warp wrote: buf[u] = u for lanes < 16, 2u above. The upper
// half (the branch's fall-through) arrives first; the warp counts only once its lower half has
// arrived too, so every read comes after every write.
const char* kHalves = R"(
.visible .entry halves(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b8 buf[256];
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 31;
  mov.u32 %r3, buf;
  shl.b32 %r4, %r1, 2;
  add.u32 %r5, %r3, %r4;
  setp.lt.u32 %p1, %r2, 16;
  @%p1 bra LOW;
  mul.lo.u32 %r6, %r1, 2;
  st.shared.u32 [%r5], %r6;
  bar.sync 0;
  add.u32 %r7, %r1, 48;
  and.b32 %r7, %r7, 63;
  shl.b32 %r7, %r7, 2;
  add.u32 %r7, %r3, %r7;
  ld.shared.u32 %r8, [%r7];
  add.u32 %r8, %r8, 1000;
  bra.uni JOIN;
LOW:
  st.shared.u32 [%r5], %r1;
  bar.sync 0;
  add.u32 %r7, %r1, 16;
  and.b32 %r7, %r7, 63;
  shl.b32 %r7, %r7, 2;
  add.u32 %r7, %r3, %r7;
  ld.shared.u32 %r8, [%r7];
JOIN:
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r8;
  ret;
}
)";

TEST(DivergedBarrier, HalvesOfAWarpSyncAtTheirOwnBarSync) {
  for (uint32_t quantum : {1u, 0u}) {
    KernelRunner r(ptxModule(kHalves));
    r.options.warpQuantum = quantum;
    uint64_t out = r.upload(std::vector<uint32_t>(64, 0));
    LaunchResult res = r.launch("halves", {1, 1, 1}, {64, 1, 1}, {out});
    ASSERT_TRUE(res.ok) << res.error;
    auto v = r.download<uint32_t>(out, 64);
    for (uint32_t t = 0; t < 64; ++t) {
      const uint32_t expected = t % 32 < 16 ? 2 * ((t + 16) % 64) : (t + 48) % 64 + 1000;
      EXPECT_EQ(v[t], expected) << "thread " << t << " quantum " << quantum;
    }
  }
}

// The timing model steps warps one instruction at a time: the first half's arrival hands the
// warp over to its other half, without waiting.
TEST(DivergedBarrier, SteppingRunsTheOtherHalfAfterTheFirstArrives) {
  KernelRunner r(ptxModule(kHalves));
  uint64_t out = r.upload(std::vector<uint32_t>(64, 0));
  const Program& p = r.program();
  LaunchConfig cfg;
  cfg.block = {32, 1, 1};
  cfg.params.resize(8);
  std::memcpy(cfg.params.data(), &out, 8);
  RunOptions opts;
  const auto k = static_cast<uint32_t>(p.findKernel("halves"));
  GridContext grid = prepareGrid(p, k, cfg, r.memory, opts);
  Cta cta(grid, 0);
  Warp& w = cta.warp(0);
  ExecRecord rec;
  for (int i = 0; i < 10; ++i) ASSERT_EQ(w.step(&rec), StepStatus::Ok);  // up to the upper half's store
  EXPECT_EQ(w.activeMask(), 0xffff0000u);
  ASSERT_EQ(w.step(&rec), StepStatus::Ok);  // its bar.sync
  EXPECT_EQ(rec.instr->op, ir::Op::Bar);
  EXPECT_FALSE(w.waitingAtBarrier());
  EXPECT_EQ(w.lanesAtBarrier(), 0xffff0000u);
  EXPECT_EQ(w.activeMask(), 0x0000ffffu);  // the lower half runs now, from LOW
  ASSERT_EQ(w.step(&rec), StepStatus::Ok);  // its store
  EXPECT_EQ(rec.instr->op, ir::Op::St);
  ASSERT_EQ(w.step(&rec), StepStatus::Ok);  // its bar.sync: the warp arrives, the barrier completes
  EXPECT_EQ(w.lanesAtBarrier(), 0u);
  EXPECT_FALSE(w.waitingAtBarrier());
  StepStatus s = StepStatus::Ok;
  while ((s = w.step(&rec)) == StepStatus::Ok) {
  }
  ASSERT_EQ(s, StepStatus::Exited);
  auto v = r.download<uint32_t>(out, 32);
  // One warp: each half reads the other half's writes, buf[64..] is never written.
  for (uint32_t t = 0; t < 16; ++t) EXPECT_EQ(v[t], 2 * (t + 16)) << t;
  for (uint32_t t = 16; t < 32; ++t) EXPECT_EQ(v[t], (t + 48) % 64 < 32 ? (t + 48) % 64 + 1000 : 1000u) << t;
}

// Lanes that exit no longer count: whether one half exits before or after the other half
// reaches its barrier, the warp arrives once the exit is done.
std::string exitingHalf(bool exitFirst) {
  const std::string bar = "  st.shared.u32 [%r5], %r1;\n  bar.sync 0;\n  add.u32 %r6, %r1, 32;\n"
                          "  and.b32 %r6, %r6, 63;\n  shl.b32 %r6, %r6, 2;\n  add.u32 %r6, %r3, %r6;\n"
                          "  ld.shared.u32 %r7, [%r6];\n  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
                          "  st.global.u32 [%rd3], %r7;\n  ret;\n";
  return std::string(R"(
.visible .entry exithalf(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b8 buf[256];
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 31;
  mov.u32 %r3, buf;
  shl.b32 %r4, %r1, 2;
  add.u32 %r5, %r3, %r4;
  setp.lt.u32 %p1, %r2, 16;
  @%p1 bra OTHER;
)") + (exitFirst ? "  ret;\nOTHER:\n" + bar : bar + "OTHER:\n  ret;\n") + "}\n";
}

TEST(DivergedBarrier, TheOtherHalfExitingCompletesTheArrival) {
  for (bool exitFirst : {false, true}) {
    KernelRunner r(ptxModule(exitingHalf(exitFirst)));
    uint64_t out = r.upload(std::vector<uint32_t>(64, 7));
    LaunchResult res = r.launch("exithalf", {1, 1, 1}, {64, 1, 1}, {out});
    ASSERT_TRUE(res.ok) << res.error;
    auto v = r.download<uint32_t>(out, 64);
    // The fall-through (the upper half) runs first: it exits (exitFirst) or syncs.
    for (uint32_t t = 0; t < 64; ++t) {
      const bool syncs = (t % 32 >= 16) != exitFirst;
      EXPECT_EQ(v[t], syncs ? (t + 32) % 64 : 7u) << "thread " << t << " exitFirst " << exitFirst;
    }
  }
}

// The lower half syncs, then everyone syncs. The upper half's only barrier instruction completes
// the lower half's first barrier (a barrier counts threads, not instructions) and it runs on to
// exit; the lower half's second barrier then completes on its own. bar.red.popc shows who
// arrived in each phase: 16 + 16 in the first, the lower 16 in the second.
const char* kSkipThenSync = R"(
.visible .entry skipsync(.param .u64 out)
{
  .reg .pred %p<3>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r5, 0;
  setp.lt.u32 %p1, %r1, 16;
  setp.lt.u32 %p2, %r1, 1000;
  @!%p1 bra SKIP;
  bar.red.popc.u32 %r5, 0, %p1;
SKIP:
  bar.red.popc.u32 %r6, 0, %p2;
  mul.lo.u32 %r7, %r5, 100;
  add.u32 %r7, %r7, %r6;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r7;
  ret;
}
)";

TEST(DivergedBarrier, ABarrierCountsThreadsNotInstructions) {
  KernelRunner r(ptxModule(kSkipThenSync));
  uint64_t out = r.upload(std::vector<uint32_t>(32, 0));
  LaunchResult res = r.launch("skipsync", {1, 1, 1}, {32, 1, 1}, {out});
  ASSERT_TRUE(res.ok) << res.error;
  auto v = r.download<uint32_t>(out, 32);
  for (uint32_t t = 0; t < 32; ++t) EXPECT_EQ(v[t], t < 16 ? 32u * 100 + 16 : 32u) << t;
}

TEST(DivergedBarrier, PathsAtDifferentBarriersFault) {
  KernelRunner r(ptxModule(R"(
.visible .entry mismatch()
{
  .reg .pred %p<2>;
  .reg .b32 %r<2>;
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 16;
  @%p1 bra LOW;
  bar.sync 1;
  ret;
LOW:
  bar.sync 0;
  ret;
}
)"));
  LaunchResult res = r.launch("mismatch", {1, 1, 1}, {32, 1, 1});
  ASSERT_FALSE(res.ok);
  EXPECT_EQ(res.error,
            "kernel 'mismatch' CTA (0,0,0) thread (0,0,0) at test.ptx:16: this path of a diverged warp arrives at "
            "barrier 0 (sync, all threads) while lanes 0xffff0000 of the warp wait at barrier 1 (sync, all "
            "threads); all threads of a warp must reach the same barrier");
}

// Warp 0's halves both reach barrier 0, so the warp counts once there; warp 1 waits at barrier 1.
TEST(DivergedBarrier, DeadlockAfterADivergedArrivalIsReported) {
  KernelRunner r(ptxModule(R"(
.visible .entry dl3()
{
  .reg .pred %p<3>;
  .reg .b32 %r<4>;
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 31;
  setp.ge.u32 %p2, %r1, 32;
  @%p2 bra OTHER;
  setp.lt.u32 %p1, %r2, 16;
  @%p1 bra LOW;
  bar.sync 0;
  ret;
LOW:
  bar.sync 0;
  ret;
OTHER:
  bar.sync 1;
  ret;
}
)"));
  LaunchResult res = r.launch("dl3", {1, 1, 1}, {64, 1, 1});
  ASSERT_FALSE(res.ok);
  EXPECT_EQ(res.error,
            "kernel 'dl3' CTA (0,0,0): deadlock: 2 warp(s) wait at barriers that can never complete (2 of 2 warps "
            "still running)\n"
            "  warp 0: pc 8 (test.ptx:19) in 'dl3' active mask 0x0000ffff waiting at barrier 0 (1 of 2 warps arrived)\n"
            "  warp 1: pc 10 (test.ptx:22) in 'dl3' active mask 0xffffffff waiting at barrier 1 (1 of 2 warps arrived)");
}

// Paths switch only within a call frame: lanes at a barrier inside a function, with the rest of
// their warp outside it, wait for lanes that cannot come.
TEST(DivergedBarrier, ABarrierInACalleeWithTheWarpSplitAcrossFramesIsADeadlock) {
  KernelRunner r(ptxModule(R"(
.func wait()
{
  bar.sync 0;
  ret;
}

.visible .entry incall()
{
  .reg .pred %p<2>;
  .reg .b32 %r<2>;
  mov.u32 %r1, %tid.x;
  setp.ge.u32 %p1, %r1, 16;
  @%p1 bra UPPER;
  call wait;
  ret;
UPPER:
  bar.sync 0;
  ret;
}
)"));
  LaunchResult res = r.launch("incall", {1, 1, 1}, {32, 1, 1});
  ASSERT_FALSE(res.ok);
  EXPECT_EQ(res.error,
            "kernel 'incall' CTA (0,0,0): deadlock: 1 warp(s) wait at barriers that can never complete (1 of 1 warps "
            "still running)\n"
            "  warp 0: pc 0 (test.ptx:8) in 'wait' active mask 0x0000ffff lanes 0x0000ffff waiting at barrier 0 for "
            "lanes 0xffff0000 of the same warp, which wait in a calling function and cannot reach it");
}

}  // namespace
}  // namespace warpsim::func
