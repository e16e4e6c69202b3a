// Every workload of the suite, at its small size on fermi-rfh, verifies against its CPU
// reference with the hardware register file cache (overlay rfc: two-level scheduler, liveness
// hints) and with the three-level hardware hierarchy (rfc-3level), and no operand is ever read
// from a main-register-file copy that a liveness hint let go stale (invalid_reads stays 0).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "runtime/device.h"
#include "workloads/testing/run_small.h"
#include "workloads/testing/suite_params.h"
#include "workloads/workload.h"

namespace warpsim {
namespace {

class EquivalenceWithRegisterFileCache : public testing::TestWithParam<std::string> {};

TEST_P(EquivalenceWithRegisterFileCache, VerifiesWithEveryHardwareHierarchyAndNeverReadsAStaleValue) {
  std::vector<workloads::Workload> all = workloads::allWorkloads();
  const workloads::Workload* w = workloads::findWorkload(all, GetParam());
  ASSERT_NE(w, nullptr);
  for (const char* overlay : {"rfc", "rfc-3level"}) {
    runtime::DeviceOptions o;
    o.resources = runtime::DeviceOptions::Resources::Estimate;
    o.config = "fermi-rfh";
    o.overlays = {overlay};
    runtime::Device device(o);
    const workloads::testing::SmallRun run = workloads::testing::runSmall(device, *w);
    ASSERT_EQ(run.error, "") << overlay;
    EXPECT_TRUE(run.outcome.passed) << overlay << ": " << run.outcome.detail;
    uint64_t operands = 0;
    for (const runtime::LaunchReport& r : run.reports) {
      const nlohmann::json& h = (*r.timing)["sm"]["register_file"]["hierarchy"];
      EXPECT_EQ(h["invalid_reads"].get<uint64_t>(), 0u) << overlay << " launch " << r.kernel;
      operands += h["rfc"]["operand_reads"].get<uint64_t>();
    }
    EXPECT_GT(operands, 0u) << overlay << ": the RFC served no operand";
  }
}

// Named Suite/Equivalence...: the sanitizer stage skips whole-suite runs by that prefix.
INSTANTIATE_TEST_SUITE_P(Suite, EquivalenceWithRegisterFileCache,
                         testing::ValuesIn(workloads::testing::workloadNames()),
                         workloads::testing::workloadTestName);

}  // namespace
}  // namespace warpsim
