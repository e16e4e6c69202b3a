// The per-kernel partition of the unified pool (partition.h) on hand-made resource requests, with
// the SM slots of the unified-storage study's SM (32 warps, 1,024 threads, 8 CTAs) and Fermi's
// allocation units (registers per warp in units of 64, warps in pairs, shared in 128 bytes).
#include "mech/unified_storage/partition.h"

#include <gtest/gtest.h>

namespace warpsim::mech::unified_storage {
namespace {

constexpr uint64_t KB = 1024;

timing::SmResourceLimits slots() {
  timing::SmResourceLimits l;
  l.maxWarps = 32;
  l.maxThreads = 1024;
  l.maxCtas = 8;
  l.registers = 1;    // not used: the pool replaces them
  l.sharedBytes = 1;  // likewise
  l.registerUnit = 64;
  l.warpGranularity = 2;
  l.sharedUnit = 128;
  l.maxRegsPerThread = 64;
  return l;
}

timing::KernelResources kernel(uint32_t regs, uint32_t threads, uint32_t shared) {
  timing::KernelResources k;
  k.registersPerThread = regs;
  k.threadsPerCta = threads;
  k.sharedBytesPerCta = shared;
  return k;
}

PoolParams pool(uint64_t bytes) {
  PoolParams p;
  p.poolBytes = bytes;
  return p;
}

TEST(UnifiedPartition, RegistersForTheSlotsTheRestToTheL1UpToItsTags) {
  // 32 registers x 256 threads = 32 KB per CTA; the warp slots allow 4 CTAs: 128 KB of
  // registers, and the other 256 KB is the L1 (its largest size).
  timing::Occupancy o;
  ASSERT_EQ(choosePartition(pool(384 * KB), slots(), kernel(32, 256, 0), &o), "");
  EXPECT_EQ(o.ctasPerSm, 4u);
  EXPECT_EQ(o.warpsPerSm, 32u);
  EXPECT_STREQ(o.limitedBy, "warps");
  EXPECT_EQ(o.carveout.registerBytes, 128 * KB);
  EXPECT_EQ(o.carveout.sharedBytes, 0u);
  EXPECT_EQ(o.carveout.l1Bytes, 256 * KB);
  EXPECT_EQ(o.carveout.unusedBytes, 0u);
}

TEST(UnifiedPartition, LargeSharedTilesTakeThePoolAndTheL1GetsWholeGranules) {
  // Needleman-Wunsch at blocking 64: 24 registers x 64 threads (2 warps: 1,536 registers, 6 KB)
  // and 2 x 65 x 65 x 4 = 33,800 shared bytes (33,920 in 128-byte units) per CTA. The CTA slots
  // allow 8: 48 KB + 265 KB; 71 KB is left, of which the L1 takes 64 KB (16 KB granules).
  timing::Occupancy o;
  ASSERT_EQ(choosePartition(pool(384 * KB), slots(), kernel(24, 64, 33800), &o), "");
  EXPECT_EQ(o.ctasPerSm, 8u);
  EXPECT_STREQ(o.limitedBy, "ctas");
  EXPECT_EQ(o.carveout.registerBytes, 48 * KB);
  EXPECT_EQ(o.carveout.sharedBytes, 8 * 33920u);
  EXPECT_EQ(o.carveout.l1Bytes, 64 * KB);
  EXPECT_EQ(o.carveout.unusedBytes, 384 * KB - 48 * KB - 8 * 33920 - 64 * KB);
  // A 128 KB pool holds 3 of them (40,064 bytes each), and the 8,000 bytes left are no granule.
  ASSERT_EQ(choosePartition(pool(128 * KB), slots(), kernel(24, 64, 33800), &o), "");
  EXPECT_EQ(o.ctasPerSm, 3u);
  EXPECT_STREQ(o.limitedBy, "pool");
  EXPECT_EQ(o.carveout.l1Bytes, 0u);
  EXPECT_EQ(o.carveout.unusedBytes, 128 * KB - 3 * (6 * KB + 33920));
}

TEST(UnifiedPartition, AThreadCapLeavesMoreL1) {
  // The cache-sensitive exception: 768 threads instead of 1,024 -> 3 CTAs, 96 KB of registers;
  // 288 KB is left, the L1 takes its largest, 256 KB.
  PoolParams p = pool(384 * KB);
  p.maxThreads = 768;
  timing::Occupancy o;
  ASSERT_EQ(choosePartition(p, slots(), kernel(32, 256, 0), &o), "");
  EXPECT_EQ(o.ctasPerSm, 3u);
  EXPECT_STREQ(o.limitedBy, "max_threads");
  EXPECT_EQ(o.carveout.registerBytes, 96 * KB);
  EXPECT_EQ(o.carveout.l1Bytes, 256 * KB);
  EXPECT_EQ(o.carveout.unusedBytes, 32 * KB);
}

TEST(UnifiedPartition, TheL1MinimumComesFirst) {
  PoolParams p = pool(128 * KB);
  p.minL1Bytes = 16 * KB;
  timing::Occupancy o;
  ASSERT_EQ(choosePartition(p, slots(), kernel(32, 256, 0), &o), "");
  EXPECT_EQ(o.ctasPerSm, 3u);  // 112 KB of room: 3 CTAs of 32 KB
  EXPECT_EQ(o.carveout.l1Bytes, 32 * KB);
}

TEST(UnifiedPartition, ACtaLargerThanThePoolIsAnErrorNamingWhatDoesNotFit) {
  timing::Occupancy o;
  EXPECT_EQ(choosePartition(pool(256 * KB), slots(), kernel(64, 1024, 16384), &o),
            "one CTA needs 256 KB of registers (64 per thread, 1024 threads) and 16 KB of shared memory, "
            "more than the 256 KB unified pool");
  EXPECT_EQ(o.ctasPerSm, 0u);
  PoolParams p = pool(160 * KB);
  p.minL1Bytes = 64 * KB;
  EXPECT_EQ(choosePartition(p, slots(), kernel(32, 1024, 0), &o),
            "one CTA needs 128 KB of registers (32 per thread, 1024 threads) and 0 KB of shared memory, "
            "more than the 160 KB unified pool leaves beside the L1's 64 KB");
  EXPECT_EQ(choosePartition(pool(384 * KB), slots(), kernel(65, 32, 0), &o),
            "65 registers per thread exceed the SM's limit of 64");
}

}  // namespace
}  // namespace warpsim::mech::unified_storage
