// Every workload of the suite, at its small size on fermi-rfh, verifies against its CPU
// reference with the hardware register file cache (overlay rfc: two-level scheduler, liveness
// hints) and with the three-level hardware hierarchy (rfc-3level), and no operand is ever read
// from a main-register-file copy that a liveness hint let go stale (invalid_reads stays 0).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <map>

#include "workloads/testing/run_with_overlays.h"
#include "workloads/testing/suite_params.h"

namespace warpsim {
namespace {

class EquivalenceWithRegisterFileCache : public testing::TestWithParam<std::string> {};

TEST_P(EquivalenceWithRegisterFileCache, VerifiesWithEveryHardwareHierarchyAndNeverReadsAStaleValue) {
  std::map<std::string, uint64_t> operands{{"rfc", 0}, {"rfc-3level", 0}};
  workloads::testing::runWithEachOverlay(
      GetParam(), "fermi-rfh", {"rfc", "rfc-3level"},
      [&](const std::string& overlay, const runtime::LaunchReport& r) {
        const nlohmann::json& h = (*r.timing)["sm"]["register_file"]["hierarchy"];
        EXPECT_EQ(h["invalid_reads"].get<uint64_t>(), 0u) << overlay << " launch " << r.kernel;
        operands[overlay] += h["rfc"]["operand_reads"].get<uint64_t>();
      });
  for (const auto& [overlay, count] : operands)
    EXPECT_GT(count, 0u) << overlay << ": the RFC served no operand";
}

// Named Suite/Equivalence...: the sanitizer stage skips whole-suite runs by that prefix.
INSTANTIATE_TEST_SUITE_P(Suite, EquivalenceWithRegisterFileCache,
                         testing::ValuesIn(workloads::testing::workloadNames()),
                         workloads::testing::workloadTestName);

}  // namespace
}  // namespace warpsim
