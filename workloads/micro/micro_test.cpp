// The microbenchmarks' kernels and drivers in functional mode, where %clock64 counts the warp's
// instructions: every measurement is then an exact instruction count, which checks the
// instrumentation itself (what lies between the two clock reads). micro_timing_test.cpp
// compares timing-mode measurements with the configuration.
#include <gtest/gtest.h>

#include <string>

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

// ---- Calibration kernels ----------------------------------------------------------------

TEST(MicroFunctional, SharedChaseCountsElevenInstructionsPerEightHops) {
  runtime::Device gpu(functional());
  runtime::Module m = loadMicro(gpu);
  // 8 ld.shared + add + setp + bra per 8 hops, then the store and the clock read itself; the
  // driver checks the final node (hops mod 256 nodes from the start).
  EXPECT_DOUBLE_EQ(sharedChaseCyclesPerHop(gpu, m, 64), (11.0 * 8 + 2) / 64);
  EXPECT_DOUBLE_EQ(sharedChaseCyclesPerHop(gpu, m, 520), (11.0 * 65 + 2) / 520);  // past one lap
  EXPECT_THROW(sharedChaseCyclesPerHop(gpu, m, 12), runtime::Error);
}

TEST(MicroFunctional, ConstChaseCountsAnAddressAndALoadPerHop) {
  runtime::Device gpu(functional());
  runtime::Module m = loadMicro(gpu);
  // 8 x (ld.const + mad.wide) + add + setp + bra per 8 hops, then the store and the clock read;
  // the driver checks the final node, so the ring the host wrote through the symbol was read.
  EXPECT_DOUBLE_EQ(constChaseCyclesPerHop(gpu, m, 1024, 64, 16, 64), (19.0 * 8 + 2) / 64);
  EXPECT_DOUBLE_EQ(constChaseCyclesPerHop(gpu, m, 32768, 64, 0, 96), (19.0 * 12 + 2) / 96);
  EXPECT_DOUBLE_EQ(constChaseCyclesPerHop(gpu, m, 65536, 4, 5, 8), (19.0 + 2) / 8);  // the whole array
}

TEST(MicroFunctional, ConstChaseRejectsRingsOutsideTheArray) {
  runtime::Device gpu(functional());
  runtime::Module m = loadMicro(gpu);
  EXPECT_THROW(constChaseCyclesPerHop(gpu, m, 65536 + 64, 64, 0, 8), runtime::Error);  // beyond 64 KB
  EXPECT_THROW(constChaseCyclesPerHop(gpu, m, 1024, 6, 0, 8), runtime::Error);          // not a word stride
  EXPECT_THROW(constChaseCyclesPerHop(gpu, m, 64, 64, 0, 8), runtime::Error);           // one node
  EXPECT_THROW(constChaseCyclesPerHop(gpu, m, 1024, 64, 0, 4), runtime::Error);         // hops
}

TEST(MicroFunctional, DependentChainsCountNineteenInstructionsPerSixteenOps) {
  runtime::Device gpu(functional());
  runtime::Module m = loadMicro(gpu);
  // 16 operations + add + setp + bra per iteration, then the store and the clock read; the
  // driver checks the result is 16 x iters.
  for (DependentOp op : {DependentOp::Ffma, DependentOp::Dfma, DependentOp::Dadd})
    EXPECT_DOUBLE_EQ(dependentCyclesPerOp(gpu, m, op, 10), (19.0 * 10 + 2) / 160);
  EXPECT_THROW(dependentCyclesPerOp(gpu, m, DependentOp::Ffma, 0), runtime::Error);
}

TEST(MicroFunctional, OneSmBandwidthKernelsCountTheirLoopAndBarrier) {
  runtime::Device gpu(functional());
  runtime::Module m = loadMicro(gpu);
  // Timed: the clock read, 11 instructions per iteration (8 loads + add + setp + bra), the 7
  // adds of the sum and the barrier; the drivers check every thread's sum of its 8 words.
  for (uint32_t warps : {1u, 4u, 32u}) {
    const double perCycle = 8.0 * warps * 10 / (11.0 * 10 + 9);
    for (L1Pattern p : {L1Pattern::Coalesced, L1Pattern::Broadcast}) {
      const LoadBandwidth b = l1BandwidthPerSm(gpu, m, p, warps, 10);
      EXPECT_DOUBLE_EQ(b.warpLoadsPerCycle, perCycle);
      EXPECT_DOUBLE_EQ(b.bytesPerCycle, 128.0 * perCycle);
    }
    EXPECT_DOUBLE_EQ(sharedBandwidthPerSm(gpu, m, warps, 10), 128.0 * perCycle);
  }
  EXPECT_THROW(l1BandwidthPerSm(gpu, m, L1Pattern::Coalesced, 33, 10), runtime::Error);
  EXPECT_THROW(sharedBandwidthPerSm(gpu, m, 0, 10), runtime::Error);
}

TEST(MicroFunctional, L2BandwidthCountsItsLoopAndWrapsAroundTheWorkingSet) {
  runtime::Device gpu(functional());
  runtime::Module m = loadMicro(gpu);
  // Per iteration: add, setp, rem, add, mul.wide, add, 4 loads, 16 adds, bra = 27; plus the
  // clock read and the barrier. 4 CTAs over 16 blocks start at blocks 0, 4, 8, 12 and read 4
  // per iteration: with 3 iterations CTAs 2 and 3 wrap past block 15 (the sums check it).
  EXPECT_DOUBLE_EQ(l2BandwidthBytesPerCycle(gpu, m, 64 << 10, 4, 3), 4.0 * 3 * 16384 / (27.0 * 3 + 2));
  // 3 CTAs over 8 blocks: starts 0, 2 -> 0 (rounded down to 4), 5 -> 4.
  EXPECT_DOUBLE_EQ(l2BandwidthBytesPerCycle(gpu, m, 32 << 10, 3, 5), 3.0 * 5 * 16384 / (27.0 * 5 + 2));
  EXPECT_THROW(l2BandwidthBytesPerCycle(gpu, m, 40 << 10, 4, 3), runtime::Error);  // not 16 KB blocks
}

// The stride stream's rate needs the launch's cycle count (timing mode), but its driver checks
// every thread's sum first: a functional run that gets as far as the cycle count read the
// right lines.
void expectStrideNeedsOnlyTimingMode(runtime::Device& gpu, const runtime::Module& m, uint32_t stride,
                                     uint64_t bytes, uint32_t ctas) {
  try {
    strideBandwidthBytesPerCycle(gpu, m, stride, bytes, ctas);
    ADD_FAILURE() << "stride " << stride << ": no error in functional mode";
  } catch (const runtime::Error& e) {
    EXPECT_NE(std::string(e.what()).find("needs timing mode"), std::string::npos) << e.what();
  }
}

TEST(MicroFunctional, StrideStreamReadsEveryLineOnce) {
  runtime::Device gpu(functional());
  runtime::Module m = loadMicro(gpu);
  // 2 CTAs = 16 warps. 1000 lines: 62 or 63 per warp (main loop and a tail of 2 or 3);
  // 64 lines: 4 per warp (main loop only); 16 lines: 1 per warp (tail only).
  expectStrideNeedsOnlyTimingMode(gpu, m, 128, 1000 * 128, 2);
  expectStrideNeedsOnlyTimingMode(gpu, m, 4096, 64 * 128, 2);
  expectStrideNeedsOnlyTimingMode(gpu, m, 65536, 16 * 128, 2);
  EXPECT_THROW(strideBandwidthBytesPerCycle(gpu, m, 64, 1 << 16, 2), runtime::Error);      // below a line
  EXPECT_THROW(strideBandwidthBytesPerCycle(gpu, m, 4096, 15 * 128, 2), runtime::Error);   // a warp idle
  EXPECT_THROW(strideBandwidthBytesPerCycle(gpu, m, 4096, 100 * 127, 2), runtime::Error);  // not lines
}

}  // namespace
}  // namespace warpsim::micro
