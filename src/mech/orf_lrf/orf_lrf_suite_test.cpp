// Every workload of the suite, at its small size on fermi-rfh, verifies against its CPU
// reference with the software-managed ORF (overlay orf: 3 entries, two-level scheduler demoting at
// strand starts) and with the split LRF in front (orf-lrf), and no operand is ever read from an
// upper-level entry that does not hold it, or from the MRF when its value was written only above (invalid_reads stays 0).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <map>

#include "workloads/testing/run_with_overlays.h"
#include "workloads/testing/suite_params.h"

namespace warpsim {
namespace {

class EquivalenceWithSoftwareHierarchy : public testing::TestWithParam<std::string> {};

TEST_P(EquivalenceWithSoftwareHierarchy, VerifiesWithEverySoftwareHierarchyAndNeverReadsAnInvalidEntry) {
  std::map<std::string, uint64_t> operands{{"orf", 0}, {"orf-lrf", 0}};
  workloads::testing::runWithEachOverlay(
      GetParam(), "fermi-rfh", {"orf", "orf-lrf"},
      [&](const std::string& overlay, const runtime::LaunchReport& r) {
        const nlohmann::json& h = (*r.timing)["sm"]["register_file"]["hierarchy"];
        EXPECT_EQ(h["invalid_reads"].get<uint64_t>(), 0u) << overlay << " launch " << r.kernel;
        operands[overlay] += h["orf"]["operand_reads"].get<uint64_t>();
      });
  for (const auto& [overlay, count] : operands)
    EXPECT_GT(count, 0u) << overlay << ": the ORF served no operand";
}

// Named Suite/Equivalence...: the sanitizer stage skips whole-suite runs by that prefix.
INSTANTIATE_TEST_SUITE_P(Suite, EquivalenceWithSoftwareHierarchy,
                         testing::ValuesIn(workloads::testing::workloadNames()),
                         workloads::testing::workloadTestName);

}  // namespace
}  // namespace warpsim
