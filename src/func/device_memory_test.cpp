// DeviceMemory: allocation, capacity, host access checks, sparse pages.
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
  EXPECT_EQ(a, DeviceMemory::kBaseAddress);
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
    EXPECT_EQ(std::string(e.what()), "read of 4 bytes at device address 0x7f0000000010: not inside a live allocation");
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

TEST(DeviceMemory, ReleasedPagesAreDroppedUnlessShared) {
  DeviceMemory m;
  const uint64_t big = 4 * DeviceMemory::kPageSize;
  uint64_t a = m.allocate(big);
  uint64_t b = m.allocate(16);  // shares a's last page? no: a ends on a page boundary
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

TEST(DeviceMemory, RejectsBadAlignment) {
  DeviceMemory m;
  EXPECT_THROW(m.allocate(16, 3), std::invalid_argument);
  EXPECT_THROW(m.allocate(16, 0), std::invalid_argument);
}

}  // namespace
}  // namespace warpsim::func
