// Turning G-Scalar on changes no program output: every workload of the suite at its small size
// on gtx480, with the mechanism in verification mode (every operand read checked against an
// uncompressed shadow, every scalar result checked uniform), verifies against its CPU reference,
// issues the same instructions and leaves the same device memory as the baseline register file.
#include <gtest/gtest.h>

#include "func/testing/compare_memory.h"
#include "runtime/device.h"
#include "workloads/testing/run_small.h"
#include "workloads/testing/suite_params.h"
#include "workloads/workload.h"

namespace warpsim {
namespace {

workloads::testing::SmallRun runOn(const std::vector<std::string>& overlays, const workloads::Workload& w,
                                    std::unique_ptr<runtime::Device>& device) {
  runtime::DeviceOptions o;
  o.resources = runtime::DeviceOptions::Resources::Estimate;
  o.config = "gtx480";
  o.overlays = overlays;
  if (!overlays.empty()) o.sets = {"sm.register_file.verify=true"};
  device = std::make_unique<runtime::Device>(o);
  return workloads::testing::runSmall(*device, w);
}

class EquivalenceWithGScalar : public testing::TestWithParam<std::string> {};

TEST_P(EquivalenceWithGScalar, SameResultsAsTheBaselineRegisterFile) {
  std::vector<workloads::Workload> all = workloads::allWorkloads();
  const workloads::Workload* w = workloads::findWorkload(all, GetParam());
  ASSERT_NE(w, nullptr);
  std::unique_ptr<runtime::Device> baseDevice, gsDevice;
  const workloads::testing::SmallRun base = runOn({}, *w, baseDevice);
  const workloads::testing::SmallRun gs = runOn({"gscalar"}, *w, gsDevice);
  ASSERT_EQ(base.error, "");
  ASSERT_EQ(gs.error, "");
  EXPECT_TRUE(gs.outcome.passed) << gs.outcome.detail;
  ASSERT_EQ(base.reports.size(), gs.reports.size());
  for (size_t i = 0; i < base.reports.size(); ++i) {
    EXPECT_EQ(base.reports[i].warpInstructions(), gs.reports[i].warpInstructions()) << "launch " << i;
    EXPECT_EQ(base.reports[i].threadInstructions(), gs.reports[i].threadInstructions()) << "launch " << i;
  }
  // kmeans adds floats with atomics: the order (timing) changes the last bits; verified above.
  if (GetParam() != "kmeans") {
    EXPECT_EQ(func::testing::compareMemory(baseDevice->memory(), gsDevice->memory()), "");
  }
}

// Named Suite/Equivalence...: the sanitizer stage skips whole-suite runs by that prefix.
INSTANTIATE_TEST_SUITE_P(Suite, EquivalenceWithGScalar,
                         testing::ValuesIn(workloads::testing::workloadNames()),
                         workloads::testing::workloadTestName);

}  // namespace
}  // namespace warpsim
