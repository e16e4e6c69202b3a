// The clustering CTA schedulers on whole programs: every workload of the suite verifies with
// LDesc-Sched (clusters from descriptors; the suite's programs give none, so CTAs go as
// round-robin places them) and with BCS (pairs of consecutive CTAs on one SM), and the launches
// report the clusters they used.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "workloads/testing/run_with_overlays.h"
#include "workloads/testing/suite_params.h"

namespace warpsim {
namespace {

class EquivalenceWithClusterScheduling : public testing::TestWithParam<std::string> {};

TEST_P(EquivalenceWithClusterScheduling, VerifiesWithLDescSchedAndBcs) {
  workloads::testing::runWithEachOverlay(
      GetParam(), "gtx480", {"ldesc-sched", "bcs"}, [&](const std::string& overlay, const runtime::LaunchReport& r) {
        ASSERT_TRUE(r.timing != nullptr);
        const nlohmann::json& s = (*r.timing)["cta_scheduler"];
        const uint64_t ctas = r.grid.count();
        // Clusters of one CTA without descriptors; pairs (the last alone when odd) with BCS.
        EXPECT_EQ(s["clusters"].get<uint64_t>(), overlay == "bcs" ? (ctas + 1) / 2 : ctas) << overlay << " "
                                                                                            << r.kernel;
      });
}

// Named Suite/Equivalence...: the sanitizer stage skips whole-suite runs by that prefix.
INSTANTIATE_TEST_SUITE_P(Suite, EquivalenceWithClusterScheduling,
                         testing::ValuesIn(workloads::testing::workloadNames()),
                         workloads::testing::workloadTestName);

}  // namespace
}  // namespace warpsim
