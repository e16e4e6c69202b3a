// Device::runConcurrent in both modes: every launch of a batch computes its results and gets its
// own report; in timing mode independent launches overlap (the batch ends before the sum of
// their lone times) and `after` orders them; functional mode runs them in order; a cooperative
// launch is refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "runtime/device.h"
#include "runtime/testing/busy_kernel.h"

namespace warpsim::runtime {
namespace {

using testing::kBusyPtx;

constexpr uint32_t kBlock = 128, kCtas = 2, kRounds = 300;

uint32_t expected(uint32_t i, uint32_t seed) { return testing::busyValue(i, seed, kRounds); }

DeviceOptions concurrentOptions(const std::string& mode) {
  DeviceOptions o;
  o.mode = mode;
  o.config = "gtx480";
  o.resources = DeviceOptions::Resources::Estimate;
  return o;
}

func::LaunchConfig launchOf(const Kernel& k, uint64_t out, uint32_t seed) {
  return testing::busyLaunch(k, kCtas, kBlock, out, seed, kRounds);
}

bool computed(const Device& gpu, uint64_t out, uint32_t seed) {
  const std::vector<uint32_t> got = gpu.download<uint32_t>(out, kCtas * kBlock);
  for (uint32_t i = 0; i < got.size(); ++i) {
    if (got[i] != expected(i, seed)) return false;
  }
  return true;
}

class Concurrent : public ::testing::TestWithParam<std::string> {};

TEST_P(Concurrent, EveryLaunchComputesItsResultsWithItsOwnReport) {
  Device gpu(concurrentOptions(GetParam()));
  Module m = gpu.loadModule(kBusyPtx, "busy.ptx");
  const Kernel k = m.kernel("busy");
  const uint64_t a = gpu.malloc(kCtas * kBlock * 4), b = gpu.malloc(kCtas * kBlock * 4);
  const std::vector<LaunchReport> r =
      gpu.runConcurrent({{&k, launchOf(k, a, 1), {}}, {&k, launchOf(k, b, 2), {}}});
  ASSERT_EQ(r.size(), 2u);
  for (const LaunchReport& one : r) {
    EXPECT_TRUE(one.result.ok) << one.result.error;
    EXPECT_EQ(one.kernel, "busy");
    EXPECT_EQ(one.stats.warpInstructions, r[0].stats.warpInstructions);
    EXPECT_GT(one.stats.warpInstructions, uint64_t{kRounds} * kCtas * kBlock / 32);
  }
  EXPECT_TRUE(computed(gpu, a, 1));
  EXPECT_TRUE(computed(gpu, b, 2));
}

INSTANTIATE_TEST_SUITE_P(Modes, Concurrent, ::testing::Values("functional", "timing"));

TEST(ConcurrentTiming, IndependentLaunchesOverlapAndAfterOrdersThem) {
  Device gpu(concurrentOptions("timing"));
  Module m = gpu.loadModule(kBusyPtx, "busy.ptx");
  const Kernel k = m.kernel("busy");
  const uint64_t a = gpu.malloc(kCtas * kBlock * 4), b = gpu.malloc(kCtas * kBlock * 4);
  const LaunchReport alone = gpu.run(k, launchOf(k, a, 1));
  ASSERT_TRUE(alone.result.ok);

  const std::vector<LaunchReport> both =
      gpu.runConcurrent({{&k, launchOf(k, a, 3), {}}, {&k, launchOf(k, b, 4), {}}});
  ASSERT_TRUE(both[0].result.ok && both[1].result.ok);
  EXPECT_EQ(both[0].startSeconds, 0.0);
  EXPECT_EQ(both[1].startSeconds, 0.0);
  const double span = std::max(both[0].simulatedSeconds, both[1].simulatedSeconds);
  EXPECT_LT(span, 1.5 * alone.simulatedSeconds);  // two at once, not one after the other
  EXPECT_TRUE(computed(gpu, a, 3));
  EXPECT_TRUE(computed(gpu, b, 4));

  const std::vector<LaunchReport> chained =
      gpu.runConcurrent({{&k, launchOf(k, a, 5), {}}, {&k, launchOf(k, b, 6), {0}}});
  ASSERT_TRUE(chained[0].result.ok && chained[1].result.ok);
  EXPECT_EQ(chained[0].startSeconds, 0.0);
  EXPECT_GE(chained[1].startSeconds, chained[0].simulatedSeconds * 0.999999);
  EXPECT_TRUE(computed(gpu, a, 5));
  EXPECT_TRUE(computed(gpu, b, 6));
}

TEST(ConcurrentLaunches, CooperativeLaunchesAreRefused) {
  Device gpu(concurrentOptions("timing"));
  Module m = gpu.loadModule(kBusyPtx, "busy.ptx");
  const Kernel k = m.kernel("busy");
  func::LaunchConfig c = launchOf(k, gpu.malloc(kCtas * kBlock * 4), 1);
  c.cooperative = true;
  try {
    gpu.runConcurrent({{&k, c, {}}});
    FAIL() << "a cooperative launch was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "kernel 'busy': a cooperative launch runs alone, not in a concurrent batch");
  }
}

}  // namespace
}  // namespace warpsim::runtime
