#include "timing/stats_json.h"

#include <gtest/gtest.h>

#include "timing/deadlock_detector.h"
#include "timing/stats_totals.h"

namespace warpsim::timing {
namespace {

TEST(StatsJson, AddIntoSumsLeavesElementWise) {
  nlohmann::json sum = nlohmann::json::object();
  addInto(sum, {{"issue", {{"issued", 3}, {"empty", 1}}}, {"per", {1, 2}}, {"name", "a"}});
  addInto(sum, {{"issue", {{"issued", 4}, {"memory", 2}}}, {"per", {10, 20, 30}}, {"name", "b"},
                {"rate", 0.5}});
  EXPECT_EQ(sum["issue"]["issued"], 7);
  EXPECT_EQ(sum["issue"]["empty"], 1);
  EXPECT_EQ(sum["issue"]["memory"], 2);
  EXPECT_EQ(sum["per"], nlohmann::json({11, 22, 30}));
  EXPECT_EQ(sum["name"], "a");
  EXPECT_DOUBLE_EQ(sum["rate"].get<double>(), 0.5);
}

TEST(StatsJson, CounterFollowsAPathAndDefaultsToZero) {
  nlohmann::json t = {{"l2", {{"hits", 5}}}, {"x", "text"}};
  EXPECT_EQ(counter(t, {"l2", "hits"}), 5u);
  EXPECT_EQ(counter(t, {"l2", "misses"}), 0u);
  EXPECT_EQ(counter(t, {"x"}), 0u);
  EXPECT_EQ(counter(t, {"x", "y"}), 0u);
}

TEST(StatsTotals, RatesComeFromSummedCountersOccupancyFromCycleWeights) {
  nlohmann::json a = {{"cycles", 100}, {"warp_instructions", 50}, {"thread_instructions", 1600},
                      {"ipc", 0.5}, {"occupancy", {{"achieved", 0.5}, {"theoretical", 1.0}}},
                      {"memory", {{"l1d", {{"hits", 1}, {"accesses", 4}}}}},
                      {"samples", {{"cycle", {1}}}}};
  nlohmann::json b = {{"cycles", 300}, {"warp_instructions", 150}, {"thread_instructions", 4800},
                      {"ipc", 0.5}, {"occupancy", {{"achieved", 0.25}, {"theoretical", 0.5}}},
                      {"memory", {{"l1d", {{"hits", 3}, {"accesses", 4}}}}}};
  nlohmann::json t = totalLaunchStats({&a, &b});
  EXPECT_EQ(t["cycles"], 400);
  EXPECT_DOUBLE_EQ(t["ipc"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(t["thread_ipc"].get<double>(), 16.0);
  EXPECT_DOUBLE_EQ(t["occupancy"]["achieved"].get<double>(), (50.0 + 75.0) / 400.0);
  EXPECT_DOUBLE_EQ(t["occupancy"]["theoretical"].get<double>(), (100.0 + 150.0) / 400.0);
  EXPECT_DOUBLE_EQ(t["l1d_hit_rate"].get<double>(), 0.5);
  EXPECT_FALSE(t.contains("samples"));
  EXPECT_FALSE(t.contains("numa"));  // one module: no NUMA rates
}

// Two launches on a GPU of two modules: the rates come from the summed counters.
TEST(StatsTotals, NumaRatesFromSummedCounters) {
  auto launch = [](uint64_t local, uint64_t remote, uint64_t bytes, uint64_t busy, double ns) {
    nlohmann::json numa = {{"local_requests", local},
                           {"remote_requests", remote},
                           {"zone_dram_bytes", {bytes, 2 * bytes}},
                           {"zone_dram_busy_cycles", {busy, busy}},
                           {"zone_dram_cycles", {100, 100}}};
    nlohmann::json l = {{"cycles", 10}, {"simulated_ns", ns}, {"memory", {{"numa", numa}}}};
    addNumaRates(l);
    return l;
  };
  const nlohmann::json a = launch(3, 1, 100, 10, 10.0), b = launch(1, 3, 300, 30, 30.0);
  EXPECT_DOUBLE_EQ(a["numa"]["access_efficiency"].get<double>(), 0.75);
  EXPECT_DOUBLE_EQ(a["numa"]["zone_dram_gbps"][1].get<double>(), 20.0);  // 200 B in 10 ns
  const nlohmann::json t = totalLaunchStats({&a, &b});
  EXPECT_DOUBLE_EQ(t["numa"]["access_efficiency"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(t["numa"]["zone_dram_gbps"][0].get<double>(), 10.0);  // 400 B in 40 ns
  EXPECT_DOUBLE_EQ(t["numa"]["zone_dram_utilisation"][1].get<double>(), 0.2);  // 40 of 200
}

TEST(DeadlockDetector, StuckAfterLimitCyclesWithoutProgress) {
  DeadlockDetector d(100);
  d.begin(1000);
  d.observe(1050, 0);
  EXPECT_FALSE(d.stuck(1099));
  EXPECT_TRUE(d.stuck(1100));
  d.observe(1100, 7);  // progress restarts the count
  EXPECT_FALSE(d.stuck(1150));
  EXPECT_EQ(d.deadline(), 1200u);
  DeadlockDetector off(0);
  off.begin(0);
  EXPECT_FALSE(off.stuck(1u << 30));
  EXPECT_EQ(off.deadline(), kNever);
}

}  // namespace
}  // namespace warpsim::timing
