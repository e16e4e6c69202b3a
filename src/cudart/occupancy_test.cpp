#include "cudart/occupancy.h"

#include <gtest/gtest.h>

namespace warpsim::cudart {
namespace {

runtime::GpuProperties gpu() {
  runtime::GpuProperties g;
  g.warpSize = 32;
  g.maxThreadsPerSm = 2048;
  g.maxBlocksPerSm = 32;
  g.registersPerSm = 65536;
  g.sharedBytesPerSm = 96 * 1024;
  return g;
}

TEST(Occupancy, LimitedByThreads) {
  EXPECT_EQ(maxActiveCtasPerSm(gpu(), {256, 16, 0}), 8u);
  // a partial warp occupies a whole one: 100 threads count as 128
  EXPECT_EQ(maxActiveCtasPerSm(gpu(), {100, 0, 0}), 16u);
}

TEST(Occupancy, LimitedByCtaSlots) { EXPECT_EQ(maxActiveCtasPerSm(gpu(), {32, 8, 0}), 32u); }

TEST(Occupancy, LimitedByRegisters) {
  // 256 threads x 64 registers = 16384 per CTA: 4 fit in 65536
  EXPECT_EQ(maxActiveCtasPerSm(gpu(), {256, 64, 0}), 4u);
  EXPECT_EQ(maxActiveCtasPerSm(gpu(), {1024, 255, 0}), 0u);
}

TEST(Occupancy, LimitedBySharedMemory) {
  EXPECT_EQ(maxActiveCtasPerSm(gpu(), {64, 8, 40 * 1024}), 2u);
  EXPECT_EQ(maxActiveCtasPerSm(gpu(), {64, 8, 97 * 1024}), 0u);
}

TEST(Occupancy, AppliesTheAllocationGranularities) {
  runtime::GpuProperties g = gpu();
  g.maxThreadsPerSm = 1 << 16;  // only registers and shared memory limit here
  g.maxBlocksPerSm = 1024;
  // Without granularities: 192 threads x 21 registers = 4032 per CTA, 16 in 65536.
  EXPECT_EQ(maxActiveCtasPerSm(g, {192, 21, 0}), 16u);
  EXPECT_EQ(maxActiveCtasPerSm(g, {160, 40, 0}), 10u);  // 6400 per CTA
  EXPECT_EQ(maxActiveCtasPerSm(g, {32, 0, 1000}), 98u);  // 98304 / 1000
  // An sm_80-like SM: registers per warp in units of 256, the file in 4 partitions of whole warps
  // (cuda_occupancy.h), shared memory in units of 128 bytes.
  g.registerAllocationUnit = 256;
  g.warpAllocationGranularity = 4;
  g.sharedAllocationUnit = 128;
  // 672 -> 768 per warp: 16384 / 768 = 21 warps a partition, 84 in all: 14 CTAs of 6 warps.
  EXPECT_EQ(maxActiveCtasPerSm(g, {192, 21, 0}), 14u);
  // 1280 per warp: 12 warps a partition, 48 in all: 9 CTAs of 5 warps.
  EXPECT_EQ(maxActiveCtasPerSm(g, {160, 40, 0}), 9u);
  EXPECT_EQ(maxActiveCtasPerSm(g, {32, 0, 1000}), 96u);  // 1000 -> 1024 bytes
}

TEST(Occupancy, FollowsTheProperties) {
  runtime::GpuProperties small = gpu();
  small.maxThreadsPerSm = 1536;
  small.maxBlocksPerSm = 8;
  EXPECT_EQ(maxActiveCtasPerSm(small, {128, 8, 0}), 8u);
  EXPECT_EQ(maxActiveCtasPerSm(small, {512, 8, 0}), 3u);
  EXPECT_EQ(maxActiveCtasPerSm(small, {0, 8, 0}), 0u);
}

}  // namespace
}  // namespace warpsim::cudart
