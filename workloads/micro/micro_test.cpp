// The microbenchmarks' kernels and drivers in functional mode, where %clock64 counts the warp's
// instructions: every measurement is then an exact instruction count, which checks the
// instrumentation itself (what lies between the two clock reads). micro_timing_test.cpp
// compares timing-mode measurements with the configuration.
#include <gtest/gtest.h>

#include "micro/micro.h"

namespace warpsim::micro {
namespace {

runtime::DeviceOptions functional() {
  runtime::DeviceOptions o;
  o.mode = "functional";
  o.resources = runtime::DeviceOptions::Resources::Estimate;
  return o;
}

TEST(MicroFunctional, ChaseCountsFourInstructionsPerHop) {
  runtime::Device gpu(functional());
  runtime::Module m = loadMicro(gpu);
  // Timed region: 11 instructions per 8 hops (8 ld, add, setp, bra), then the store and the
  // clock read itself: (11 x 12 + 2) / 96.
  EXPECT_DOUBLE_EQ(chaseCyclesPerHop(gpu, m, 4096, 128, 32, 96), 134.0 / 96);
  EXPECT_DOUBLE_EQ(chaseCyclesPerHop(gpu, m, 1 << 20, 256, 0, 48), 68.0 / 48);
}

TEST(MicroFunctional, ChaseRejectsATooSmallRing) {
  runtime::Device gpu(functional());
  runtime::Module m = loadMicro(gpu);
  EXPECT_THROW(chaseCyclesPerHop(gpu, m, 128, 128, 0, 8), runtime::Error);
  EXPECT_THROW(chaseCyclesPerHop(gpu, m, 4096, 128, 0, 12), runtime::Error);  // not a multiple of 8
}

TEST(MicroFunctional, SharedLoadsAre67InstructionsPer64) {
  runtime::Device gpu(functional());
  runtime::Module m = loadMicro(gpu);
  // 64 loads + add + setp + bra per iteration, then add + the clock read: (67 x 10 + 2) / 640.
  for (uint32_t stride : {1u, 2u, 32u, 33u}) EXPECT_DOUBLE_EQ(sharedCyclesPerLoad(gpu, m, stride, 10), 672.0 / 640);
}

TEST(MicroFunctional, RegisterBankKernelsComputeTheSameResult) {
  runtime::Device gpu(functional());
  runtime::Module m = loadMicro(gpu);
  EXPECT_DOUBLE_EQ(regBankCyclesPerFma(gpu, m, true, 10), 672.0 / 640);
  EXPECT_DOUBLE_EQ(regBankCyclesPerFma(gpu, m, false, 10), 672.0 / 640);
}

TEST(MicroFunctional, CycleBasedMeasurementsNeedTimingMode) {
  runtime::Device gpu(functional());
  runtime::Module m = loadMicro(gpu);
  EXPECT_THROW(streamBytesPerCycle(gpu, m, 1 << 16, 4), runtime::Error);
  EXPECT_THROW(issueWarpInstructionsPerCycle(gpu, m, UnitClass::Alu, 4, 4), runtime::Error);
}

}  // namespace
}  // namespace warpsim::micro
