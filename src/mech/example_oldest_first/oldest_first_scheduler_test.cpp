// The example mechanism: its policy on a hand-made probe, and a kernel run with it selected by
// configuration alone (the core names no mechanism).
#include <gtest/gtest.h>

#include <map>

#include "config/config.h"
#include "runtime/device.h"
#include "timing/plugin_registry.h"
#include "timing/sm/i_warp_scheduler.h"

namespace warpsim::timing {

void registerMechanism_example_oldest_first(PluginRegistry& registry);

namespace {

// Answers Issued for the slots in `ready`, Scoreboard for the others; records what was asked.
class Probe final : public WarpProbe {
 public:
  std::map<uint32_t, bool> ready;
  std::vector<uint32_t> asked;
  Stall check(uint32_t slot) override {
    asked.push_back(slot);
    return ready[slot] ? Stall::Issued : Stall::Scoreboard;
  }
  bool waitsOnLongLatency(uint32_t) const override { return false; }
  void deschedule(uint32_t) override {}
  void activate(uint32_t) override {}
};

TEST(OldestFirstScheduler, PicksTheOldestReadyWarpEveryCycle) {
  config::Tree tree = config::Tree::fromString("");
  PluginRegistry registry;
  registerMechanism_example_oldest_first(registry);
  auto s = registry.make<IWarpScheduler>("oldest-first", {tree.section("sm.warp_scheduler"), 0, 8});
  s->addWarp(4, 30);
  s->addWarp(2, 10);
  s->addWarp(6, 20);
  Probe p;
  p.ready = {{2, false}, {4, true}, {6, true}};
  EXPECT_EQ(s->pick(p), 6u);  // age 20: the oldest that can issue
  EXPECT_EQ(p.asked, (std::vector<uint32_t>{2, 6}));
  p.ready[2] = true;
  EXPECT_EQ(s->pick(p), 2u);  // no preference for the warp that issued last (unlike gto)
  s->removeWarp(2);
  p.ready[6] = false;
  EXPECT_EQ(s->pick(p), 4u);
  p.ready[4] = false;
  EXPECT_EQ(s->pick(p), kNoWarp);
}

// Threads of a CTA sum their block's values with atomics; the policy changes the cycles, never
// the result.
const char* kBlockSum = R"(.version 7.0
.target sm_80
.address_size 64
.visible .entry block_sum(.param .u64 pin, .param .u64 pout)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [pin];
  ld.param.u64 %rd2, [pout];
  cvta.to.global.u64 %rd3, %rd1;
  cvta.to.global.u64 %rd4, %rd2;
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mad.lo.s32 %r4, %r1, %r2, %r3;
  mul.wide.u32 %rd5, %r4, 4;
  add.s64 %rd6, %rd3, %rd5;
  ld.global.u32 %r5, [%rd6];
  mul.wide.u32 %rd7, %r1, 4;
  add.s64 %rd7, %rd4, %rd7;
  atom.global.add.u32 %r5, [%rd7], %r5;
  ret;
}
)";

uint64_t runWith(const std::string& scheduler, std::vector<uint32_t>& sums) {
  runtime::DeviceOptions o;
  o.resources = runtime::DeviceOptions::Resources::Estimate;
  o.mode = "timing";
  o.config = "gtx480";
  o.sets = {"sm.warp_scheduler.impl=" + scheduler};
  runtime::Device gpu(o);
  runtime::Module m = gpu.loadModule(kBlockSum, "block_sum.ptx");
  const uint32_t ctas = 60, threads = 256;
  std::vector<uint32_t> in(ctas * threads);
  for (uint32_t i = 0; i < in.size(); ++i) in[i] = i % 7;
  uint64_t din = gpu.upload(in), dout = gpu.upload(std::vector<uint32_t>(ctas, 0));
  runtime::LaunchReport r = gpu.launch(m.kernel("block_sum"), {ctas}, {threads}, 0, din, dout);
  sums = gpu.download<uint32_t>(dout, ctas);
  return r.cycles;
}

TEST(OldestFirstScheduler, SelectedByConfigurationRunsAKernel) {
  std::vector<uint32_t> oldest, gto;
  const uint64_t oldestCycles = runWith("oldest-first", oldest);
  const uint64_t gtoCycles = runWith("gto", gto);
  std::vector<uint32_t> expect(60, 0);
  for (uint32_t i = 0; i < 60 * 256; ++i) expect[i / 256] += i % 7;
  EXPECT_EQ(oldest, expect);
  EXPECT_EQ(gto, expect);
  EXPECT_GT(oldestCycles, 0u);
  EXPECT_NE(oldestCycles, gtoCycles);  // the policy is in effect
}

}  // namespace
}  // namespace warpsim::timing
