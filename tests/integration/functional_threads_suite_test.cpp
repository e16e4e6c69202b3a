// Functional mode on several host threads (host.threads, func/parallel_ctas.h) gives exactly
// the result of one thread: every workload at its small size verifies, and with 1, 2 and 3
// threads leaves the same bytes in device memory, prints the same text and reports the same
// launches, statistics included (host timing aside), bit for bit, atomics-heavy workloads too.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "func/testing/compare_memory.h"
#include "runtime/device.h"
#include "runtime/report_json.h"
#include "workloads/testing/run_small.h"
#include "workloads/testing/suite_params.h"
#include "workloads/workload.h"

namespace warpsim {
namespace {

struct ThreadedRun {
  std::unique_ptr<runtime::Device> device;
  std::ostringstream printed;
  workloads::testing::SmallRun run;
};

std::unique_ptr<ThreadedRun> runWithThreads(const workloads::Workload& w, unsigned threads) {
  auto r = std::make_unique<ThreadedRun>();
  runtime::DeviceOptions o;
  o.mode = "functional";
  o.resources = runtime::DeviceOptions::Resources::Estimate;
  o.sets = {"host.threads=" + std::to_string(threads)};
  o.printfOutput = &r->printed;
  r->device = std::make_unique<runtime::Device>(o);
  r->run = workloads::testing::runSmall(*r->device, w);
  return r;
}

// A launch's report without the host's timing.
nlohmann::json reportWithoutHostTime(const runtime::LaunchReport& report) {
  nlohmann::json j = runtime::toJson(report);
  j.erase("wall_seconds");
  j.erase("thread_instructions_per_second");
  return j;
}

class EquivalenceOfThreadCounts : public testing::TestWithParam<std::string> {};

TEST_P(EquivalenceOfThreadCounts, SameResultsWithOneTwoAndThreeThreads) {
  std::vector<workloads::Workload> all = workloads::allWorkloads();
  const workloads::Workload* w = workloads::findWorkload(all, GetParam());
  ASSERT_NE(w, nullptr);
  const auto one = runWithThreads(*w, 1);
  ASSERT_EQ(one->run.error, "");
  EXPECT_TRUE(one->run.outcome.passed) << one->run.outcome.detail;
  for (unsigned threads : {2u, 3u}) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    const auto many = runWithThreads(*w, threads);
    ASSERT_EQ(many->run.error, "");
    EXPECT_TRUE(many->run.outcome.passed) << many->run.outcome.detail;
    EXPECT_EQ(many->run.outcome.detail, one->run.outcome.detail);
    EXPECT_EQ(many->printed.str(), one->printed.str());
    ASSERT_EQ(many->run.reports.size(), one->run.reports.size());
    for (size_t i = 0; i < one->run.reports.size(); ++i) {
      EXPECT_EQ(reportWithoutHostTime(many->run.reports[i]), reportWithoutHostTime(one->run.reports[i]))
          << "launch " << i << " (" << one->run.reports[i].kernel << ")";
    }
    EXPECT_EQ(func::testing::compareMemory(one->device->memory(), many->device->memory()), "");
  }
}

INSTANTIATE_TEST_SUITE_P(Suite, EquivalenceOfThreadCounts, testing::ValuesIn(workloads::testing::workloadNames()),
                         workloads::testing::workloadTestName);

}  // namespace
}  // namespace warpsim
