// XMem on whole programs: every workload of the suite verifies with both use cases (overlay
// xmem: the L2 following the program's atoms, and the frames of device memory placed by them)
// and with the L1 following them as well, and each launch reports what the policy saw (one entry
// per atom of the program, lookups only where there are atoms to look up) and what the placement
// did (every page it placed is of exactly one kind).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "workloads/testing/run_with_overlays.h"
#include "workloads/testing/suite_params.h"

namespace warpsim {
namespace {

class EquivalenceWithAtoms : public testing::TestWithParam<std::string> {};

void checkPolicy(const nlohmann::json& policy, const runtime::LaunchReport& r, const std::string& where) {
  if (r.atoms == 0) {
    EXPECT_EQ(policy["amu"]["lookups"].get<uint64_t>(), 0u) << where << ": lookups without atoms";
    return;
  }
  ASSERT_TRUE(policy.contains("atoms")) << where;
  EXPECT_EQ(policy["atoms"].size(), r.atoms) << where;
  EXPECT_GT(policy["amu"]["lookups"].get<uint64_t>(), 0u) << where;
}

TEST_P(EquivalenceWithAtoms, VerifiesWithTheCachesFollowingTheAtoms) {
  workloads::testing::runWithEachOverlay(
      GetParam(), "gtx480", {"xmem"}, [&](const std::string& overlay, const runtime::LaunchReport& r) {
        ASSERT_TRUE(r.timing != nullptr);
        const nlohmann::json& memory = (*r.timing)["memory"];
        ASSERT_TRUE(memory.contains("pages")) << overlay << " " << r.kernel;
        const nlohmann::json& pages = memory["pages"];
        EXPECT_EQ(pages["placed"].get<uint64_t>(), pages["isolated_pages"].get<uint64_t>() +
                                                      pages["spread_pages"].get<uint64_t>() +
                                                      pages["unannotated_pages"].get<uint64_t>())
            << r.kernel;
        if (r.atoms == 0) {
          EXPECT_EQ(pages["isolated_pages"].get<uint64_t>(), 0u) << r.kernel;
        }
        ASSERT_TRUE(memory.contains("l2_policy")) << overlay << " " << r.kernel;
        checkPolicy(memory["l2_policy"], r, overlay + " l2 " + r.kernel);
        ASSERT_TRUE(memory.contains("l1d_policy")) << overlay << " " << r.kernel;
        checkPolicy(memory["l1d_policy"], r, overlay + " l1 " + r.kernel);
      },
      {"l1.policy=atoms"});
}

// Named Suite/Equivalence...: the sanitizer stage skips whole-suite runs by that prefix.
INSTANTIATE_TEST_SUITE_P(Suite, EquivalenceWithAtoms, testing::ValuesIn(workloads::testing::workloadNames()),
                         workloads::testing::workloadTestName);

}  // namespace
}  // namespace warpsim
