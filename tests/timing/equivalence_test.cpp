// Timing mode computes exactly what functional mode computes: every workload at its small size,
// on a Fermi-class and a Volta-class configuration, verifies against its CPU reference, issues
// the same instructions per launch and leaves the same bytes in every live device allocation
// (except where the result depends on the order of atomics, see orderDependent).
#include <gtest/gtest.h>

#include <tuple>

#include <nlohmann/json.hpp>

#include "func/device_memory.h"
#include "func/testing/compare_memory.h"
#include "runtime/device.h"
#include "workloads/testing/run_small.h"
#include "workloads/workload.h"

namespace warpsim {
namespace {

using func::testing::compareMemory;
using workloads::testing::runSmall;

// Workloads whose results depend on the order in which atomics from different CTAs complete:
// kmeans adds floats with atomicAdd, and float addition is not associative, so the cluster sums
// differ in their last bits between any two execution orders (its verification allows that).
bool orderDependent(const std::string& workload) { return workload == "kmeans"; }

using Param = std::tuple<std::string, std::string>;  // workload, configuration

class Equivalence : public testing::TestWithParam<Param> {};

TEST_P(Equivalence, SameResultsAsFunctionalMode) {
  const auto& [name, config] = GetParam();
  std::vector<workloads::Workload> all = workloads::allWorkloads();
  const workloads::Workload* w = workloads::findWorkload(all, name);
  ASSERT_NE(w, nullptr);

  runtime::DeviceOptions functionalOptions;
  functionalOptions.mode = "functional";
  functionalOptions.resources = runtime::DeviceOptions::Resources::Estimate;
  runtime::Device functional(functionalOptions);
  runtime::DeviceOptions timingOptions = functionalOptions;
  timingOptions.mode = "timing";
  timingOptions.config = config;
  runtime::Device timing(timingOptions);

  const workloads::testing::SmallRun f = runSmall(functional, *w);
  const workloads::testing::SmallRun t = runSmall(timing, *w);
  ASSERT_EQ(f.error, "");
  ASSERT_EQ(t.error, "") << name << " on " << config;
  EXPECT_TRUE(f.outcome.passed) << f.outcome.detail;
  EXPECT_TRUE(t.outcome.passed) << name << " on " << config << ": " << t.outcome.detail;
  ASSERT_EQ(f.reports.size(), t.reports.size());
  for (size_t i = 0; i < f.reports.size(); ++i) {
    EXPECT_EQ(f.reports[i].warpInstructions(), t.reports[i].warpInstructions())
        << "launch " << i << " (" << f.reports[i].kernel << ")";
    EXPECT_EQ(f.reports[i].threadInstructions(), t.reports[i].threadInstructions())
        << "launch " << i << " (" << f.reports[i].kernel << ")";
    EXPECT_GT(t.reports[i].cycles, 0u);
    ASSERT_TRUE(t.reports[i].timing);
    EXPECT_EQ((*t.reports[i].timing)["cycles"].get<uint64_t>(), t.reports[i].cycles);
  }
  if (!orderDependent(name)) {
    EXPECT_EQ(compareMemory(functional.memory(), timing.memory()), "");
  }
}

std::vector<Param> params() {
  std::vector<Param> out;
  for (const workloads::Workload& w : workloads::allWorkloads()) {
    // mcm-4gpm: four modules, requests crossing module links, xor zone placement.
    for (const char* config : {"gtx480", "v100", "mcm-4gpm"}) out.emplace_back(w.name, config);
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(Suite, Equivalence, testing::ValuesIn(params()),
                         [](const testing::TestParamInfo<Param>& info) {
                           std::string id = std::get<0>(info.param) + "_" + std::get<1>(info.param);
                           for (char& c : id) {
                             if (c == '-') c = '_';
                           }
                           return id;
                         });

}  // namespace
}  // namespace warpsim
