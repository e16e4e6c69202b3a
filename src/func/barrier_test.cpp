// CTA barriers: ordering across warps, reductions, producer/consumer arrive, deadlocks, and
// stepping warps one at a time.
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

}  // namespace
}  // namespace warpsim::func
