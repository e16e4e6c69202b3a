// Cooperative launches: %envreg1:%envreg2 give the grid-sync workspace, all CTAs of the launch
// are interleaved so that grid.sync() (as nvcc 13 compiles it for sm_80) orders two phases
// across CTAs, and grid.sync() in a normal launch traps.
#include <gtest/gtest.h>

#include "func/testing/kernel_runner.h"

namespace warpsim::func {
namespace {

using testing::KernelRunner;
using testing::ptxModule;

// nvcc -arch=sm_80 -ptx of
//   a[blockIdx.x] = blockIdx.x; cooperative_groups::this_grid().sync();
//   out[blockIdx.x] = a[(blockIdx.x + 1) % gridDim.x];
// The workspace address is (%envreg1 << 32) | %envreg2; 0 means no cooperative launch (trap).
// Thread (0,0,0) of CTA (0,0,0) adds 0x80000001 - CTAs to the word at workspace + 4, every other
// CTA's thread 0 adds 1, and each spins until the word's top bit flips.
const char* kGridSync = R"(
.visible .entry k(.param .u64 k_param_0, .param .u64 k_param_1)
{
  .reg .pred %p<5>;
  .reg .b32 %r<31>;
  .reg .b64 %rd<18>;
  ld.param.u64 %rd6, [k_param_0];
  ld.param.u64 %rd5, [k_param_1];
  mov.u32 %r2, %envreg2;
  cvt.u64.u32 %rd7, %r2;
  mov.u32 %r3, %envreg1;
  cvt.u64.u32 %rd8, %r3;
  bfi.b64 %rd1, %rd8, %rd7, 32, 32;
  mov.u32 %r4, %ctaid.x;
  cvt.u64.u32 %rd2, %r4;
  cvta.to.global.u64 %rd3, %rd6;
  mul.wide.u32 %rd9, %r4, 4;
  add.s64 %rd10, %rd3, %rd9;
  st.global.u32 [%rd10], %r4;
  setp.ne.s64 %p1, %rd1, 0;
  @%p1 bra $L__BB0_2;
  trap;
$L__BB0_2:
  barrier.sync 0;
  mov.u32 %r5, %tid.y;
  mov.u32 %r6, %tid.x;
  add.s32 %r7, %r6, %r5;
  mov.u32 %r8, %tid.z;
  neg.s32 %r9, %r8;
  setp.eq.s32 %p2, %r7, %r9;
  @%p2 bra $L__BB0_3;
  bra.uni $L__BB0_5;
$L__BB0_3:
  add.s64 %rd11, %rd1, 4;
  cvt.u32.u64 %r12, %rd2;
  mov.u32 %r13, %nctaid.y;
  mov.u32 %r14, %nctaid.x;
  mul.lo.s32 %r15, %r14, %r13;
  mov.u32 %r16, %nctaid.z;
  mul.lo.s32 %r17, %r15, %r16;
  mov.u32 %r18, %ctaid.y;
  add.s32 %r19, %r12, %r18;
  mov.u32 %r20, %ctaid.z;
  neg.s32 %r21, %r20;
  setp.eq.s32 %p3, %r19, %r21;
  mov.u32 %r22, -2147483647;
  sub.s32 %r23, %r22, %r17;
  selp.b32 %r11, %r23, 1, %p3;
  atom.add.release.gpu.u32 %r10,[%rd11],%r11;
$L__BB0_4:
  ld.acquire.gpu.u32 %r24,[%rd11];
  xor.b32 %r25, %r24, %r10;
  setp.gt.s32 %p4, %r25, -1;
  @%p4 bra $L__BB0_4;
$L__BB0_5:
  cvt.u32.u64 %r26, %rd2;
  barrier.sync 0;
  add.s32 %r27, %r26, 1;
  mov.u32 %r28, %nctaid.x;
  rem.u32 %r29, %r27, %r28;
  mul.wide.u32 %rd13, %r29, 4;
  add.s64 %rd14, %rd3, %rd13;
  ld.global.u32 %r30, [%rd14];
  cvta.to.global.u64 %rd15, %rd5;
  shl.b64 %rd16, %rd2, 2;
  add.s64 %rd17, %rd15, %rd16;
  st.global.u32 [%rd17], %r30;
  ret;
}
)";

constexpr uint32_t kCtas = 8;

TEST(Cooperative, GridSyncOrdersTwoPhasesAcrossCtas) {
  KernelRunner r(ptxModule(kGridSync));
  const uint64_t a = r.upload(std::vector<uint32_t>(kCtas, 0xFFFFFFFFu));
  const uint64_t out = r.upload(std::vector<uint32_t>(kCtas, 0xFFFFFFFFu));
  const uint64_t workspace = r.upload(std::vector<uint32_t>(4, 0));
  r.cooperative = true;
  r.options.gridSyncWorkspace = workspace;
  const LaunchResult res = r.launch("k", {kCtas, 1, 1}, {64, 1, 1}, {a, out});
  ASSERT_TRUE(res.ok) << res.error;
  EXPECT_EQ(res.ctasExecuted, kCtas);
  // CTA c reads what CTA c + 1 wrote before the barrier; run one after another (no cooperative
  // launch), CTA c would spin forever waiting for CTA c + 1.
  EXPECT_EQ(r.download<uint32_t>(out, kCtas), (std::vector<uint32_t>{1, 2, 3, 4, 5, 6, 7, 0}));
  // The arrivals sum to 0x80000000 (the top bit flipped once), in the word at offset 4.
  EXPECT_EQ(r.download<uint32_t>(workspace, 4), (std::vector<uint32_t>{0, 0x80000000u, 0, 0}));

  // The same workspace serves the next launch: the barrier flips the bit back.
  const LaunchResult again = r.launch("k", {kCtas, 1, 1}, {64, 1, 1}, {a, out});
  ASSERT_TRUE(again.ok) << again.error;
  EXPECT_EQ(r.download<uint32_t>(workspace, 4), (std::vector<uint32_t>{0, 0, 0, 0}));
  EXPECT_EQ(again.warpInstructions, res.warpInstructions);  // deterministic
}

TEST(Cooperative, GridSyncInANormalLaunchTraps) {
  KernelRunner r(ptxModule(kGridSync));
  const uint64_t a = r.upload(std::vector<uint32_t>(kCtas, 0));
  const uint64_t out = r.upload(std::vector<uint32_t>(kCtas, 0));
  const LaunchResult res = r.launch("k", {kCtas, 1, 1}, {64, 1, 1}, {a, out});
  ASSERT_FALSE(res.ok);
  EXPECT_EQ(res.error, "kernel 'k' CTA (0,0,0) thread (0,0,0) at test.ptx:26: trap executed");
}

TEST(Cooperative, EnvregsHoldTheWorkspaceAddress) {
  KernelRunner r(ptxModule(R"(
.visible .entry e(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %envreg1;
  mov.u32 %r2, %envreg2;
  mov.u32 %r3, %envreg3;
  st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r3};
  ret;
}
)"));
  const uint64_t out = r.upload(std::vector<uint32_t>(4, 0xFFFFFFFFu));
  LaunchResult res = r.launch("e", {1, 1, 1}, {1, 1, 1}, {out});
  ASSERT_TRUE(res.ok) << res.error;
  EXPECT_EQ(r.download<uint32_t>(out, 4), (std::vector<uint32_t>{0, 0, 0, 0}));  // normal launch
  r.cooperative = true;
  r.options.gridSyncWorkspace = 0x7f12'3456'7800;
  res = r.launch("e", {1, 1, 1}, {1, 1, 1}, {out});
  ASSERT_TRUE(res.ok) << res.error;
  EXPECT_EQ(r.download<uint32_t>(out, 4), (std::vector<uint32_t>{0x7f12, 0x34567800, 0, 0}));
}

// A CTA that leaves before grid.sync() leaves the others spinning: the instruction limit stops
// them.
TEST(Cooperative, AGridBarrierThatNeverCompletesStopsAtTheLimit) {
  std::string text = kGridSync;
  text.replace(text.find("  mov.u32 %r4, %ctaid.x;\n"), 0,
               "  mov.u32 %r4, %ctaid.x;\n  setp.eq.u32 %p1, %r4, 3;\n  @%p1 ret;\n");
  KernelRunner r(ptxModule(text));
  const uint64_t a = r.upload(std::vector<uint32_t>(kCtas, 0));
  const uint64_t out = r.upload(std::vector<uint32_t>(kCtas, 0));
  r.cooperative = true;
  r.options.gridSyncWorkspace = r.upload(std::vector<uint32_t>(4, 0));
  r.options.maxWarpInstructions = 20000;
  const LaunchResult res = r.launch("k", {kCtas, 1, 1}, {64, 1, 1}, {a, out});
  ASSERT_FALSE(res.ok);
  // Thread 0 of each other CTA spins on the branch back to its ld.acquire; the other warps wait
  // at bar.sync.
  EXPECT_EQ(res.error,
            "kernel 'k' CTA (2,0,0) warp 0 at test.ptx:60: instruction limit of 20000 warp-instructions reached "
            "(infinite loop?)");
  EXPECT_EQ(res.ctasExecuted, 1u);  // CTA 3
}

// A CTA whose warps all wait at its own barriers is a deadlock, reported as in a normal launch.
TEST(Cooperative, ADeadlockedCtaIsReported) {
  KernelRunner r(ptxModule(R"(
.visible .entry d()
{
  .reg .pred %p<2>;
  .reg .b32 %r<2>;
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 32;
  @%p1 bra SKIP;
  bar.sync 0, 64;
SKIP:
  bar.sync 1, 64;
  ret;
}
)"));
  r.cooperative = true;
  const LaunchResult res = r.launch("d", {2, 1, 1}, {64, 1, 1});
  ASSERT_FALSE(res.ok);
  EXPECT_EQ(res.error,
            "kernel 'd' CTA (0,0,0): deadlock: 2 warp(s) wait at barriers that can never complete (2 of 2 warps "
            "still running)\n"
            "  warp 0: pc 4 (test.ptx:15) in 'd' active mask 0xffffffff waiting at barrier 1 (1 of 2 warps arrived)\n"
            "  warp 1: pc 3 (test.ptx:13) in 'd' active mask 0xffffffff waiting at barrier 0 (1 of 2 warps arrived)");
}

}  // namespace
}  // namespace warpsim::func
