// Launches that cannot run or stop early in timing mode: the deadlock detector's report, faults
// (the functional engine's message), the instruction limit, CTAs that never fit on an SM, and
// configuration errors (bad or unknown keys, one line naming file and line).
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <regex>

#include "timing_test_support.h"

namespace warpsim::test {
namespace {

// Warp 0 waits at barrier 1 for 64 threads (two warps); warp 1 exits without arriving, so the
// barrier can never complete.
const char* kStuckAtBarrier = R"(.version 7.0
.target sm_80
.address_size 64
.visible .entry stuck()
{
  .reg .pred %p<2>;
  .reg .b32 %r<2>;
  mov.u32 %r1, %tid.x;
  setp.ge.u32 %p1, %r1, 32;
  @%p1 bra DONE;
  bar.sync 1, 64;
DONE:
  ret;
}
)";

// Every thread stores to p + 4 * tid; with a one-word buffer lane 1 faults.
const char* kOutOfBounds = R"(.version 7.0
.target sm_80
.address_size 64
.visible .entry oob(.param .u64 p)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [p];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd2, %rd2, %rd3;
  st.global.u32 [%rd2], %r1;
  ret;
}
)";

const char* kSpin = R"(.version 7.0
.target sm_80
.address_size 64
.visible .entry spin()
{
LOOP:
  bra.uni LOOP;
}
)";

TEST(TimingLaunchErrors, DeadlockIsASummaryLineThenOneLinePerWarp) {
  runtime::Device gpu(timingOptions("gtx480", {"gpu.deadlock_cycles=1000"}));
  runtime::Module m = gpu.loadModule(kStuckAtBarrier, "stuck.ptx");
  func::LaunchConfig launch;
  launch.grid = {1, 1, 1};
  launch.block = {64, 1, 1};
  runtime::LaunchReport r = gpu.run(m.kernel("stuck"), launch);
  ASSERT_FALSE(r.result.ok);
  std::vector<std::string> report = lines(r.result.error);
  ASSERT_EQ(report.size(), 2u) << r.result.error;
  EXPECT_TRUE(std::regex_match(
      report[0], std::regex("kernel 'stuck': deadlock: no progress for 1000 cycles \\(cycle [0-9]+ "
                            "of the launch; 0 of 1 CTAs retired, 1 warp\\(s\\) resident\\)")))
      << report[0];
  EXPECT_TRUE(contains(report[1], "warp 0")) << report[1];
  EXPECT_TRUE(contains(report[1], "stuck.ptx:11")) << report[1];  // the bar.sync
  EXPECT_TRUE(contains(report[1], "barrier")) << report[1];
  // The launch stopped within the detector's window after the last progress.
  EXPECT_LT(r.cycles, 1000u + 500u);

  // The device runs the next launch normally.
  std::vector<float> a(100, 1.0f), b(100, 2.0f);
  runtime::Module v = gpu.loadModule(kVectorAdd, "vadd.ptx");
  uint64_t da = gpu.upload(a), db = gpu.upload(b), dc = gpu.malloc(400);
  gpu.launch(v.kernel("vadd"), {1}, {128}, 0, da, db, dc, 100);
  EXPECT_EQ(gpu.download<float>(dc, 100), std::vector<float>(100, 3.0f));
}

TEST(TimingLaunchErrors, FaultsReportTheFunctionalEnginesMessage) {
  runtime::DeviceOptions functionalOptions;
  functionalOptions.mode = "functional";
  functionalOptions.resources = runtime::DeviceOptions::Resources::Estimate;
  std::string messages[2];
  int i = 0;
  for (runtime::DeviceOptions options : {functionalOptions, timingOptions()}) {
    options.memcheck = true;  // past the end is still mapped memory: only memcheck faults there
    runtime::Device gpu(options);
    runtime::Module m = gpu.loadModule(kOutOfBounds, "oob.ptx");
    uint64_t p = gpu.malloc(4);
    messages[i++] = errorOf([&] { gpu.launch(m.kernel("oob"), {1}, {32}, 0, p); });
  }
  EXPECT_TRUE(contains(messages[0], "oob.ptx:13")) << messages[0];
  EXPECT_EQ(messages[1], messages[0]);
}

TEST(TimingLaunchErrors, InstructionLimitStopsAnEndlessLoop) {
  runtime::DeviceOptions options = timingOptions();
  options.maxWarpInstructions = 5000;
  runtime::Device gpu(options);
  runtime::Module m = gpu.loadModule(kSpin, "spin.ptx");
  func::LaunchConfig launch;
  launch.grid = {2, 1, 1};
  launch.block = {64, 1, 1};
  runtime::LaunchReport r = gpu.run(m.kernel("spin"), launch);
  ASSERT_FALSE(r.result.ok);
  EXPECT_EQ(r.result.error,
            "kernel 'spin': instruction limit of 5000 warp-instructions reached (infinite loop?)");
  EXPECT_GE(r.result.warpInstructions, 5000u);
}

TEST(TimingLaunchErrors, CtasThatCanNeverFitAreOneLineErrors) {
  runtime::Device threads(timingOptions("gtx480", {"sm.max_threads=512"}));
  runtime::Module m1 = threads.loadModule(kVectorAdd, "vadd.ptx");
  uint64_t buf = threads.malloc(4096);
  EXPECT_EQ(errorOf([&] { threads.launch(m1.kernel("vadd"), {1}, {1024}, 0, buf, buf, buf, 1); }),
            "kernel 'vadd' cannot run on gtx480: a CTA of 1024 threads exceeds the SM's 512 "
            "threads");

  runtime::Device regs(timingOptions("gtx480", {"sm.registers=8192"}));
  runtime::Module m2 = regs.loadModule(kVectorAdd, "vadd.ptx");
  const uint32_t perThread = m2.kernel("vadd").resources().registers;
  buf = regs.malloc(4096);
  EXPECT_EQ(errorOf([&] { regs.launch(m2.kernel("vadd"), {1}, {1024}, 0, buf, buf, buf, 1); }),
            "kernel 'vadd' cannot run on gtx480: a CTA needs " + std::to_string(perThread * 1024) +
                " registers (" + std::to_string(perThread) +
                " per thread, 1024 threads), the SM has 8192");
}

TEST(TimingConfigErrors, UnknownKeyFromSetIsOneLine) {
  std::string what = errorOf([] { runtime::Device gpu(timingOptions("gtx480", {"sm.bogus=1"})); });
  EXPECT_TRUE(contains(what, "unknown key 'sm.bogus'")) << what;
  EXPECT_FALSE(contains(what, "\n")) << what;
}

TEST(TimingConfigErrors, UnknownKeyInAFileNamesFileAndLine) {
  const std::string path = testing::TempDir() + "timing_unknown_key.toml";
  {
    std::ofstream out(path);
    out << "base = \"gtx480\"\n\n[gpu]\nnum_sms = 4\nnum_smz = 4\n";
  }
  std::string what = errorOf([&] { runtime::Device gpu(timingOptions(path)); });
  EXPECT_TRUE(contains(what, ":5: error:")) << what;
  EXPECT_TRUE(contains(what, "gpu.num_smz")) << what;
  EXPECT_FALSE(contains(what, "\n")) << what;
  std::remove(path.c_str());
}

TEST(TimingConfigErrors, BadValuesAndUnknownImplementationsAreOneLine) {
  std::string range = errorOf([] { runtime::Device gpu(timingOptions("gtx480", {"gpu.num_sms=0"})); });
  EXPECT_TRUE(contains(range, "gpu.num_sms")) << range;
  std::string impl = errorOf(
      [] { runtime::Device gpu(timingOptions("gtx480", {"cta_scheduler.impl=\"nope\""})); });
  // The known ones: the core's baseline and whatever mechanisms register (none named here, so
  // that deleting a mechanism's folder leaves this test passing).
  EXPECT_EQ(impl.rfind("config: error: unknown cta_scheduler 'nope' (known: ", 0), 0u) << impl;
  EXPECT_TRUE(contains(impl, "round-robin")) << impl;
  EXPECT_FALSE(contains(impl, "\n")) << impl;
  std::string mode = errorOf([] {
    runtime::DeviceOptions o;
    o.mode = "cycle";
    runtime::Device gpu(o);
  });
  EXPECT_EQ(mode, "device: mode 'cycle' is unknown (modes: timing, functional)");
}

}  // namespace
}  // namespace warpsim::test
