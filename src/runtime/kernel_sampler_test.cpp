// Kernel sampling: when a kernel shape's last timed launches agree in IPC, the estimate from
// them (exact arithmetic), the window sliding past a launch that disagrees, and on a Device: the
// launches it estimates, their cycles, their results, and the [sampling] keys in either mode.
#include "runtime/kernel_sampler.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "runtime/device.h"
#include "runtime/testing/busy_kernel.h"

namespace warpsim::runtime {
namespace {

KernelSampler::Shape shape(const char* kernel, uint32_t ctas) {
  return {kernel, {ctas, 1, 1}, {128, 1, 1}, 0};
}

TEST(KernelSampler, EstimatesFromTheTimedLaunchesOnceTheyAgree) {
  KernelSampler s({2, 0.05, 0});
  const auto a = shape("k", 4);
  EXPECT_FALSE(s.canEstimate(a));
  s.recordTimed(a, 1000, 100);  // IPC 10
  EXPECT_FALSE(s.canEstimate(a));  // one of two
  s.recordTimed(a, 2000, 210);  // IPC 9.52; the mean is 3000 / 310 = 9.677
  ASSERT_TRUE(s.canEstimate(a));  // 10 is 3.3% above the mean
  CycleEstimate basis;
  EXPECT_EQ(s.estimateCycles(a, 1500, basis), 155u);  // 1500 * 310 / 3000
  EXPECT_EQ(basis.timedLaunches, 2u);
  EXPECT_DOUBLE_EQ(basis.threadIpc, 3000.0 / 310.0);
  EXPECT_EQ(basis.spreadCycles, 5u);  // 155 x (10 / 9.677 - 1) = 5.17
  EXPECT_FALSE(s.canEstimate(shape("k", 8)));  // another grid is another shape
  EXPECT_FALSE(s.canEstimate(shape("other", 4)));
}

TEST(KernelSampler, ALaunchThatDisagreesIsTimedUntilTheLastOnesAgreeAgain) {
  KernelSampler s({2, 0.03, 0});
  const auto a = shape("k", 4);
  s.recordTimed(a, 1000, 100);
  s.recordTimed(a, 2000, 210);  // 3.3% from the mean: over 3%
  EXPECT_FALSE(s.canEstimate(a));
  s.recordTimed(a, 1000, 100);  // the window slides: 9.52 and 10 again
  EXPECT_FALSE(s.canEstimate(a));
  s.recordTimed(a, 3000, 300);  // 10 and 10
  EXPECT_TRUE(s.canEstimate(a));
  s.recordTimed(a, 1000, 0);  // no cycles (a failed launch): ignored
  s.recordTimed(a, 0, 100);
  EXPECT_TRUE(s.canEstimate(a));
}

TEST(KernelSampler, EveryFewEstimatesALaunchIsTimedAsACheck) {
  KernelSampler s({2, 0.05, 3});
  const auto a = shape("k", 4);
  s.recordTimed(a, 1000, 100);
  s.recordTimed(a, 1000, 100);
  CycleEstimate basis;
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(s.canEstimate(a)) << i;
    EXPECT_EQ(s.estimateCycles(a, 1000, basis), 100u);
  }
  EXPECT_FALSE(s.canEstimate(a));  // the fourth is a check
  s.recordTimed(a, 1020, 100);     // IPC 10.2: 2% from the mean, it joins
  ASSERT_TRUE(s.canEstimate(a));
  EXPECT_EQ(s.estimateCycles(a, 1010, basis), 100u);  // mean (1000 + 1020) / 200 = 10.1
  s.estimateCycles(a, 1010, basis);
  s.estimateCycles(a, 1010, basis);
  EXPECT_FALSE(s.canEstimate(a));
  s.recordTimed(a, 1500, 100);  // IPC 15: the launches have changed, the shape is timed again
  EXPECT_FALSE(s.canEstimate(a));
  s.recordTimed(a, 1500, 100);
  ASSERT_TRUE(s.canEstimate(a));
  EXPECT_EQ(s.estimateCycles(a, 1500, basis), 100u);
}

TEST(KernelSampler, AnEstimateOfOtherWorkMakesTheNextLaunchACheck) {
  KernelSampler s({2, 0.05, 0});
  const auto a = shape("k", 4);
  s.recordTimed(a, 1000, 100);
  s.recordTimed(a, 1000, 100);
  CycleEstimate basis;
  EXPECT_EQ(s.estimateCycles(a, 1040, basis), 104u);  // 4% more work than the timed ones
  ASSERT_TRUE(s.canEstimate(a));
  EXPECT_EQ(s.estimateCycles(a, 1200, basis), 120u);  // 20% more: the next one is timed
  EXPECT_FALSE(s.canEstimate(a));
  s.recordTimed(a, 1200, 150);  // IPC 8: it has changed, the shape is timed again
  EXPECT_FALSE(s.canEstimate(a));
  s.recordTimed(a, 1200, 150);
  EXPECT_TRUE(s.canEstimate(a));
}

TEST(KernelSampler, OffByDefault) {
  KernelSampler s;
  const auto a = shape("k", 4);
  for (int i = 0; i < 5; ++i) s.recordTimed(a, 1000, 100);
  EXPECT_FALSE(s.enabled());
  EXPECT_FALSE(s.canEstimate(a));
}

using testing::busyLaunch;
using testing::busyValue;
using testing::kBusyPtx;

constexpr uint32_t kSampledBlock = 128;

func::LaunchConfig sampledLaunchOf(const Kernel& k, uint32_t ctas, uint64_t out, uint32_t seed,
                                   uint32_t rounds) {
  return busyLaunch(k, ctas, kSampledBlock, out, seed, rounds);
}

DeviceOptions sampled(const std::string& mode, std::vector<std::string> sets) {
  DeviceOptions o;
  o.mode = mode;
  o.config = "gtx480";
  o.resources = DeviceOptions::Resources::Estimate;
  o.sets = std::move(sets);
  return o;
}

TEST(KernelSampling, AgreeingLaunchesOfAShapeAreEstimatedAndStillCompute) {
  Device gpu(sampled("timing", {"sampling.launches=2", "sampling.ipc_tolerance=0.1"}));
  Module m = gpu.loadModule(kBusyPtx, "busy.ptx");
  const Kernel k = m.kernel("busy");
  const uint64_t out = gpu.malloc(4 * kSampledBlock * 4);
  std::vector<LaunchReport> r;
  // Six launches of 4 CTAs (the same work, other seeds), then one of 2 CTAs (another shape).
  for (uint32_t i = 0; i < 6; ++i) r.push_back(gpu.run(k, sampledLaunchOf(k, 4, out, i, 300)));
  r.push_back(gpu.run(k, sampledLaunchOf(k, 2, out, 9, 200)));
  for (const LaunchReport& one : r) ASSERT_TRUE(one.result.ok) << one.result.error;
  const std::vector<uint32_t> got = gpu.download<uint32_t>(out, 4 * kSampledBlock);
  for (uint32_t i = 0; i < 2 * kSampledBlock; ++i) ASSERT_EQ(got[i], busyValue(i, 9, 200)) << i;
  for (uint32_t i = 2 * kSampledBlock; i < 4 * kSampledBlock; ++i)
    ASSERT_EQ(got[i], busyValue(i, 5, 300)) << i;

  // The first two are timed; they agree (within 10%), so the rest of the shape is estimated
  // from them, and the other shape is timed.
  ASSERT_TRUE(r[0].timing && r[1].timing);
  EXPECT_FALSE(r[0].cycleEstimate || r[1].cycleEstimate);
  const double ipc = static_cast<double>(r[0].threadInstructions() + r[1].threadInstructions()) /
                     static_cast<double>(r[0].cycles + r[1].cycles);
  for (size_t i = 2; i < 6; ++i) {
    ASSERT_TRUE(r[i].cycleEstimate) << i;
    EXPECT_FALSE(r[i].timing) << i;
    EXPECT_EQ(r[i].cycleEstimate->timedLaunches, 2u);
    EXPECT_DOUBLE_EQ(r[i].cycleEstimate->threadIpc, ipc);
    EXPECT_EQ(r[i].cycles, static_cast<uint64_t>(std::round(r[i].threadInstructions() / ipc))) << i;
    EXPECT_DOUBLE_EQ(r[i].simulatedSeconds, r[i].cycles / 1400e6);  // gtx480's 1.4 GHz core
    EXPECT_EQ(r[i].threadInstructions(), r[0].threadInstructions());  // counted by the engine
    EXPECT_GT(r[i].stats.warpInstructions, uint64_t{300} * 4 * kSampledBlock / 32);
  }
  EXPECT_FALSE(r[6].cycleEstimate);
  EXPECT_TRUE(r[6].timing);
}

TEST(KernelSampling, OffItTimesEveryLaunchAndFunctionalModeTakesTheKeys) {
  Device timed(sampled("timing", {}));
  Module m = timed.loadModule(kBusyPtx, "busy.ptx");
  const Kernel k = m.kernel("busy");
  const uint64_t out = timed.malloc(4 * kSampledBlock * 4);
  for (uint32_t i = 0; i < 4; ++i) {
    const LaunchReport r = timed.run(k, sampledLaunchOf(k, 4, out, i, 100));
    EXPECT_TRUE(r.timing);
    EXPECT_FALSE(r.cycleEstimate);
  }
  Device functional(sampled("functional", {"sampling.launches=3"}));
  EXPECT_THROW(Device(sampled("timing", {"sampling.ipc_tolerance=2"})), Error);
  EXPECT_THROW(Device(sampled("functional", {"sampling.launch=3"})), Error);
}

}  // namespace
}  // namespace warpsim::runtime
