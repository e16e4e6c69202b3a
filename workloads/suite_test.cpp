// Every workload at its small size through the functional simulator, verified against its CPU
// reference; plus the catalogue's own invariants.
#include <gtest/gtest.h>

#include <set>

#include "runtime/device.h"
#include "runtime/error.h"
#include "workloads/testing/suite_params.h"
#include "workloads/workload.h"

namespace warpsim::workloads {
namespace {

Workload workloadNamed(const std::string& name) {
  for (Workload& w : allWorkloads()) {
    if (w.name == name) return w;
  }
  throw std::runtime_error("no workload " + name);
}

class WorkloadSmall : public ::testing::TestWithParam<std::string> {};

TEST_P(WorkloadSmall, VerifiesAgainstCpuReference) {
  Workload w = workloadNamed(GetParam());
  runtime::DeviceOptions options;
  options.resources = runtime::DeviceOptions::Resources::Estimate;  // no ptxas per module
  runtime::Device device(options);
  std::vector<runtime::LaunchReport> reports;
  WorkloadContext ctx{device, w.smallSize, 1, reports};
  Outcome outcome;
  try {
    outcome = w.run(ctx);
  } catch (const runtime::LaunchError& e) {
    FAIL() << w.name << ": " << e.details();
  }
  uint64_t threadInstructions = 0;
  for (const runtime::LaunchReport& r : reports) threadInstructions += r.threadInstructions();
  EXPECT_TRUE(outcome.passed) << w.name << ": " << outcome.detail;
  EXPECT_FALSE(reports.empty());
  EXPECT_GT(threadInstructions, 0u);
  RecordProperty("thread_instructions", std::to_string(threadInstructions));
}

INSTANTIATE_TEST_SUITE_P(Suite, WorkloadSmall, ::testing::ValuesIn(testing::workloadNames()),
                         testing::workloadTestName);

TEST(WorkloadCatalogue, NamesUniqueCategoriesKnownSizesOrdered) {
  const std::set<std::string> categories = {"streaming", "dense",      "reduction",
                                            "stencil",   "science",    "irregular",
                                            "dp",        "divergence", "private"};
  std::set<std::string> names;
  for (const Workload& w : allWorkloads()) {
    EXPECT_TRUE(names.insert(w.name).second) << w.name << " listed twice";
    EXPECT_TRUE(categories.count(w.category)) << w.name << ": category " << w.category;
    EXPECT_FALSE(w.description.empty()) << w.name;
    EXPECT_FALSE(w.sizeMeaning.empty()) << w.name;
    EXPECT_LT(w.smallSize, w.defaultSize) << w.name;
    EXPECT_LT(w.defaultSize, w.largeSize) << w.name;
    EXPECT_LE(w.largeSize, w.maxSize) << w.name;
    EXPECT_EQ(presetSize(w, SizePreset::Small), w.smallSize);
    EXPECT_EQ(presetSize(w, SizePreset::Large), w.largeSize);
    EXPECT_NO_THROW(workloadPtx(w.name)) << w.name << ": PTX not embedded";
    EXPECT_TRUE(w.run) << w.name;
  }
}

TEST(WorkloadCatalogue, FindsByNameAndHasTheDefault) {
  std::vector<Workload> all = allWorkloads();
  const Workload* w = findWorkload(all, "spill");
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->category, "private");
  EXPECT_EQ(findWorkload(all, "no-such-workload"), nullptr);
  EXPECT_NE(findWorkload(all, kDefaultWorkload), nullptr);
}

TEST(WorkloadCatalogue, SizePresetNamesRoundTrip) {
  for (SizePreset p : {SizePreset::Small, SizePreset::Default, SizePreset::Large}) {
    EXPECT_EQ(parsePreset(presetName(p)), p);
  }
  EXPECT_EQ(parsePreset("huge"), std::nullopt);
  EXPECT_EQ(parsePreset(""), std::nullopt);
  EXPECT_EQ(parsePreset("Small"), std::nullopt);  // case matters
}

TEST(WorkloadCatalogue, UnknownPtxNameThrows) {
  EXPECT_THROW(workloadPtx("no-such-workload"), runtime::Error);
}

}  // namespace
}  // namespace warpsim::workloads
