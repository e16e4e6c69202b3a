// The baseline resource manager's occupancy against hand-computed CUDA occupancy figures (GTX 480
// defaults: 48 warps, 8 CTAs, 1536 threads, 32768 registers in units of 64 per warp with warps
// rounded to pairs, 48 KiB shared memory in 128-byte units).
#include <gtest/gtest.h>

#include "timing/baselines_internal.h"
#include "timing/i_resource_manager.h"
#include "timing/plugin_registry.h"

namespace warpsim::timing {
namespace {

class StaticResourceManagerTest : public testing::Test {
 protected:
  std::unique_ptr<IResourceManager> make(std::string_view toml = "") {
    tree_ = std::make_unique<config::Tree>(config::Tree::fromString(toml));
    PluginRegistry registry;
    registerStaticResourceManager(registry);
    return registry.make<IResourceManager>("static", {tree_.get(), 0});
  }
  std::unique_ptr<config::Tree> tree_;
};

TEST_F(StaticResourceManagerTest, RegistersLimitAs32RegisterThreadsOf256) {
  auto rm = make();
  // 8 warps x roundUp(32 x 32, 64) = 8192 registers per CTA: 4 CTAs in 32768.
  ASSERT_EQ(rm->beginKernel({32, 2048, 256}), "");
  Occupancy o = rm->occupancy();
  EXPECT_EQ(o.ctasPerSm, 4u);
  EXPECT_EQ(o.warpsPerSm, 32u);
  EXPECT_EQ(o.maxWarpsPerSm, 48u);
  EXPECT_STREQ(o.limitedBy, "registers");
  EXPECT_DOUBLE_EQ(o.theoretical(), 32.0 / 48.0);
}

TEST_F(StaticResourceManagerTest, RegistersGoToWarpsInTwoPartitionsOfWholeWarps) {
  auto rm = make();
  // 21 x 32 = 672 -> 704 per warp; each half of the file holds 23 warps, 46 in all: 15 CTAs of
  // 3 warps by registers, but 8 CTA slots.
  ASSERT_EQ(rm->beginKernel({21, 0, 96}), "");
  EXPECT_EQ(rm->occupancy().ctasPerSm, 8u);
  EXPECT_STREQ(rm->occupancy().limitedBy, "ctas");
  // 33 x 32 = 1056 -> 1088 per warp: 15 warps per half, 30 in all: 6 CTAs of 5 warps (rounding
  // every CTA up to 6 warps would give 5; warps and threads would allow 9).
  ASSERT_EQ(rm->beginKernel({33, 0, 160}), "");
  EXPECT_EQ(rm->occupancy().ctasPerSm, 6u);
  EXPECT_STREQ(rm->occupancy().limitedBy, "registers");
  // A CTA whose warps, rounded up to the partitions, need more than the file never runs: 63
  // registers (2048 per warp), 17 warps -> 18 x 2048 = 36864.
  EXPECT_NE(rm->beginKernel({63, 0, 544}), "");
}

TEST_F(StaticResourceManagerTest, AssistRegistersCountInTheAllocationNotInThePerThreadLimit) {
  auto rm = make();
  // 24 + 9 = 33 registers: 33 x 32 = 1056 -> 1088 per warp, 8 warps: 8704 per CTA -> 3 CTAs
  // (24 alone: 768 per warp, 6144 per CTA -> 5).
  ASSERT_EQ(rm->beginKernel({24, 0, 256, 9}), "");
  EXPECT_EQ(rm->occupancy().ctasPerSm, 3u);
  ASSERT_EQ(rm->beginKernel({24, 0, 256}), "");
  EXPECT_EQ(rm->occupancy().ctasPerSm, 5u);
  // 63 program registers plus 9 reserved pass the 63-register limit of a thread...
  EXPECT_EQ(rm->beginKernel({63, 0, 64, 9}), "");
  // ... but not the register file: 1024 threads of 33.
  EXPECT_EQ(rm->beginKernel({24, 0, 1024, 9}),
            "a CTA needs 34816 registers (33 per thread, 1024 threads), the SM has 32768");
}

TEST_F(StaticResourceManagerTest, SharedMemoryRoundsToItsUnit) {
  auto rm = make();
  // 6000 bytes -> 6016: 8 CTAs would need 48128 <= 49152, so CTA slots limit; 6200 -> 6272:
  // 7 CTAs.
  ASSERT_EQ(rm->beginKernel({8, 6000, 64}), "");
  EXPECT_EQ(rm->occupancy().ctasPerSm, 8u);
  ASSERT_EQ(rm->beginKernel({8, 6200, 64}), "");
  EXPECT_EQ(rm->occupancy().ctasPerSm, 7u);
  EXPECT_STREQ(rm->occupancy().limitedBy, "shared");
}

TEST_F(StaticResourceManagerTest, WarpAndThreadLimits) {
  auto rm = make();
  ASSERT_EQ(rm->beginKernel({16, 0, 1024}), "");  // 32 warps: one CTA
  EXPECT_EQ(rm->occupancy().ctasPerSm, 1u);
  EXPECT_STREQ(rm->occupancy().limitedBy, "warps");
  auto volta = make("[sm]\nmax_warps = 64\nmax_threads = 2048\nmax_ctas = 32\nregisters = 65536\n"
                    "[resources]\nregister_allocation_unit = 256\nwarp_allocation_granularity = 4\n"
                    "max_registers_per_thread = 255\n");
  ASSERT_EQ(volta->beginKernel({32, 0, 128}), "");  // 4 warps x 1024 = 4096: 16 by registers
  EXPECT_EQ(volta->occupancy().ctasPerSm, 16u);
  EXPECT_EQ(volta->occupancy().warpsPerSm, 64u);
}

TEST_F(StaticResourceManagerTest, AdmitsUpToOccupancyAndReleases) {
  auto rm = make();
  ASSERT_EQ(rm->beginKernel({32, 0, 256}), "");  // 4 CTAs
  for (uint32_t i = 0; i < 4; ++i) {
    ASSERT_TRUE(rm->canAdmit());
    rm->admit(i);
  }
  EXPECT_FALSE(rm->canAdmit());
  rm->release(2);
  EXPECT_TRUE(rm->canAdmit());
  ASSERT_EQ(rm->beginKernel({32, 0, 256}), "");  // a kernel boundary empties the SM
  EXPECT_TRUE(rm->canAdmit());
}

TEST_F(StaticResourceManagerTest, KernelsThatCanNeverFitSayWhy) {
  auto rm = make();
  EXPECT_EQ(rm->beginKernel({64, 0, 32}), "64 registers per thread exceed the SM's limit of 63");
  EXPECT_EQ(rm->beginKernel({40, 0, 1024}),
            "a CTA needs 40960 registers (40 per thread, 1024 threads), the SM has 32768");
  EXPECT_EQ(rm->beginKernel({8, 49153, 32}),
            "a CTA needs 49280 bytes of shared memory, the SM has 49152");
  auto small = make("[sm]\nmax_threads = 512\n");
  EXPECT_EQ(small->beginKernel({8, 0, 1024}), "a CTA of 1024 threads exceeds the SM's 512 threads");
}

// The fixed designs of the unified-storage study (fermi-unified: 32 warps, 1024 threads, 8 CTAs,
// Fermi's allocation units) under CUDA's rules, for a DGEMM-like kernel: 64 registers x 256
// threads (8 warps x 2048 registers = 16384 per CTA) and 16 KB of shared tiles.
TEST(StaticResourceManagerFixedPartitions, DgemmLikeKernelOnEachDesign) {
  struct Case {
    const char* overlay;
    uint32_t ctas;
    const char* limitedBy;
  } cases[] = {
      {"partition-128-32-32", 2, "registers"},  // 32768 / 16384 = 2; 32 KB / 16 KB = 2
      {"partition-128-64-64", 2, "registers"},
      {"partition-256-64-64", 4, "warps"},      // 4 by registers, shared and warps: warps first
      {"partition-512-512-512", 4, "warps"},
      {"limited-16-48", 3, "shared"},           // 48 KB / 16 KB
      {"limited-48-16", 1, "shared"},
  };
  for (const Case& c : cases) {
    config::Tree tree = config::Tree::load("fermi-unified", {c.overlay});
    PluginRegistry registry;
    registerStaticResourceManager(registry);
    auto rm = registry.make<IResourceManager>("static", {&tree, 0});
    ASSERT_EQ(rm->beginKernel({64, 16384, 256}), "") << c.overlay;
    EXPECT_EQ(rm->occupancy().ctasPerSm, c.ctas) << c.overlay;
    EXPECT_STREQ(rm->occupancy().limitedBy, c.limitedBy) << c.overlay;
  }
  // 65 registers per thread exceed the study's 64.
  config::Tree tree = config::Tree::load("fermi-unified");
  PluginRegistry registry;
  registerStaticResourceManager(registry);
  auto rm = registry.make<IResourceManager>("static", {&tree, 0});
  EXPECT_EQ(rm->beginKernel({65, 0, 256}), "65 registers per thread exceed the SM's limit of 64");
}

}  // namespace
}  // namespace warpsim::timing
