#include "mech/locality_descriptor/launch_plan.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace warpsim::mech::locality_descriptor {
namespace {

hints::LocalityDescriptor descriptor(uint64_t base, warpsimLocalityType type, int32_t priority) {
  hints::LocalityDescriptor d{};
  d.base = reinterpret_cast<const void*>(base);
  d.dims = {256, 64, 1};
  d.element_bytes = 4;
  d.type = type;
  d.data_tile = {32, 64, 1};
  d.compute_tile = {1, 16, 1};
  d.compute_data_map = {1, 0, 0};
  d.sharing = WARPSIM_COACCESSED;
  d.pattern = WARPSIM_REGULAR;
  d.stride = 256;
  d.priority = priority;
  return d;
}

TEST(LaunchPlan, EachLocalityTypeSelectsItsPoliciesInPriorityOrder) {
  hints::LaunchHints h;
  h.locality.push_back(descriptor(0x100000, WARPSIM_NO_REUSE, 0));
  h.locality.push_back(descriptor(0x200000, WARPSIM_INTER_THREAD, 2));  // histo's: COACCESSED, REGULAR
  h.locality.push_back(descriptor(0x300000, WARPSIM_INTRA_THREAD, 1));
  hints::LocalityDescriptor nearby = descriptor(0x400000, WARPSIM_INTER_THREAD, -1);
  nearby.sharing = WARPSIM_NEARBY;
  h.locality.push_back(nearby);
  hints::LocalityDescriptor irregular = descriptor(0x500000, WARPSIM_INTER_THREAD, -2);
  irregular.pattern = WARPSIM_IRREGULAR;
  h.locality.push_back(irregular);

  const LaunchPlan plan = planLaunch(h, Dims{8, 16, 1}, 15);
  ASSERT_EQ(plan.descriptors.size(), 5u);
  const DescriptorPlan* p = plan.descriptors.data();
  EXPECT_EQ(p[0].geometry.base, 0x200000u);  // priority 2
  EXPECT_EQ(p[0].prefetch, PrefetchAction::Stride);
  EXPECT_EQ(p[0].cache, CacheAction::None);
  EXPECT_TRUE(p[0].clusters);
  EXPECT_EQ(p[0].strideBytes, 1024u);        // 256 elements of 4 bytes
  EXPECT_EQ(p[1].geometry.base, 0x300000u);
  EXPECT_EQ(p[1].cache, CacheAction::HardPin);
  EXPECT_FALSE(p[1].clusters);
  EXPECT_EQ(p[2].geometry.base, 0x100000u);
  EXPECT_EQ(p[2].cache, CacheAction::Bypass);
  EXPECT_EQ(p[2].prefetch, PrefetchAction::None);
  EXPECT_EQ(p[3].prefetch, PrefetchAction::NextLine);
  EXPECT_EQ(p[4].cache, CacheAction::SoftPin);
  EXPECT_EQ(p[4].prefetch, PrefetchAction::None);
  // Algorithm 1 over the three INTER_THREAD ones: histo's column C-Tiles (1,16,1) give 8
  // clusters on 15 SMs, so they split along y to (1,8,1) (16 clusters); the others, the same
  // shape, merge to the same.
  ASSERT_TRUE(plan.clusterDims.has_value());
  EXPECT_EQ(*plan.clusterDims, (Dims{1, 8, 1}));
}

TEST(LaunchPlan, WithoutInterThreadDescriptorsTheBaselineSchedulerStays) {
  hints::LaunchHints h;
  h.locality.push_back(descriptor(0x100000, WARPSIM_NO_REUSE, 0));
  EXPECT_FALSE(planLaunch(h, Dims{8, 16, 1}, 15).clusterDims.has_value());
  EXPECT_TRUE(planLaunch(hints::LaunchHints{}, Dims{8, 16, 1}, 15).descriptors.empty());
}

TEST(LaunchPlan, ADescriptorThatDoesNotFitTheLaunchIsRefused) {
  hints::LaunchHints h;
  h.locality.push_back(descriptor(0x100000, WARPSIM_INTER_THREAD, 0));
  h.locality[0].compute_data_map = {0, 1, 0};  // rank 0 on x, but the grid has 8 C-Tiles along x
  EXPECT_THROW(planLaunch(h, Dims{8, 16, 1}, 15), std::invalid_argument);
}

}  // namespace
}  // namespace warpsim::mech::locality_descriptor
