// Cooperative launches through runtime::Device in both modes: the grid-sync workspace, all CTAs
// resident at once (grid.sync() orders two phases across CTAs), the co-residency limit
// (numSms x CTAs per SM) and grid.sync() trapping in a normal launch.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "func/device_memory.h"
#include "runtime/device.h"
#include "timing/gpu.h"

namespace warpsim::runtime {
namespace {

// a[ctaid] = ctaid; grid.sync() as nvcc 13 compiles it for sm_80 (func/cooperative_test.cpp);
// out[ctaid] = a[(ctaid + 1) % nctaid].
const char* kGridSync = R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 pa, .param .u64 pout)
{
  .reg .pred %p<5>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<12>;
  ld.param.u64 %rd1, [pa];
  ld.param.u64 %rd2, [pout];
  mov.u32 %r1, %envreg2;
  cvt.u64.u32 %rd3, %r1;
  mov.u32 %r2, %envreg1;
  cvt.u64.u32 %rd4, %r2;
  bfi.b64 %rd5, %rd4, %rd3, 32, 32;
  mov.u32 %r3, %ctaid.x;
  mul.wide.u32 %rd6, %r3, 4;
  add.s64 %rd7, %rd1, %rd6;
  st.global.u32 [%rd7], %r3;
  setp.ne.s64 %p1, %rd5, 0;
  @%p1 bra SYNC;
  trap;
SYNC:
  barrier.sync 0;
  mov.u32 %r4, %tid.x;
  setp.ne.u32 %p2, %r4, 0;
  @%p2 bra DONE;
  add.s64 %rd8, %rd5, 4;
  mov.u32 %r5, %nctaid.x;
  setp.eq.u32 %p3, %r3, 0;
  sub.s32 %r6, -2147483647, %r5;
  selp.b32 %r7, %r6, 1, %p3;
  atom.add.release.gpu.u32 %r8, [%rd8], %r7;
SPIN:
  ld.acquire.gpu.u32 %r9, [%rd8];
  xor.b32 %r10, %r9, %r8;
  setp.gt.s32 %p4, %r10, -1;
  @%p4 bra SPIN;
DONE:
  barrier.sync 0;
  add.u32 %r4, %r3, 1;
  mov.u32 %r5, %nctaid.x;
  rem.u32 %r11, %r4, %r5;
  mul.wide.u32 %rd9, %r11, 4;
  add.s64 %rd10, %rd1, %rd9;
  ld.global.u32 %r4, [%rd10];
  add.s64 %rd11, %rd2, %rd6;
  st.global.u32 [%rd11], %r4;
  ret;
}
)";

DeviceOptions cooperativeOptions(const std::string& mode) {
  DeviceOptions o;
  o.mode = mode;
  o.config = "gtx480";  // 15 SMs, 8 CTA slots each
  o.resources = DeviceOptions::Resources::Estimate;
  o.collectStats = false;
  return o;
}

func::LaunchConfig cooperativeLaunchOf(const Kernel& k, uint32_t ctas, uint64_t a, uint64_t out) {
  func::LaunchConfig c;
  c.grid = {ctas, 1, 1};
  c.block = {64, 1, 1};
  c.cooperative = true;
  c.params.resize(k.function().kernelParamBytes);
  std::memcpy(c.params.data(), &a, 8);
  std::memcpy(c.params.data() + 8, &out, 8);
  return c;
}

class CooperativeLaunch : public ::testing::TestWithParam<std::string> {};

TEST_P(CooperativeLaunch, GridSyncWithEveryCtaResident) {
  Device gpu(cooperativeOptions(GetParam()));
  Module m = gpu.loadModule(kGridSync, "grid_sync.ptx");
  const Kernel k = m.kernel("k");
  const uint32_t ctas = 120;
  func::LaunchConfig c = cooperativeLaunchOf(k, ctas, 0, 0);
  ASSERT_EQ(gpu.residentCtas(k, c), 120u);  // 15 SMs x 8 CTA slots
  const uint64_t a = gpu.malloc(ctas * 4), out = gpu.malloc(ctas * 4);
  c = cooperativeLaunchOf(k, ctas, a, out);
  const uint64_t used = gpu.memory().used();
  LaunchReport r = gpu.run(k, c);
  ASSERT_TRUE(r.result.ok) << r.result.error;
  EXPECT_EQ(r.result.ctasExecuted, ctas);
  std::vector<uint32_t> want(ctas);
  for (uint32_t i = 0; i < ctas; ++i) want[i] = (i + 1) % ctas;
  EXPECT_EQ(gpu.download<uint32_t>(out, ctas), want);
  EXPECT_EQ(gpu.memory().used(), used);  // the workspace is freed

  c = cooperativeLaunchOf(k, ctas + 1, a, out);
  r = gpu.run(k, c);
  ASSERT_FALSE(r.result.ok);
  EXPECT_EQ(r.result.error,
            "kernel 'k': cooperative launch too large: 121 CTAs, but at most 120 can be resident at once on gtx480");
  EXPECT_EQ(gpu.cooperativeLimit(k, c), r.result.error);
  EXPECT_EQ(gpu.cooperativeLimit(k, cooperativeLaunchOf(k, ctas, a, out)), "");
  if (timing::Gpu* model = gpu.gpu()) {  // the timing model refuses it by itself too
    timing::KernelTiming t = model->run(k.program(), k.index(), c, func::RunOptions{}, {});
    EXPECT_EQ(t.result.error, r.result.error);
  }

  c = cooperativeLaunchOf(k, 4, a, out);
  c.cooperative = false;  // grid.sync() in a normal launch traps, as on a GPU
  r = gpu.run(k, c);
  ASSERT_FALSE(r.result.ok);
  EXPECT_EQ(r.result.error, "kernel 'k' CTA (0,0,0) thread (0,0,0) at grid_sync.ptx:22: trap executed");
}

INSTANTIATE_TEST_SUITE_P(Modes, CooperativeLaunch, ::testing::Values("functional", "timing"));

}  // namespace
}  // namespace warpsim::runtime
