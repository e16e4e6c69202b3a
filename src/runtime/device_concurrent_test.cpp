// Device::runConcurrent in both modes: every launch of a batch computes its results and gets its
// own report; in timing mode independent launches overlap (the batch ends before the sum of
// their lone times) and `after` orders them; functional mode runs them in order; a cooperative
// launch is refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/device.h"

namespace warpsim::runtime {
namespace {

// out[i] = i * 1664525 + seed, iterated `rounds` times: compute-bound CTAs.
const char* kBusy = R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry busy(.param .u64 pout, .param .u32 pseed, .param .u32 prounds)
{
  .reg .pred %p<2>;
  .reg .b32 %r<10>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [pout];
  ld.param.u32 %r1, [pseed];
  ld.param.u32 %r2, [prounds];
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %ntid.x;
  mov.u32 %r5, %tid.x;
  mad.lo.s32 %r6, %r3, %r4, %r5;
  add.s32 %r7, %r6, %r1;
  mov.u32 %r8, 0;
LOOP:
  mad.lo.s32 %r7, %r7, 1664525, 1013904223;
  add.s32 %r8, %r8, 1;
  setp.lt.u32 %p1, %r8, %r2;
  @%p1 bra LOOP;
  mul.wide.u32 %rd2, %r6, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r7;
  ret;
}
)";

constexpr uint32_t kBlock = 128, kCtas = 2, kRounds = 300;

uint32_t expected(uint32_t i, uint32_t seed) {
  uint32_t x = i + seed;
  for (uint32_t r = 0; r < kRounds; ++r) x = x * 1664525u + 1013904223u;
  return x;
}

DeviceOptions options(const std::string& mode) {
  DeviceOptions o;
  o.mode = mode;
  o.config = "gtx480";
  o.resources = DeviceOptions::Resources::Estimate;
  return o;
}

func::LaunchConfig launchOf(const Kernel& k, uint64_t out, uint32_t seed) {
  func::LaunchConfig c;
  c.grid = {kCtas, 1, 1};
  c.block = {kBlock, 1, 1};
  c.params.resize(k.function().kernelParamBytes);
  const uint32_t rounds = kRounds;
  std::memcpy(c.params.data(), &out, 8);
  std::memcpy(c.params.data() + 8, &seed, 4);
  std::memcpy(c.params.data() + 12, &rounds, 4);
  return c;
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
  Device gpu(options(GetParam()));
  Module m = gpu.loadModule(kBusy, "busy.ptx");
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
  Device gpu(options("timing"));
  Module m = gpu.loadModule(kBusy, "busy.ptx");
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
  Device gpu(options("timing"));
  Module m = gpu.loadModule(kBusy, "busy.ptx");
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
