// Every workload of the suite at its small size verifies on each AVC configuration at half its
// spill-free register count (the paper's r = 0.5 rbase, where every workload spills), and on
// configuration 2 also at the default register budget, and the AVC's correctness check (every
// local load's value from the AVC, L1 and memory state against the functional value) finds no
// mismatch. (Configurations 1 and 3 differ from 2 only in sizes; at the default budget few
// workloads touch local memory, so one configuration covers it.)
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "runtime/device.h"
#include "timing/stats_json.h"
#include "workloads/testing/run_small.h"
#include "workloads/testing/suite_params.h"
#include "workloads/workload.h"

namespace warpsim {
namespace {

workloads::testing::SmallRun runOn(const std::string& overlay, const std::string& budget,
                                   const workloads::Workload& w, const char* mode = "timing") {
  runtime::DeviceOptions o;
  o.mode = mode;
  o.resources = runtime::DeviceOptions::Resources::Estimate;
  o.config = "gtx480";
  o.overlays = {overlay};
  o.sets = {"compiler.registers=\"" + budget + "\""};
  runtime::Device device(o);
  return workloads::testing::runSmall(device, w);
}

// r = 0.5 rbase: half the most registers a kernel uses without spilling, but no fewer than the
// smallest budget every kernel accepts. (The allocation is the compiler's: a functional run
// reports it as a timing run does.)
std::string halfBase(const workloads::Workload& w) {
  const workloads::testing::SmallRun minimal = runOn("avc-baseline", "minimal", w, "functional");
  uint32_t base = 0, floor = 1;
  for (const runtime::LaunchReport& r : minimal.reports) {
    if (!r.allocation) continue;
    base = std::max(base, r.allocation->registers);
    floor = std::max(floor, r.allocation->feasibleMinimum);
  }
  return std::to_string(std::max((base + 1) / 2, floor));
}

class EquivalenceWithAvc : public testing::TestWithParam<std::string> {};

TEST_P(EquivalenceWithAvc, VerifiesWithNoMismatchOnEveryConfiguration) {
  std::vector<workloads::Workload> all = workloads::allWorkloads();
  const workloads::Workload* w = workloads::findWorkload(all, GetParam());
  ASSERT_NE(w, nullptr);
  const std::string half = halfBase(*w);
  const std::pair<const char*, std::string> runs[] = {
      {"avc-baseline", half}, {"avc-1", half}, {"avc-2", half}, {"avc-3", half}, {"avc-2", "off"}};
  for (const auto& [overlay, budget] : runs) {
    SCOPED_TRACE(std::string(overlay) + " at " + budget + " registers");
    const workloads::testing::SmallRun run = runOn(overlay, budget, *w);
    ASSERT_EQ(run.error, "");
    EXPECT_TRUE(run.outcome.passed) << run.outcome.detail;
    uint64_t checked = 0, mismatches = 0;
    for (const runtime::LaunchReport& r : run.reports) {
      ASSERT_TRUE(r.timing);
      checked += timing::counter(*r.timing, {"memory", "local_path", "check", "checked_words"});
      mismatches += timing::counter(*r.timing, {"memory", "local_path", "check", "mismatches"});
    }
    EXPECT_EQ(mismatches, 0u) << checked << " words checked";
  }
}

INSTANTIATE_TEST_SUITE_P(Suite, EquivalenceWithAvc,
                         testing::ValuesIn(workloads::testing::workloadNames()),
                         workloads::testing::workloadTestName);

}  // namespace
}  // namespace warpsim
