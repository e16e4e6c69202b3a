// The driver's shared-memory carve-out on an SM whose L1 and shared memory share one array
// (shared_carveout.h), through the baseline resource manager: Volta's 128 KB array carved into
// 0, 8, 16, 32, 64 or 96 KB of shared memory, 64 warps, 32 CTAs, 2048 threads, 65536 registers
// in units of 256 per warp over 4 partitions, 256-byte shared allocation units.
#include <gtest/gtest.h>

#include "timing/baselines_internal.h"
#include "timing/i_resource_manager.h"
#include "timing/plugin_registry.h"
#include "timing/shared_carveout.h"

namespace warpsim::timing {
namespace {

constexpr uint32_t KB = 1024;
constexpr const char* kVolta = R"(
[sm]
max_warps = 64
max_ctas = 32
max_threads = 2048
registers = 65536
shared_bytes = 98304
l1_shared_bytes = 131072
shared_carveouts = "0,8,16,32,64,96"
[resources]
register_allocation_unit = 256
warp_allocation_granularity = 4
shared_allocation_unit = 256
max_registers_per_thread = 255
)";

class SharedCarveoutTest : public testing::Test {
 protected:
  std::unique_ptr<IResourceManager> make(std::string toml) {
    tree_ = std::make_unique<config::Tree>(config::Tree::fromString(toml));
    PluginRegistry registry;
    registerStaticResourceManager(registry);
    return registry.make<IResourceManager>("static", {tree_.get(), 0});
  }
  static KernelResources kernel(uint32_t regs, uint32_t shared, uint32_t threads, int32_t prefer = -1) {
    KernelResources k;
    k.registersPerThread = regs;
    k.sharedBytesPerCta = shared;
    k.threadsPerCta = threads;
    k.preferredCarveoutPercent = prefer;
    return k;
  }
  std::unique_ptr<config::Tree> tree_;
};

TEST_F(SharedCarveoutTest, AKernelWithoutSharedMemoryGetsTheWholeArrayAsL1) {
  auto rm = make(kVolta);
  ASSERT_EQ(rm->beginKernel(kernel(32, 0, 256)), "");
  const Occupancy o = rm->occupancy();
  EXPECT_EQ(o.ctasPerSm, 8u);  // registers: 8192 per CTA
  EXPECT_EQ(o.carveout.sharedBytes, 0u);
  EXPECT_EQ(o.carveout.l1Bytes, 128 * KB);
  EXPECT_EQ(o.carveout.registerBytes, 256 * KB);
  EXPECT_EQ(rm->l1Bytes(), std::optional<uint64_t>(128 * KB));
}

TEST_F(SharedCarveoutTest, TheSmallestCarveoutThatKeepsTheOccupancyIsChosen) {
  auto rm = make(kVolta);
  // 4 KB per CTA, 8 CTAs by registers: 32 KB of shared memory, the 32 KB carve-out, 96 KB of L1.
  ASSERT_EQ(rm->beginKernel(kernel(32, 4 * KB, 256)), "");
  EXPECT_EQ(rm->occupancy().ctasPerSm, 8u);
  EXPECT_EQ(rm->occupancy().carveout.sharedBytes, 32 * KB);
  EXPECT_EQ(rm->l1Bytes(), std::optional<uint64_t>(96 * KB));
  // 4.25 KB per CTA: 34 KB, the 64 KB carve-out.
  ASSERT_EQ(rm->beginKernel(kernel(32, 4 * KB + 256, 256)), "");
  EXPECT_EQ(rm->occupancy().ctasPerSm, 8u);
  EXPECT_EQ(rm->l1Bytes(), std::optional<uint64_t>(64 * KB));
  // 40 KB per CTA: shared memory limits the occupancy to 2 CTAs (80 KB): the 96 KB carve-out.
  ASSERT_EQ(rm->beginKernel(kernel(32, 40 * KB, 256)), "");
  EXPECT_EQ(rm->occupancy().ctasPerSm, 2u);
  EXPECT_STREQ(rm->occupancy().limitedBy, "shared");
  EXPECT_EQ(rm->l1Bytes(), std::optional<uint64_t>(32 * KB));
}

TEST_F(SharedCarveoutTest, APreferenceIsAHintThatOneCtaCanOverride) {
  auto rm = make(kVolta);
  // Prefer the most L1 (0%): a kernel of 4 KB per CTA gets the 8 KB carve-out, and with it 2
  // CTAs instead of 8.
  ASSERT_EQ(rm->beginKernel(kernel(32, 4 * KB, 256, 0)), "");
  EXPECT_EQ(rm->occupancy().ctasPerSm, 2u);
  EXPECT_STREQ(rm->occupancy().limitedBy, "shared");
  EXPECT_EQ(rm->occupancy().carveout.sharedBytes, 8 * KB);
  EXPECT_EQ(rm->l1Bytes(), std::optional<uint64_t>(120 * KB));
  // 50% of 96 KB = 48 KB: the 64 KB carve-out, 8 CTAs by registers.
  ASSERT_EQ(rm->beginKernel(kernel(32, 4 * KB, 256, 50)), "");
  EXPECT_EQ(rm->occupancy().ctasPerSm, 8u);
  EXPECT_EQ(rm->occupancy().carveout.sharedBytes, 64 * KB);
  // A kernel of 40 KB per CTA preferring no shared memory still gets one CTA's 40 KB: 64 KB.
  ASSERT_EQ(rm->beginKernel(kernel(32, 40 * KB, 256, 0)), "");
  EXPECT_EQ(rm->occupancy().ctasPerSm, 1u);
  EXPECT_EQ(rm->occupancy().carveout.sharedBytes, 64 * KB);
  // 100%: the largest.
  ASSERT_EQ(rm->beginKernel(kernel(32, 0, 256, 100)), "");
  EXPECT_EQ(rm->occupancy().carveout.sharedBytes, 96 * KB);
}

TEST_F(SharedCarveoutTest, ReservedSharedMemoryPerCtaCountsAgainstTheCarveout) {
  auto rm = make(std::string(kVolta) + "shared_reserved_per_cta = 1024\n");
  // No shared memory of its own, 32 CTAs of 64 threads: 32 x 1 KB reserved -> the 32 KB
  // carve-out.
  ASSERT_EQ(rm->beginKernel(kernel(16, 0, 64)), "");
  EXPECT_EQ(rm->occupancy().ctasPerSm, 32u);
  EXPECT_EQ(rm->occupancy().carveout.sharedBytes, 32 * KB);
  // 47 KB + 1 KB reserved: 2 CTAs in 96 KB (47 KB alone would also give 2; 48 KB + 1 KB gives 1).
  ASSERT_EQ(rm->beginKernel(kernel(16, 47 * KB, 64)), "");
  EXPECT_EQ(rm->occupancy().ctasPerSm, 2u);
  ASSERT_EQ(rm->beginKernel(kernel(16, 48 * KB, 64)), "");
  EXPECT_EQ(rm->occupancy().ctasPerSm, 1u);
}

TEST_F(SharedCarveoutTest, WithoutAnArrayTheSizesAreFixed) {
  auto rm = make("[sm]\nshared_bytes = 49152\n");
  ASSERT_EQ(rm->beginKernel(kernel(16, 0, 256)), "");
  EXPECT_FALSE(rm->occupancy().carveout.chosen());
  EXPECT_EQ(rm->l1Bytes(), std::nullopt);
}

TEST_F(SharedCarveoutTest, BadCarveoutListsAreErrorsNamingTheKey) {
  auto message = [&](std::string list) {
    try {
      make("[sm]\nshared_bytes = 98304\nl1_shared_bytes = 131072\nshared_carveouts = \"" + list +
           "\"\n");
    } catch (const config::Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("0,8,x").find("'x' is not a number of kilobytes"), std::string::npos);
  EXPECT_NE(message("0,16,8,96").find("ascending"), std::string::npos);
  EXPECT_NE(message("0,8,64").find("must equal sm.shared_bytes"), std::string::npos);
  EXPECT_NE(message("0,8,64").find("sm.shared_carveouts"), std::string::npos);
  EXPECT_EQ(message("0,8,16,32,64,96"), "no error");
}

}  // namespace
}  // namespace warpsim::timing
