#include "cudart/mem_pool.h"

#include <gtest/gtest.h>

#include "cudart/mem_pools.h"
#include "func/device_memory.h"

namespace warpsim::cudart {
namespace {

constexpr uint64_t kMiB = uint64_t{1} << 20;

TEST(MemPool, ReservesChunksAndHandsOutRoundedPieces) {
  func::DeviceMemory memory(64 * kMiB);
  MemPool pool(memory, 0);
  uint64_t a = pool.allocate(100);
  uint64_t b = pool.allocate(300);
  ASSERT_NE(a, 0u);
  EXPECT_EQ(b, a + 256);  // 100 bytes take one 256-byte granule
  EXPECT_EQ(pool.usedBytes(), 256u + 512u);
  EXPECT_EQ(pool.reservedBytes(), 2 * kMiB);
  EXPECT_EQ(memory.used(), 2 * kMiB);
  // A request over a chunk gets its own chunk, rounded up to 2 MiB.
  uint64_t big = pool.allocate(3 * kMiB);
  ASSERT_NE(big, 0u);
  EXPECT_EQ(pool.reservedBytes(), 6 * kMiB);
  EXPECT_EQ(pool.liveAllocations(), 3u);
  EXPECT_TRUE(pool.owns(b));
  EXPECT_FALSE(pool.owns(b + 256));
}

TEST(MemPool, ReusesFreedPiecesFirstFitAndCoalesces) {
  func::DeviceMemory memory(64 * kMiB);
  MemPool pool(memory, 0);
  uint64_t a = pool.allocate(256);
  uint64_t b = pool.allocate(256);
  uint64_t c = pool.allocate(256);
  ASSERT_TRUE(pool.free(a));
  EXPECT_FALSE(pool.free(a));
  EXPECT_EQ(pool.allocate(256), a);  // the freed piece, first in the chunk
  ASSERT_TRUE(pool.free(a));
  ASSERT_TRUE(pool.free(b));
  EXPECT_EQ(pool.allocate(512), a);  // a and b merged
  EXPECT_EQ(pool.usedBytes(), 768u);
  EXPECT_EQ(pool.usedHigh(), 768u);
  ASSERT_TRUE(pool.free(c));
  EXPECT_EQ(pool.usedBytes(), 512u);
  EXPECT_EQ(pool.usedHigh(), 768u);
  pool.resetUsedHigh();
  EXPECT_EQ(pool.usedHigh(), 512u);
}

TEST(MemPool, ReleasesWholeFreeChunksDownToTheThreshold) {
  func::DeviceMemory memory(64 * kMiB);
  MemPool pool(memory, 0);
  uint64_t first = pool.allocate(2 * kMiB);
  uint64_t second = pool.allocate(2 * kMiB);
  uint64_t third = pool.allocate(2 * kMiB);
  EXPECT_EQ(pool.reservedBytes(), 6 * kMiB);
  pool.free(second);
  pool.free(third);
  pool.releaseThreshold = 3 * kMiB;
  pool.synchronize();  // one free chunk goes (6 -> 4 MiB); the other would leave 2 < 3
  EXPECT_EQ(pool.reservedBytes(), 4 * kMiB);
  EXPECT_EQ(pool.reservedHigh(), 6 * kMiB);
  pool.releaseAbove(0);  // a chunk with a live piece stays
  EXPECT_EQ(pool.reservedBytes(), 2 * kMiB);
  pool.free(first);
  pool.releaseAbove(0);
  EXPECT_EQ(pool.reservedBytes(), 0u);
  EXPECT_EQ(memory.used(), 0u);
}

TEST(MemPool, RespectsItsMaximumSizeAndTheDevice) {
  func::DeviceMemory memory(8 * kMiB);
  MemPool limited(memory, 4 * kMiB);
  EXPECT_NE(limited.allocate(3 * kMiB), 0u);  // a chunk of 4 MiB
  EXPECT_NE(limited.allocate(kMiB), 0u);      // the rest of it
  EXPECT_EQ(limited.allocate(256), 0u);       // a second chunk would pass 4 MiB
  EXPECT_EQ(limited.reservedBytes(), 4 * kMiB);
  MemPool unlimited(memory, 0);
  EXPECT_EQ(unlimited.allocate(6 * kMiB), 0u);  // the device has 4 MiB left
  EXPECT_NE(unlimited.allocate(4 * kMiB), 0u);
}

TEST(MemPools, TracksCurrentPoolsDestructionAndGraphAllocations) {
  func::DeviceMemory memory(64 * kMiB);
  MemPools pools(memory);
  EXPECT_EQ(pools.current(), pools.defaultPool());
  MemPool* mine = pools.create(0);
  pools.setCurrent(mine);
  uint64_t a = mine->allocate(1000);
  pools.destroy(mine);  // outstanding: destroyed when the last piece is freed
  EXPECT_EQ(pools.current(), pools.defaultPool());
  EXPECT_FALSE(pools.isPool(mine));
  EXPECT_EQ(pools.ownerOf(a), mine);
  EXPECT_TRUE(pools.free(a));
  EXPECT_EQ(pools.ownerOf(a), nullptr);
  EXPECT_EQ(memory.used(), 0u);

  auto g = pools.allocateForGraph(1000);
  ASSERT_TRUE(g);
  EXPECT_EQ(g->bytes, 1024u);
  EXPECT_EQ(pools.graphAllocationAt(g->address), g.get());
  EXPECT_EQ(pools.graphReserved(), 1024u);
  pools.setLive(*g, true);
  EXPECT_EQ(pools.graphUsed(), 1024u);
  pools.setLive(*g, false);
  EXPECT_EQ(pools.graphUsedHigh(), 1024u);
  uint64_t address = g->address;
  g.reset();
  EXPECT_EQ(pools.graphAllocationAt(address), nullptr);
  EXPECT_EQ(pools.graphReserved(), 0u);
  EXPECT_EQ(memory.used(), 0u);
}

}  // namespace
}  // namespace warpsim::cudart
