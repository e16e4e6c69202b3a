// Determinism and internal consistency of the timing model: identical runs give identical
// cycles and statistics; skipping idle cycles changes nothing; the statistics add up.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "timing_test_support.h"
#include "workloads/workload.h"

namespace warpsim::test {
namespace {

std::vector<runtime::LaunchReport> runWorkload(const std::string& name,
                                               const runtime::DeviceOptions& options) {
  std::vector<workloads::Workload> all = workloads::allWorkloads();
  const workloads::Workload* w = workloads::findWorkload(all, name);
  runtime::Device device(options);
  std::vector<runtime::LaunchReport> reports;
  workloads::WorkloadContext ctx{device, w->smallSize, 1, reports};
  EXPECT_TRUE(w->run(ctx).passed) << name;
  return reports;
}

void expectSameTiming(const std::vector<runtime::LaunchReport>& a,
                      const std::vector<runtime::LaunchReport>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].cycles, b[i].cycles) << "launch " << i;
    ASSERT_TRUE(a[i].timing && b[i].timing);
    EXPECT_EQ(a[i].timing->dump(), b[i].timing->dump()) << "launch " << i;
  }
}

TEST(TimingDeterminism, TwoRunsGiveIdenticalCyclesAndStatistics) {
  for (const char* workload : {"sgemm-tiled", "histogram", "bfs"}) {
    SCOPED_TRACE(workload);
    expectSameTiming(runWorkload(workload, timingOptions()), runWorkload(workload, timingOptions()));
  }
}

TEST(TimingDeterminism, SkippingIdleCyclesChangesNothing) {
  for (const char* workload : {"vecadd", "reduce-tree", "gaussian"}) {
    SCOPED_TRACE(workload);
    expectSameTiming(runWorkload(workload, timingOptions()),
                     runWorkload(workload, timingOptions("gtx480", {"gpu.skip_idle_cycles=false"})));
  }
}

TEST(TimingStatistics, CountersAddUp) {
  runtime::Device gpu(timingOptions("gtx480", {"gpu.sample_interval=500"}));
  runtime::Module m = gpu.loadModule(kVectorAdd, "vadd.ptx");
  const uint32_t n = 40000;
  std::vector<float> a(n, 1.5f), b(n, 2.0f);
  uint64_t da = gpu.upload(a), db = gpu.upload(b), dc = gpu.malloc(n * 4);
  runtime::LaunchReport r = gpu.launch(m.kernel("vadd"), {(n + 255) / 256}, {256}, 0, da, db, dc, n);
  ASSERT_TRUE(r.timing);
  const nlohmann::json& t = *r.timing;
  EXPECT_EQ(t["cycles"].get<uint64_t>(), r.cycles);
  EXPECT_EQ(t["warp_instructions"].get<uint64_t>(), r.result.warpInstructions);
  EXPECT_EQ(t["sm"]["warp_instructions"].get<uint64_t>(), r.result.warpInstructions);
  EXPECT_EQ(t["sm"]["thread_instructions"].get<uint64_t>(), r.result.threadInstructions);
  EXPECT_EQ(r.stats.warpInstructions, r.result.warpInstructions);  // the observer saw them all
  EXPECT_DOUBLE_EQ(t["ipc"].get<double>(),
                   static_cast<double>(r.result.warpInstructions) / static_cast<double>(r.cycles));
  // 1.4 GHz: cycle c starts at floor(c * 10^6 / 1400) ps.
  EXPECT_DOUBLE_EQ(r.simulatedSeconds * 1e12, static_cast<double>(r.cycles * 1000000 / 1400))
      << r.cycles;
  // Every scheduler of every SM charges each cycle of the launch to one issue category.
  uint64_t slots = 0;
  for (const auto& [name, count] : t["issue"].items()) slots += count.get<uint64_t>();
  EXPECT_EQ(slots, uint64_t{15} * 2 * r.cycles);
  EXPECT_EQ(t["issue"]["issued"].get<uint64_t>(), r.result.warpInstructions);
  ASSERT_EQ(t["issue_per_sm"].size(), 15u);
  uint64_t issuedPerSm = 0;
  for (const nlohmann::json& sm : t["issue_per_sm"]) issuedPerSm += sm["issued"].get<uint64_t>();
  EXPECT_EQ(issuedPerSm, r.result.warpInstructions);
  // 157 CTAs of 8 warps: the 48 warp slots hold 6 of them; registers (16 per thread, 4096 per
  // CTA) would allow 8, and so would the CTA slots.
  EXPECT_EQ(t["occupancy"]["ctas_per_sm"].get<uint32_t>(), 6u);
  EXPECT_EQ(t["occupancy"]["limited_by"].get<std::string>(), "warps");
  EXPECT_DOUBLE_EQ(t["occupancy"]["theoretical"].get<double>(), 1.0);
  EXPECT_GT(t["occupancy"]["achieved"].get<double>(), 0.0);
  EXPECT_LE(t["occupancy"]["achieved"].get<double>(), 1.0);
  EXPECT_EQ(t["resources"]["ctas_admitted"].get<uint64_t>(), (n + 255) / 256);
  // Time series: one row per 500 cycles, cumulative counters that never decrease.
  const nlohmann::json& s = t["samples"];
  ASSERT_EQ(s["cycle"].size(), r.cycles / 500 - (r.cycles % 500 == 0 ? 1 : 0));
  for (size_t i = 1; i < s["cycle"].size(); ++i) {
    EXPECT_EQ(s["cycle"][i].get<uint64_t>(), 500 * (i + 1));
    EXPECT_GE(s["warp_instructions"][i].get<uint64_t>(), s["warp_instructions"][i - 1].get<uint64_t>());
    EXPECT_GE(s["dram_bursts"][i].get<uint64_t>(), s["dram_bursts"][i - 1].get<uint64_t>());
  }
  EXPECT_LE(s["warp_instructions"].back().get<uint64_t>(), r.result.warpInstructions);
  EXPECT_EQ(gpu.download<float>(dc, n), std::vector<float>(n, 3.5f));
}

}  // namespace
}  // namespace warpsim::test

namespace warpsim::test {
namespace {

// Round-robin CTA placement seen from the per-SM issue counts: with 2 SMs, CTAs 0 and 2 run on
// SM 0 and CTA 1 on SM 1; every CTA of this launch issues the same instructions.
TEST(TimingCtaPlacement, RoundRobinOverSms) {
  runtime::Device gpu(timingOptions("gtx480", {"gpu.num_sms=2"}));
  runtime::Module m = gpu.loadModule(kVectorAdd, "vadd.ptx");
  const uint32_t n = 3 * 64;
  std::vector<float> a(n, 1.0f);
  uint64_t da = gpu.upload(a), dc = gpu.malloc(n * 4);
  runtime::LaunchReport r = gpu.launch(m.kernel("vadd"), {3}, {64}, 0, da, da, dc, n);
  const nlohmann::json& perSm = (*r.timing)["issue_per_sm"];
  ASSERT_EQ(perSm.size(), 2u);
  const uint64_t sm0 = perSm[0]["issued"].get<uint64_t>(), sm1 = perSm[1]["issued"].get<uint64_t>();
  EXPECT_EQ(sm0 + sm1, r.result.warpInstructions);
  EXPECT_EQ(sm0, 2 * sm1);
  EXPECT_EQ((*r.timing)["resources"]["ctas_admitted"].get<uint64_t>(), 3u);

  // One CTA slot per SM: the third CTA waits for a slot, so the launch takes longer.
  runtime::Device oneSlot(timingOptions("gtx480", {"gpu.num_sms=2", "sm.max_ctas=1"}));
  runtime::Module m1 = oneSlot.loadModule(kVectorAdd, "vadd.ptx");
  da = oneSlot.upload(a);
  dc = oneSlot.malloc(n * 4);
  runtime::LaunchReport w = oneSlot.launch(m1.kernel("vadd"), {3}, {64}, 0, da, da, dc, n);
  EXPECT_EQ((*w.timing)["occupancy"]["ctas_per_sm"].get<uint32_t>(), 1u);
  EXPECT_EQ((*w.timing)["occupancy"]["limited_by"].get<std::string>(), "ctas");
  EXPECT_GT(w.cycles, r.cycles);
  EXPECT_EQ(oneSlot.download<float>(dc, n), std::vector<float>(n, 2.0f));
}

}  // namespace
}  // namespace warpsim::test
