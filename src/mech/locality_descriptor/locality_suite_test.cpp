// The Locality Descriptor's policies on whole programs: every workload of the suite verifies
// with each of the study's single-chip configurations (BCS, LDesc-Sched, LDesc-Pref,
// LDesc-Cache, LDesc; LDesc on every workload, two others per workload in turn: see
// suiteVariants), and the launches report what they used: the clusters (pairs with BCS,
// Algorithm 1's from the descriptors otherwise, one CTA each without descriptors) and, with the
// L1 policy, one statistics entry per descriptor of the launch.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "workloads/testing/run_with_overlays.h"
#include "workloads/testing/suite_params.h"

namespace warpsim {
namespace {

uint64_t ceilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

class EquivalenceWithLocalityDescriptors : public testing::TestWithParam<std::string> {};

TEST_P(EquivalenceWithLocalityDescriptors, VerifiesWithEveryConfiguration) {
  workloads::testing::runWithEachOverlay(
      GetParam(), "gtx480",
      workloads::testing::suiteVariants(GetParam(), {"ldesc"},
                                        {"bcs", "ldesc-sched", "ldesc-pref", "ldesc-cache"}, 2),
      [&](const std::string& overlay, const runtime::LaunchReport& r) {
        ASSERT_TRUE(r.timing != nullptr);
        const nlohmann::json& t = *r.timing;
        if (overlay == "bcs") {
          EXPECT_EQ(t["cta_scheduler"]["clusters"].get<uint64_t>(), (r.grid.count() + 1) / 2) << r.kernel;
        } else if (overlay == "ldesc-sched" || overlay == "ldesc") {
          const nlohmann::json& dims = t["cta_scheduler"]["cluster_dims"];
          const uint64_t clusters = ceilDiv(r.grid.x, dims[0].get<uint64_t>()) *
                                    ceilDiv(r.grid.y, dims[1].get<uint64_t>()) *
                                    ceilDiv(r.grid.z, dims[2].get<uint64_t>());
          EXPECT_EQ(t["cta_scheduler"]["clusters"].get<uint64_t>(), clusters) << overlay << " " << r.kernel;
          if (r.localityDescriptors == 0) {
            EXPECT_EQ(clusters, r.grid.count()) << overlay << " " << r.kernel;
          }
        }
        if (overlay != "bcs" && overlay != "ldesc-sched" && r.localityDescriptors != 0) {
          const nlohmann::json& policy = t["memory"]["l1d_policy"];
          ASSERT_TRUE(policy.contains("descriptors")) << overlay << " " << r.kernel;
          EXPECT_EQ(policy["descriptors"].size(), r.localityDescriptors) << overlay << " " << r.kernel;
        }
      });
}

// The multi-module GPU: LDesc with everything (zone bits and CTA partition from Algorithm 2,
// clusters, the L1 policies) on every workload; FirstTouch-Distrib or LDesc-Placement in turn.
class EquivalenceOnMultiModuleGpu : public testing::TestWithParam<std::string> {};

TEST_P(EquivalenceOnMultiModuleGpu, VerifiesWithEveryNumaConfiguration) {
  workloads::testing::runWithEachOverlay(
      GetParam(), "mcm-4gpm",
      workloads::testing::suiteVariants(GetParam(), {"ldesc-numa+ldesc"},
                                        {"numa-first-touch", "ldesc-placement"}),
      [&](const std::string& overlay, const runtime::LaunchReport& r) {
        ASSERT_TRUE(r.timing != nullptr);
        const nlohmann::json& numa = (*r.timing)["memory"]["numa"];
        ASSERT_TRUE(numa.contains("zone_requests")) << overlay << " " << r.kernel;
        if (overlay != "numa-first-touch" && r.localityDescriptors != 0) {
          EXPECT_TRUE(numa.contains("placement")) << overlay << " " << r.kernel;
        }
      });
}

// Named Suite/Equivalence...: the sanitizer stage skips whole-suite runs by that prefix.
INSTANTIATE_TEST_SUITE_P(Suite, EquivalenceWithLocalityDescriptors,
                         testing::ValuesIn(workloads::testing::workloadNames()),
                         workloads::testing::workloadTestName);
INSTANTIATE_TEST_SUITE_P(Suite, EquivalenceOnMultiModuleGpu,
                         testing::ValuesIn(workloads::testing::workloadNames()),
                         workloads::testing::workloadTestName);

}  // namespace
}  // namespace warpsim
