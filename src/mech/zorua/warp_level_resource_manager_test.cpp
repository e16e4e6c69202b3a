// The WLM-style baseline: a CTA starts when its resources are free now, and an exited warp's
// registers and slot are free before its CTA retires (GTX 480 defaults: 48 warps, 8 CTAs,
// 32768 registers in units of 64 per warp).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "mech/zorua/zorua_resource_manager.h"
#include "timing/i_resource_manager.h"
#include "timing/plugin_registry.h"

namespace warpsim::mech::zorua {
namespace {

using timing::IResourceManager;

struct Gate final : timing::WarpGate {
  std::vector<uint32_t> freed;
  void setSchedulable(uint32_t slot, bool on) override {
    if (on) freed.push_back(slot);
  }
  void setOffChipRegisters(uint32_t, uint64_t) override {}
  IssueActivity issueActivity() const override { return {}; }
  uint32_t schedulerCount() const override { return 2; }
  void moveData(uint64_t, bool, uint32_t) override {}
  void spendIssueSlot(uint32_t) override {}
  uint64_t* warpRegisters(uint32_t, uint32_t* count) override {
    *count = 0;
    return nullptr;
  }
};

TEST(WarpLevelResourceManager, ExitedWarpsLetTheNextCtaStartBeforeTheirCtaRetires) {
  config::Tree tree = config::Tree::fromString("");
  timing::PluginRegistry registry;
  registerWarpLevelResourceManager(registry);
  auto rm = registry.make<IResourceManager>("warp-level", {&tree, 0});
  Gate gate;
  ASSERT_TRUE(rm->warpGranular());
  rm->attach(gate);
  // 8 warps of 32 registers: 8 x 1024 = 8192 registers a CTA, 4 CTAs in 32768.
  ASSERT_EQ(rm->beginKernel({32, 0, 256}), "");
  EXPECT_EQ(rm->occupancy().ctasPerSm, 4u);
  for (uint32_t c = 0; c < 4; ++c) {
    ASSERT_TRUE(rm->canAdmit());
    rm->admit(c);
    for (uint32_t w = 0; w < 8; ++w) rm->onWarpStart(c * 8 + w, c, nullptr, 0);
  }
  EXPECT_EQ(gate.freed.size(), 32u);  // never held
  EXPECT_FALSE(rm->canAdmit());
  for (uint32_t w = 0; w < 7; ++w) rm->onWarpExit(w, 10);
  EXPECT_FALSE(rm->canAdmit());  // 7 warps' registers: one short of a CTA
  rm->onWarpExit(8, 11);         // a warp of CTA 1
  EXPECT_TRUE(rm->canAdmit());   // CTA 0's last warp and CTA 1 still run
  rm->admit(4);
  EXPECT_FALSE(rm->canAdmit());
  rm->onWarpExit(7, 12);
  rm->release(0);                // CTA 0 retires: its shared memory and CTA slot
  EXPECT_FALSE(rm->canAdmit());  // registers: 1 warp's worth free
  nlohmann::json stats;
  rm->reportStats(stats);
  EXPECT_EQ(stats["warp_level"]["warps_released_early"].get<uint64_t>(), 8u);
}

TEST(WarpLevelResourceManager, RefusesCtasThatCanNeverFit) {
  config::Tree tree = config::Tree::fromString("");
  timing::PluginRegistry registry;
  registerWarpLevelResourceManager(registry);
  auto rm = registry.make<IResourceManager>("warp-level", {&tree, 0});
  EXPECT_EQ(rm->beginKernel({64, 0, 256}), "64 registers per thread exceed the SM's limit of 63");
  EXPECT_EQ(rm->beginKernel({16, 64 * 1024, 256}), "a CTA needs 65536 bytes of shared memory, the SM has 49152");
}

}  // namespace
}  // namespace warpsim::mech::zorua
