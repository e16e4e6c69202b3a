// AllocationLayout: the driver's chunk first, small allocations packed 256-byte aligned into
// 2 MiB chunks, large ones in chunks of their own, chunks unmapped when emptied, never reused.
#include "func/allocation_layout.h"

#include <gtest/gtest.h>

#include "func/memory_findings.h"

namespace warpsim::func {
namespace {

constexpr uint64_t kBase = 0x7f00'0000'0000ull;
constexpr uint64_t kMiB = uint64_t{1} << 20;

uint64_t place(AllocationLayout& l, uint64_t bytes, uint64_t align = 256) {
  AllocationLayout::Chunk closed;
  const uint64_t a = l.place(bytes, align, &closed);
  EXPECT_EQ(closed.end, 0u) << "no chunk expected to close";
  return a;
}

TEST(AllocationLayout, SmallAllocationsArePackedAfterTheDriversChunk) {
  AllocationLayout l(kBase);
  EXPECT_EQ(place(l, 400), kBase + 2 * kMiB);
  EXPECT_EQ(place(l, 1), kBase + 2 * kMiB + 512);        // 400 rounded up to 512
  EXPECT_EQ(place(l, 0), kBase + 2 * kMiB + 768);        // 0 counts as 1 byte: one granule
  EXPECT_EQ(place(l, 8, 4096), kBase + 2 * kMiB + 4096);  // a stronger alignment is kept
  ASSERT_EQ(l.chunks().size(), 2u);
  EXPECT_EQ(l.chunks()[0].start, kBase);  // the driver's
  EXPECT_EQ(l.chunks()[0].end, kBase + 2 * kMiB);
  EXPECT_EQ(l.chunks()[1].start, kBase + 2 * kMiB);
  EXPECT_EQ(l.chunks()[1].end, kBase + 4 * kMiB);
  EXPECT_EQ(l.chunks()[1].live, 4u);
  EXPECT_EQ(l.allocations()[1].size, 1u);
}

TEST(AllocationLayout, AFullChunkOpensTheNextAndLargeAllocationsGetTheirOwn) {
  AllocationLayout l(kBase);
  const uint64_t a = place(l, kMiB + 1);       // small: fits one chunk
  const uint64_t b = place(l, kMiB);           // does not fit after a: next chunk
  EXPECT_EQ(a, kBase + 2 * kMiB);
  EXPECT_EQ(b, kBase + 4 * kMiB);
  const uint64_t big = place(l, 5 * kMiB);     // 6 MiB of its own
  EXPECT_EQ(big, kBase + 6 * kMiB);
  const uint64_t c = place(l, 256);            // back into b's chunk, below the large one
  EXPECT_EQ(c, kBase + 5 * kMiB);
  EXPECT_EQ(place(l, 2 * kMiB), kBase + 12 * kMiB);
  // Allocations stay sorted by address whatever the order they were placed in.
  ASSERT_EQ(l.allocations().size(), 5u);
  for (size_t i = 1; i < l.allocations().size(); ++i)
    EXPECT_LT(l.allocations()[i - 1].base, l.allocations()[i].base);
  EXPECT_TRUE(l.isMapped(big + 6 * kMiB - 4, 4));
  EXPECT_TRUE(l.isMapped(big - 4, 8));  // across two touching chunks
  EXPECT_FALSE(l.isMapped(kBase + 14 * kMiB, 1));
  EXPECT_FALSE(l.isMapped(kBase - 1, 1));
  EXPECT_FALSE(l.isMapped(~uint64_t{0} - 2, 8));  // wraps around the address space
}

TEST(AllocationLayout, EmptiedChunksAreUnmappedExceptTheOpenOneAndTheDrivers) {
  AllocationLayout l(kBase);
  const uint64_t a = place(l, 1024);
  const uint64_t big = place(l, 3 * kMiB);
  AllocationLayout::Allocation gone;
  AllocationLayout::Chunk unmapped;
  ASSERT_TRUE(l.remove(big, &gone, &unmapped));
  EXPECT_EQ(gone.base, big);
  EXPECT_EQ(gone.size, 3 * kMiB);
  EXPECT_EQ(unmapped.start, big);
  EXPECT_EQ(unmapped.end, big + 4 * kMiB);
  EXPECT_FALSE(l.isMapped(big, 1));
  ASSERT_TRUE(l.remove(a, &gone, &unmapped));
  EXPECT_EQ(unmapped.end, 0u);  // a's chunk is still the one small allocations go to
  EXPECT_TRUE(l.isMapped(a, 1));
  EXPECT_FALSE(l.remove(a, &gone, &unmapped));
  EXPECT_EQ(place(l, 64), a + 1024);  // never reused: packing goes on after a
  // When that chunk fills up and nothing lives in it, it goes as the next one opens.
  ASSERT_TRUE(l.remove(a + 1024, &gone, &unmapped));
  AllocationLayout::Chunk closed;
  const uint64_t next = l.place(2 * kMiB - 256, 256, &closed);
  EXPECT_EQ(closed.start, kBase + 2 * kMiB);
  EXPECT_EQ(closed.end, kBase + 4 * kMiB);
  EXPECT_EQ(next, big + 4 * kMiB);
  EXPECT_FALSE(l.isMapped(a, 1));
  EXPECT_TRUE(l.isMapped(kBase, 1));  // the driver's chunk stays
}

TEST(AllocationLayout, RelocateOnlyWhileEmpty) {
  AllocationLayout l(kBase + 1);
  EXPECT_EQ(l.base(), kBase + 2 * kMiB);
  EXPECT_TRUE(l.relocate(kBase));
  EXPECT_EQ(l.base(), kBase);
  place(l, 1);
  EXPECT_FALSE(l.relocate(kBase + 64 * kMiB));
  EXPECT_EQ(l.base(), kBase);
  EXPECT_THROW(place(l, 1, 48), std::invalid_argument);
}

TEST(AllocationLayout, AddressesAreDescribedByTheNearestAllocation) {
  AllocationLayout l(kBase);
  EXPECT_EQ(describeAddress(l, kBase, 4), "no live allocation");
  const uint64_t a = place(l, 400);
  const uint64_t b = place(l, 256);
  EXPECT_EQ(a, kBase + 2 * kMiB);
  EXPECT_EQ(describeAddress(l, a - 16, 4), "16 bytes before the allocation at 0x7f0000200000 of 400 bytes");
  EXPECT_EQ(describeAddress(l, a + 16, 4), "16 bytes into the allocation at 0x7f0000200000 of 400 bytes");
  EXPECT_EQ(describeAddress(l, a + 396, 8), "straddling the end of the allocation at 0x7f0000200000 of 400 bytes");
  EXPECT_EQ(describeAddress(l, a + 404, 4), "4 bytes after the end of the allocation at 0x7f0000200000 of 400 bytes");
  // Between a (ends at +400) and b (at +512): the nearer one, the one below on a tie.
  EXPECT_EQ(describeAddress(l, a + 500, 4), "12 bytes before the allocation at 0x7f0000200200 of 256 bytes");
  EXPECT_EQ(describeAddress(l, a + 456, 4), "56 bytes after the end of the allocation at 0x7f0000200000 of 400 bytes");
  EXPECT_EQ(describeAddress(l, b + 256 + 1000, 4),
            "1000 bytes after the end of the allocation at 0x7f0000200200 of 256 bytes");
}

TEST(MemoryFindings, ReportLinesSayHowManyAndTheFirst) {
  MemoryFinding none;
  EXPECT_EQ(outsideAllocationsLine(none), "");
  EXPECT_EQ(uninitialisedReadsLine(none), "");
  MemoryFinding f;
  int described = 0;
  f.note(1, [&] { ++described; return std::string("kernel 'k' ... the first"); });
  f.note(31, [&] { ++described; return std::string("a later one"); });
  EXPECT_EQ(described, 1);
  EXPECT_EQ(f.count, 32u);
  EXPECT_EQ(outsideAllocationsLine(f),
            "warpsim: warning: 32 device memory accesses outside every allocation (a GPU lets them through inside "
            "its mapped pages; --memcheck or WARPSIM_MEMCHECK=1 makes each an error); the first: kernel 'k' ... the "
            "first");
  EXPECT_EQ(uninitialisedReadsLine(f),
            "warpsim: error: initcheck: 32 reads of uninitialised device memory; the first: kernel 'k' ... the first");
  MemoryFinding one;
  one.note(1, [] { return std::string("x"); });
  EXPECT_EQ(outsideAllocationsLine(one),
            "warpsim: warning: 1 device memory access outside every allocation (a GPU lets them through inside its "
            "mapped pages; --memcheck or WARPSIM_MEMCHECK=1 makes each an error); the first: x");
  EXPECT_EQ(uninitialisedReadsLine(one), "warpsim: error: initcheck: 1 read of uninitialised device memory; the first: x");
}

}  // namespace
}  // namespace warpsim::func
