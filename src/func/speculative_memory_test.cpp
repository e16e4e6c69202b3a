// A CTA's speculative view of global memory: reads see device memory, writes stay private until
// applied, and the bytes read before being written are what a conflict check looks at.
#include <gtest/gtest.h>

#include <cstring>

#include "func/speculative_memory.h"

namespace warpsim::func {
namespace {

using Access = SpeculativeMemory::Access;

uint32_t loadWord(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

class SpeculativeMemoryTest : public ::testing::Test {
 protected:
  SpeculativeMemoryTest() : base(memory.allocate(4096)) {
    for (uint32_t i = 0; i < 1024; ++i) memory.write(base + 4 * i, &i, 4);
  }
  DeviceMemory memory;
  uint64_t base;
};

TEST_F(SpeculativeMemoryTest, WritesStayPrivateUntilApplied) {
  SpeculativeMemory view(memory);
  EXPECT_EQ(loadWord(view.access(base + 40, 4, Access::Read)), 10u);
  const uint32_t v = 0xABCD;
  std::memcpy(view.access(base + 44, 4, Access::Write), &v, 4);
  // The view reads its own write, and the rest of the line as device memory holds it.
  EXPECT_EQ(loadWord(view.access(base + 44, 4, Access::Read)), 0xABCDu);
  EXPECT_EQ(loadWord(view.access(base + 48, 4, Access::Read)), 12u);
  uint32_t inMemory = 0;
  memory.read(base + 44, &inMemory, 4);
  EXPECT_EQ(inMemory, 11u);

  WrittenLines written;
  view.applyTo(memory, written);
  memory.read(base + 44, &inMemory, 4);
  EXPECT_EQ(inMemory, 0xABCDu);
  // Only the written bytes move: a write to memory after the view copied the line stays.
  uint32_t neighbour = 0;
  memory.read(base + 40, &neighbour, 4);
  EXPECT_EQ(neighbour, 10u);
}

TEST_F(SpeculativeMemoryTest, ApplyingMovesOnlyTheWrittenBytes) {
  SpeculativeMemory view(memory);
  const uint8_t b = 0x77;
  std::memcpy(view.access(base + 130, 1, Access::Write), &b, 1);
  const uint32_t other = 99;
  memory.write(base + 128, &other, 4);  // after the view copied the line: bytes 128, 129, 131
  WrittenLines written;
  view.applyTo(memory, written);
  uint32_t word = 0;
  memory.read(base + 128, &word, 4);
  EXPECT_EQ(word, 0x00770063u);
}

TEST_F(SpeculativeMemoryTest, AConflictIsAByteReadThatAnotherRunWrote) {
  SpeculativeMemory earlier(memory), later(memory);
  const uint32_t v = 5;
  std::memcpy(earlier.access(base + 256, 4, Access::Write), &v, 4);
  WrittenLines written;
  earlier.applyTo(memory, written);

  // Other bytes of the same line: no conflict.
  later.access(base + 260, 4, Access::Read);
  EXPECT_FALSE(later.readAnyOf(written));
  // A write of the byte is no conflict either (it comes after).
  std::memcpy(later.access(base + 256, 4, Access::Write), &v, 4);
  EXPECT_FALSE(later.readAnyOf(written));
  // Reading the byte it wrote itself reads its own value.
  later.access(base + 256, 4, Access::Read);
  EXPECT_FALSE(later.readAnyOf(written));

  SpeculativeMemory reader(memory);
  reader.access(base + 258, 2, Access::Read);
  EXPECT_TRUE(reader.readAnyOf(written));
  SpeculativeMemory atomic(memory);
  atomic.access(base + 256, 4, Access::ReadWrite);
  EXPECT_TRUE(atomic.readAnyOf(written));
}

TEST_F(SpeculativeMemoryTest, PagesNeverTouchedReadAsZerosAndAreCreatedOnApply) {
  const uint64_t far = memory.allocate(1 << 20);  // its pages do not exist yet
  SpeculativeMemory view(memory);
  EXPECT_EQ(loadWord(view.access(far + 70000, 4, Access::Read)), 0u);
  EXPECT_EQ(memory.existingPage((far + 70000) >> DeviceMemory::kPageBits), nullptr);
  const uint32_t v = 3;
  std::memcpy(view.access(far + 70004, 4, Access::Write), &v, 4);
  WrittenLines written;
  view.applyTo(memory, written);
  uint32_t got = 0;
  memory.read(far + 70004, &got, 4);
  EXPECT_EQ(got, 3u);
}

TEST_F(SpeculativeMemoryTest, ClearForgetsEveryLine) {
  SpeculativeMemory view(memory);
  for (uint32_t i = 0; i < 1024; ++i) view.access(base + 4 * i, 4, Access::Read);  // grows the table
  EXPECT_EQ(view.lines(), 32u);
  const uint32_t v = 1;
  std::memcpy(view.access(base, 4, Access::Write), &v, 4);
  view.clear();
  EXPECT_EQ(view.lines(), 0u);
  WrittenLines written;
  view.applyTo(memory, written);
  uint32_t got = 9;
  memory.read(base, &got, 4);
  EXPECT_EQ(got, 0u);
  EXPECT_EQ(loadWord(view.access(base + 4, 4, Access::Read)), 1u);
}

}  // namespace
}  // namespace warpsim::func
