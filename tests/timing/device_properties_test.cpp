// The device properties CUDA programs see come from the configuration.
#include <gtest/gtest.h>

#include "timing/gpu.h"
#include "timing_test_support.h"

namespace warpsim::test {
namespace {

TEST(DeviceProperties, Gtx480FromItsConfiguration) {
  runtime::Device gpu(timingOptions("gtx480"));
  const runtime::GpuProperties& p = gpu.properties();
  EXPECT_EQ(p.name, "NVIDIA GeForce GTX 480");
  EXPECT_EQ(p.computeMajor, 2u);
  EXPECT_EQ(p.computeMinor, 0u);
  EXPECT_EQ(p.numSms, 15u);
  EXPECT_EQ(p.maxThreadsPerSm, 1536u);
  EXPECT_EQ(p.maxThreadsPerBlock, 1024u);
  EXPECT_EQ(p.maxBlocksPerSm, 8u);
  EXPECT_EQ(p.registersPerSm, 32768u);
  EXPECT_EQ(p.registersPerBlock, 32768u);
  EXPECT_EQ(p.sharedBytesPerSm, 49152u);
  EXPECT_EQ(p.sharedBytesPerBlock, 49152u);
  EXPECT_EQ(p.l2Bytes, 786432u);
  EXPECT_EQ(p.clockKhz, 1400000u);
  EXPECT_EQ(p.memoryClockKhz, 924000u);
  // 2 x 924 MHz x 768 bits / 8 = 177.4 GB/s, the modelled bandwidth.
  EXPECT_EQ(p.memoryBusWidthBits, 768u);
  EXPECT_EQ(p.memoryBytes, 1610612736u);
  ASSERT_NE(gpu.gpu(), nullptr);
  EXPECT_EQ(gpu.gpu()->numSms(), 15u);
}

TEST(DeviceProperties, SmCountFromSetsAndOptions) {
  runtime::Device fromSet(timingOptions("gtx480", {"gpu.num_sms=4"}));
  EXPECT_EQ(fromSet.properties().numSms, 4u);
  runtime::DeviceOptions o = timingOptions("v100");
  o.numSms = 3;
  runtime::Device fromOption(o);
  EXPECT_EQ(fromOption.properties().numSms, 3u);
  EXPECT_EQ(fromOption.gpu()->numSms(), 3u);
  EXPECT_EQ(fromOption.properties().computeMajor, 7u);
}

TEST(DeviceProperties, FunctionalModeWithAConfigurationRunsFunctionally) {
  runtime::DeviceOptions o;
  o.resources = runtime::DeviceOptions::Resources::Estimate;
  o.mode = "functional";
  o.config = "gtx480";
  runtime::Device gpu(o);
  EXPECT_EQ(gpu.properties().numSms, 15u);
  runtime::Module m = gpu.loadModule(kVectorAdd, "vadd.ptx");
  std::vector<float> a(64, 1.0f);
  uint64_t da = gpu.upload(a), dc = gpu.malloc(256);
  runtime::LaunchReport r = gpu.launch(m.kernel("vadd"), {1}, {64}, 0, da, da, dc, 64);
  EXPECT_EQ(r.cycles, 0u);
  EXPECT_FALSE(r.timing);
  EXPECT_EQ(gpu.download<float>(dc, 64), std::vector<float>(64, 2.0f));
}

}  // namespace
}  // namespace warpsim::test
