// Whole kernels on one SM: results equal functional execution, determinism, CTA turnover,
// faults, reports and configuration errors.
#include <gtest/gtest.h>

#include <string>

#include "timing/sm/sm_test_harness.h"

namespace warpsim::timing {
namespace {

using testing::SmHarness;
using testing::testConfig;

// Shared memory, a barrier, global loads and stores: out[t] = in[(t + 32) % 128] * 3 + smid.
const char* kRotate = R"(
.visible .entry rotate(.param .u64 in, .param .u64 out)
{
  .reg .b32 %r<12>;
  .reg .b64 %rd<8>;
  .shared .align 4 .b8 buf[512];
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r8, %ctaid.x;
  mov.u32 %r2, buf;
  shl.b32 %r3, %r1, 2;
  add.u32 %r4, %r2, %r3;
  mad.lo.u32 %r9, %r8, 128, %r1;
  mul.wide.u32 %rd3, %r9, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.u32 %r5, [%rd4];
  mul.lo.u32 %r5, %r5, 3;
  st.shared.u32 [%r4], %r5;
  bar.sync 0;
  add.u32 %r6, %r1, 32;
  and.b32 %r6, %r6, 127;
  shl.b32 %r6, %r6, 2;
  add.u32 %r6, %r2, %r6;
  ld.shared.u32 %r7, [%r6];
  mov.u32 %r10, %smid;
  add.u32 %r7, %r7, %r10;
  add.s64 %rd5, %rd2, %rd3;
  st.global.u32 [%rd5], %r7;
  ret;
}
)";

struct RotateRun {
  explicit RotateRun(const std::string& config, bool skip = true) : h(kRotate, config) {
    std::vector<uint32_t> input(6 * 128);
    for (uint32_t i = 0; i < input.size(); ++i) input[i] = i * 7 + 1;
    in = h.runner.upload(input);
    out = h.runner.upload(std::vector<uint32_t>(6 * 128, 0));
    end = h.run("rotate", 6, 128, {in, out}, skip);
    result = h.runner.download<uint32_t>(out, 6 * 128);
  }
  SmHarness h;
  uint64_t in = 0, out = 0;
  Cycle end = 0;
  std::vector<uint32_t> result;
};

TEST(SmIntegration, ResultsEqualFunctionalExecution) {
  RotateRun r(testConfig());
  for (uint32_t c = 0; c < 6; ++c)
    for (uint32_t t = 0; t < 128; ++t)
      ASSERT_EQ(r.result[c * 128 + t], (c * 128 + (t + 32) % 128) * 7 * 3 + 3 + 3) << c << " " << t;
  // Same instruction counts as the functional engine.
  func::testing::KernelRunner f(func::testing::ptxModule(kRotate));
  const uint64_t in = f.upload(std::vector<uint32_t>(6 * 128, 1));
  const uint64_t out = f.upload(std::vector<uint32_t>(6 * 128, 0));
  const func::LaunchResult res = f.launch("rotate", {6, 1, 1}, {128, 1, 1}, {in, out});
  ASSERT_TRUE(res.ok) << res.error;
  EXPECT_EQ(r.h.stats()["warp_instructions"].get<uint64_t>(), res.warpInstructions);
  EXPECT_EQ(r.h.stats()["thread_instructions"].get<uint64_t>(), res.threadInstructions);
  // Eight warp slots hold two CTAs of four warps at a time.
  EXPECT_LE(r.h.stats()["resident_warp_cycles"].get<uint64_t>(), 8 * (r.end + 1));
  EXPECT_EQ(r.h.stats()["barrier_waits"].get<uint64_t>(), 6u * 3);
}

TEST(SmIntegration, SameInputsGiveTheSameCycles) {
  RotateRun a(testConfig()), b(testConfig());
  EXPECT_EQ(a.end, b.end);
  EXPECT_EQ(a.h.stats(), b.h.stats());
}

TEST(SmIntegration, SkippingIdleCyclesChangesNothing) {
  for (const char* policy : {"\"gto\"", "\"lrr\"", "\"two-level\""}) {
    const std::string cfg = testConfig({{"sm.warp_scheduler.impl", policy}, {"sm.schedulers", "2"}});
    RotateRun a(cfg, true), b(cfg, false);
    EXPECT_EQ(a.end, b.end) << policy;
    EXPECT_EQ(a.h.stats(), b.h.stats()) << policy;
    EXPECT_EQ(a.result, b.result) << policy;
  }
}

TEST(SmIntegration, IssueSlotsAddUpToSchedulersTimesCycles) {
  RotateRun r(testConfig({{"sm.schedulers", "2"}}));
  const nlohmann::json stats = r.h.stats();
  uint64_t sum = 0;
  for (const auto& [k, v] : stats["issue"].items()) sum += v.get<uint64_t>();
  EXPECT_EQ(sum, 2 * (r.end + 1));
  EXPECT_EQ(r.h.issue("issued"), r.h.stats()["warp_instructions"].get<uint64_t>());
  EXPECT_GT(r.h.issue("memory"), 0u);
  EXPECT_GT(r.h.issue("barrier"), 0u);
}

TEST(SmIntegration, CountsFromTheKernelStartWhenGivenOne) {
  SmHarness h(kRotate, testConfig({{"sm.schedulers", "2"}}));
  h.prepare("rotate", 1, 128, {0, 0});
  h.sm->beginKernel(*h.grid, 5);  // no CTA ever comes
  h.sm->finishKernel(105);
  EXPECT_EQ(h.issue("empty"), 200u);
  EXPECT_EQ(h.stats()["active_cycles"], 0u);
  EXPECT_TRUE(h.sm->idle());
  EXPECT_EQ(h.sm->nextEvent(7), kNever);
}

TEST(SmIntegration, EveryConfigurationRunsTheKernel) {
  const std::vector<std::vector<std::pair<std::string, std::string>>> variants = {
      {{"sm.sub_cores", "true"}, {"sm.schedulers", "2"}, {"sm.units.sfu.count", "2"},
       {"sm.units.fp64.count", "2"}, {"sm.units.lsu.count", "2"}},
      {{"sm.ibuffer_entries", "1"}, {"sm.register_file.collectors", "1"}},
      {{"sm.register_file.banks", "1"}, {"sm.register_file.warp_stride", "0"}},
      {{"sm.warp_scheduler.impl", "\"two-level\""}, {"sm.warp_scheduler.active_warps", "2"}},
      {{"sm.icache.line", "8"}, {"sm.icache.size", "128"}, {"sm.icache.assoc", "1"}},
  };
  for (const auto& v : variants) {
    RotateRun r(testConfig(v));
    for (uint32_t c = 0; c < 6; ++c)
      ASSERT_EQ(r.result[c * 128 + 5], (c * 128 + 37) * 7 * 3 + 3 + 3) << v[0].first;
  }
}

TEST(SmIntegration, MemoryBackPressureHoldsTheLoadStoreUnit) {
  // The memory pipeline takes one instruction every 10 cycles.
  testing::SmHarness h(kRotate, testConfig({{"sm.units.lsu.count", "2"}}));
  h.memory = testing::FakeMemory(20, 1, 10);
  const uint64_t in = h.runner.upload(std::vector<uint32_t>(128, 1));
  const uint64_t out = h.runner.upload(std::vector<uint32_t>(128, 0));
  h.run("rotate", 1, 128, {in, out});
  ASSERT_EQ(h.memory.accepted.size(), 4u * 6);  // 4 warps x (2 param loads, ld, st.shared, ld.shared, st)
  for (size_t i = 0; i < h.memory.accepted.size(); ++i) {
    EXPECT_EQ(h.memory.accepted[i].at % 10, 0u) << i;
    if (i > 0) {
      EXPECT_LT(h.memory.accepted[i - 1].at, h.memory.accepted[i].at);
    }
  }
  EXPECT_EQ(h.runner.download<uint32_t>(out, 1)[0], 1u * 3 + 3);
  // Warps that wait for the held-up load/store unit count as waiting on memory.
  EXPECT_GT(h.issue("memory"), h.issue("pipeline"));
}

TEST(SmIntegration, FaultStopsTheSmWithTheEnginesMessage) {
  SmHarness h(R"(
.visible .entry bad()
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  mov.u64 %rd1, 16;
  ld.global.u32 %r1, [%rd1];
  ret;
}
)", testConfig());
  h.expectAllRetired = false;
  h.run("bad", 1, 32);
  EXPECT_FALSE(h.allRetired);
  EXPECT_NE(h.sm->error().find("kernel 'bad' CTA (0,0,0) thread (0,0,0) at test.ptx:"), std::string::npos)
      << h.sm->error();
  EXPECT_NE(h.sm->error().find("global load"), std::string::npos) << h.sm->error();
}

TEST(SmIntegration, DescribeWarpsSaysWhatEachWarpWaitsFor) {
  // Warp 1 exits; warp 0 waits at a barrier for two warps that never come.
  SmHarness h(R"(
.visible .entry stuck()
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  mov.u32 %r1, %tid.x;
  setp.ge.u32 %p1, %r1, 32;
  @%p1 exit;
  bar.sync 0, 64;
  ret;
}
)", testConfig());
  h.expectAllRetired = false;
  h.run("stuck", 1, 64);
  EXPECT_FALSE(h.allRetired);
  EXPECT_EQ(h.sm->describeWarps(),
            "SM 3 warp slot 0: kernel 'stuck' CTA (0,0,0) warp 0 pc 3 (test.ptx:13) in 'stuck': waits at barrier 0");
  EXPECT_EQ(h.sm->nextEvent(1000), kNever);
  EXPECT_FALSE(h.sm->idle());
}

TEST(SmIntegration, DescribeWarpsNamesThePendingRegister) {
  SmHarness h(R"(
.visible .entry wait(.param .u64 p)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];
  ld.global.u32 %r1, [%rd1];
  ret;
}
)", testConfig(), 1000);
  const uint64_t buf = h.runner.upload(std::vector<uint32_t>(32, 0));
  h.expectAllRetired = false;
  h.run("wait", 1, 32, {buf}, true, 200);
  EXPECT_EQ(h.sm->describeWarps(),
            "SM 3 warp slot 0: kernel 'wait' CTA (0,0,0) warp 0 pc 1 (test.ptx:11) in 'wait': waits for %rd1 (memory)");
}

TEST(SmIntegration, StatsHaveTheDocumentedCounters) {
  RotateRun r(testConfig());
  const nlohmann::json s = r.h.stats();
  for (const char* k : {"issued", "scoreboard", "memory", "barrier", "pipeline", "collector", "fetch",
                        "empty", "assist"})
    EXPECT_TRUE(s["issue"].contains(k)) << k;
  for (const char* k : {"bank_reads", "bank_writes", "bank_conflicts", "collector_allocations"})
    EXPECT_TRUE(s["register_file"].contains(k)) << k;
  for (const char* k : {"alu_lane_ops", "sfu_lane_ops", "fp64_lane_ops", "lsu_lane_ops", "tensor_lane_ops"})
    EXPECT_TRUE(s["units"].contains(k)) << k;
  for (const char* k : {"accesses", "hits", "misses"}) EXPECT_TRUE(s["icache"].contains(k)) << k;
  for (const char* k : {"warp_instructions", "thread_instructions", "active_cycles", "resident_warp_cycles",
                        "barrier_waits"})
    EXPECT_TRUE(s.contains(k)) << k;
  EXPECT_EQ(s["register_file"]["collector_allocations"], s["warp_instructions"]);
}

TEST(SmIntegration, ConfigurationErrorsNameTheKey) {
  auto build = [](const std::string& cfg) {
    SmHarness h(kRotate, cfg);
    h.build();
  };
  try {
    build(testConfig({{"sm.warp_scheduler.impl", "\"fifo\""}}));
    FAIL() << "no error";
  } catch (const config::Error& e) {
    EXPECT_STREQ(e.what(), "config: error: unknown warp_scheduler 'fifo' (known: gto, lrr, two-level)");
  }
  try {
    build(testConfig({{"sm.schedulers", "4"}, {"sm.sub_cores", "true"}}));
    FAIL() << "no error";
  } catch (const config::Error& e) {
    EXPECT_STREQ(e.what(), "config: error: sm.units.alu.count (2) must be a multiple of sm.schedulers (4) with sm.sub_cores");
  }
  try {
    build(testConfig({{"sm.schedulers", "2"}, {"sm.sub_cores", "true"}, {"sm.units.sfu.count", "2"},
                      {"sm.units.fp64.count", "2"}, {"sm.units.lsu.count", "2"}, {"sm.register_file.banks", "15"}}));
    FAIL() << "no error";
  } catch (const config::Error& e) {
    EXPECT_STREQ(e.what(),
                 "config: error: sm.register_file.banks (15) must be a positive multiple of sm.schedulers (2) with sm.sub_cores");
  }
  EXPECT_THROW(build(testConfig({{"sm.icache.size", "1000"}})), config::Error);
  EXPECT_THROW(build(testConfig({{"sm.max_warps", "65"}})), config::Error);
}

}  // namespace
}  // namespace warpsim::timing
