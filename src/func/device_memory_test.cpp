// DeviceMemory: allocation, capacity, host access checks, sparse pages, mapped chunks and
// initialisation tracking.
#include "func/device_memory.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace warpsim::func {
namespace {

TEST(DeviceMemory, AllocationsAreAlignedDisjointAndNeverNull) {
  DeviceMemory m(1 << 20);
  uint64_t a = m.allocate(100);
  uint64_t b = m.allocate(1, 4096);
  uint64_t c = m.allocate(0);
  EXPECT_EQ(a, DeviceMemory::kBaseAddress + AllocationLayout::kDriverBytes);  // after the driver's chunk
  EXPECT_EQ(a % 256, 0u);
  EXPECT_EQ(b % 4096, 0u);
  EXPECT_GE(b, a + 100);
  EXPECT_NE(c, 0u);
  EXPECT_NE(c, b);
  EXPECT_EQ(m.used(), 3u * 256);
  EXPECT_TRUE(m.isMapped(a, 100));
  EXPECT_FALSE(m.isMapped(a, 101));
  EXPECT_FALSE(m.isMapped(a + 100, 1));
  EXPECT_FALSE(m.isMapped(0, 1));
  EXPECT_TRUE(m.isMapped(c, 1));
}

TEST(DeviceMemory, CapacityIsEnforcedAndReleaseGivesItBack) {
  DeviceMemory m(4096);
  uint64_t a = m.allocate(4000);
  ASSERT_NE(a, 0u);
  EXPECT_EQ(m.allocate(256), 0u);  // 4096 + 256 > capacity
  EXPECT_TRUE(m.release(a));
  EXPECT_EQ(m.used(), 0u);
  EXPECT_FALSE(m.release(a));
  EXPECT_FALSE(m.isMapped(a, 1));
  EXPECT_NE(m.allocate(4096), 0u);
  EXPECT_EQ(m.capacity(), 4096u);
}

TEST(DeviceMemory, ReleaseOnlyAtAllocationStart) {
  DeviceMemory m;
  uint64_t a = m.allocate(1024);
  EXPECT_FALSE(m.release(a + 8));
  EXPECT_TRUE(m.isMapped(a, 1024));
}

TEST(DeviceMemory, ReadWriteFillAcrossPages) {
  DeviceMemory m;
  const uint64_t n = 3 * DeviceMemory::kPageSize + 123;
  uint64_t a = m.allocate(n);
  std::vector<uint8_t> in(n);
  for (uint64_t i = 0; i < n; ++i) in[i] = static_cast<uint8_t>(i * 7 + 3);
  m.write(a, in.data(), n);
  std::vector<uint8_t> out(n);
  m.read(a, out.data(), n);
  EXPECT_EQ(in, out);
  m.fill(a + 10, 0xAB, DeviceMemory::kPageSize);
  m.read(a, out.data(), n);
  EXPECT_EQ(out[9], in[9]);
  EXPECT_EQ(out[10], 0xAB);
  EXPECT_EQ(out[10 + DeviceMemory::kPageSize - 1], 0xAB);
  EXPECT_EQ(out[10 + DeviceMemory::kPageSize], in[10 + DeviceMemory::kPageSize]);
}

TEST(DeviceMemory, FreshMemoryReadsZero) {
  DeviceMemory m;
  uint64_t a = m.allocate(1 << 20);
  std::vector<uint32_t> v(1 << 18, 0xFFFFFFFF);
  m.read(a, v.data(), 1 << 20);
  for (uint32_t x : v) ASSERT_EQ(x, 0u);
}

TEST(DeviceMemory, UnmappedHostAccessThrowsNamingTheAddress) {
  DeviceMemory m;
  uint64_t a = m.allocate(16);
  uint32_t x = 0;
  try {
    m.read(a + 16, &x, 4);
    FAIL() << "no exception";
  } catch (const MemoryError& e) {
    EXPECT_EQ(std::string(e.what()), "read of 4 bytes at device address 0x7f0000200010: not inside a live allocation");
  }
  EXPECT_THROW(m.write(a + 14, &x, 4), MemoryError);  // straddles the end
  EXPECT_THROW(m.fill(0, 0, 1), MemoryError);
  m.release(a);
  EXPECT_THROW(m.read(a, &x, 4), MemoryError);  // use after free
  m.read(a, &x, 0);                              // empty access: no-op
}

TEST(DeviceMemory, EngineTranslationSeesHostWrites) {
  DeviceMemory m;
  uint64_t a = m.allocate(256);
  uint64_t b = m.allocate(256);
  uint32_t v = 0xDEADBEEF;
  m.write(b + 4, &v, 4);
  ASSERT_NE(m.allocationOf(b + 4, 4), nullptr);
  EXPECT_EQ(m.allocationOf(b + 4, 4)->base, b);
  EXPECT_EQ(m.allocationOf(a, 4)->base, a);
  EXPECT_EQ(m.allocationOf(b + 254, 4), nullptr);
  uint32_t got;
  std::memcpy(&got, m.translate(b + 4), 4);
  EXPECT_EQ(got, 0xDEADBEEFu);
}

// Freeing one allocation of a chunk keeps the chunk (and its other allocations' data); the freed
// addresses are never handed out again.
TEST(DeviceMemory, ReleasedAllocationsAreNeverReused) {
  DeviceMemory m;
  const uint64_t big = 4 * DeviceMemory::kPageSize;
  uint64_t a = m.allocate(big);
  uint64_t b = m.allocate(16);  // packed right after a, in the same chunk
  EXPECT_EQ(b, a + big);
  m.fill(a, 1, big);
  m.fill(b, 2, 16);
  EXPECT_TRUE(m.release(a));
  uint8_t x = 0;
  m.read(b, &x, 1);
  EXPECT_EQ(x, 2);
  // A new allocation never aliases the freed one, and reads zero.
  uint64_t c = m.allocate(big);
  EXPECT_NE(c, a);
  std::vector<uint8_t> v(big, 9);
  m.read(c, v.data(), big);
  for (uint8_t y : v) ASSERT_EQ(y, 0);
}

// Memory outside allocations but inside mapped chunks is backed (the engine reads and writes it);
// the host accessors still refuse it, as cudaMemcpy does.
TEST(DeviceMemory, ChunksAroundAllocationsAreBackedButNotHostAccessible) {
  DeviceMemory m;
  const uint64_t a = m.allocate(400);
  EXPECT_TRUE(m.isBacked(a - 4, 4));                              // the driver's chunk
  EXPECT_TRUE(m.isBacked(DeviceMemory::kBaseAddress, 1));
  EXPECT_FALSE(m.isBacked(DeviceMemory::kBaseAddress - 1, 1));
  EXPECT_TRUE(m.isBacked(a + 400, 4));                            // the rest of a's chunk
  EXPECT_TRUE(m.isBacked(a + AllocationLayout::kChunkBytes - 4, 4));
  EXPECT_FALSE(m.isBacked(a + AllocationLayout::kChunkBytes, 1));  // nothing mapped after it
  EXPECT_FALSE(m.isBacked(0, 1));
  EXPECT_FALSE(m.isMapped(a - 4, 4));
  uint32_t x = 7;
  EXPECT_THROW(m.write(a - 4, &x, 4), MemoryError);
  // What the engine writes there through translate() stays (the page is shared with `a`).
  std::memcpy(m.translate(a + 400), &x, 4);
  uint32_t back = 0;
  std::memcpy(&back, m.translate(a + 400), 4);
  EXPECT_EQ(back, 7u);
}

TEST(DeviceMemory, FreeingTheLastAllocationOfAChunkUnmapsItAndDropsItsData) {
  DeviceMemory m;
  const uint64_t big = m.allocate(3 << 20);  // a chunk of 4 MiB of its own
  m.fill(big, 0x5a, 3 << 20);
  EXPECT_TRUE(m.isBacked(big + (4 << 20) - 1, 1));
  EXPECT_TRUE(m.release(big));
  EXPECT_FALSE(m.isBacked(big, 1));
  const uint64_t again = m.allocate(3 << 20);
  EXPECT_EQ(again, big + (4 << 20));  // never reused
  uint8_t b = 1;
  m.read(again, &b, 1);
  EXPECT_EQ(b, 0);
}

TEST(DeviceMemory, RelocateMovesTheEmptyAddressSpaceOnly) {
  DeviceMemory m;
  EXPECT_TRUE(m.relocate(0x7f12'3456'7000ull));
  EXPECT_EQ(m.baseAddress(), 0x7f12'3460'0000ull);  // rounded up to 2 MiB
  const uint64_t a = m.allocate(16);
  EXPECT_EQ(a, 0x7f12'3480'0000ull);
  EXPECT_FALSE(m.relocate(DeviceMemory::kBaseAddress));
  EXPECT_EQ(m.baseAddress(), 0x7f12'3460'0000ull);
}

TEST(DeviceMemory, InitialisationTrackingRemembersWrittenBytes) {
  DeviceMemory m;
  const uint64_t early = m.allocate(256);
  m.fill(early, 1, 8);  // before tracking: its page counts as written
  m.trackInitialisation();
  EXPECT_TRUE(m.tracksInitialisation());
  EXPECT_TRUE(m.isWritten(early + 128, 16));
  const uint64_t a = m.allocate(1 << 17, DeviceMemory::kPageSize);  // two fresh pages
  EXPECT_FALSE(m.isWritten(a, 1));
  const uint32_t v = 5;
  m.write(a + 4, &v, 4);
  EXPECT_TRUE(m.isWritten(a + 4, 4));
  EXPECT_FALSE(m.isWritten(a, 8));  // bytes 0..3 were never written
  m.fill(a + DeviceMemory::kPageSize - 8, 0, 16);  // across the page boundary
  EXPECT_TRUE(m.isWritten(a + DeviceMemory::kPageSize - 8, 8));
  EXPECT_TRUE(m.isWritten(a + DeviceMemory::kPageSize, 8));
  EXPECT_FALSE(m.isWritten(a + DeviceMemory::kPageSize + 8, 1));
  m.markWritten(a + 64, 64);  // a whole 64-bit word of bits
  EXPECT_TRUE(m.isWritten(a + 64, 16));
  EXPECT_TRUE(m.isWritten(a + 112, 16));
  EXPECT_FALSE(m.isWritten(a + 128, 1));
  DeviceMemory off;
  const uint64_t b = off.allocate(16);
  EXPECT_TRUE(off.isWritten(b, 16));  // not tracking: everything counts as written
}

TEST(DeviceMemory, RejectsBadAlignment) {
  DeviceMemory m;
  EXPECT_THROW(m.allocate(16, 3), std::invalid_argument);
  EXPECT_THROW(m.allocate(16, 0), std::invalid_argument);
}

}  // namespace
}  // namespace warpsim::func
