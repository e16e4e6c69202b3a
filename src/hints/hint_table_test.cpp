#include "hints/hint_table.h"

#include <gtest/gtest.h>

namespace warpsim::hints {
namespace {

TEST(HintTable, FindsTheRangeHoldingAnAddress) {
  const HintTable t({{0x1000, 0x2000, 7}, {0x3000, 0x3100, 9}});
  EXPECT_EQ(t.find(0x0fff), nullptr);
  ASSERT_NE(t.find(0x1000), nullptr);
  EXPECT_EQ(t.find(0x1000)->record, 7u);
  EXPECT_EQ(t.find(0x1fff)->record, 7u);
  EXPECT_EQ(t.find(0x2000), nullptr);  // ends are exclusive
  EXPECT_EQ(t.find(0x2fff), nullptr);
  EXPECT_EQ(t.find(0x30ff)->record, 9u);
  EXPECT_EQ(t.find(0x3100), nullptr);
  EXPECT_EQ(t.find(~uint64_t{0}), nullptr);
}

TEST(HintTable, TheFirstRangeGivenWinsWhereRangesOverlap) {
  // Priority order: [0x1800, 0x2800) first, then [0x1000, 0x3000) around it.
  const HintTable t({{0x1800, 0x2800, 1}, {0x1000, 0x3000, 2}, {0x1000, 0x3000, 3}});
  EXPECT_EQ(t.find(0x1000)->record, 2u);
  EXPECT_EQ(t.find(0x17ff)->record, 2u);
  EXPECT_EQ(t.find(0x1800)->record, 1u);
  EXPECT_EQ(t.find(0x27ff)->record, 1u);
  EXPECT_EQ(t.find(0x2800)->record, 2u);  // never 3: the same range as 2, given after it
  EXPECT_EQ(t.find(0x3000), nullptr);
}

TEST(HintTable, EmptyRangesAndAnEmptyTableHoldNothing) {
  EXPECT_EQ(HintTable().find(0), nullptr);
  const HintTable t({{0x100, 0x100, 1}});
  EXPECT_TRUE(t.empty());
  EXPECT_EQ(t.find(0x100), nullptr);
}

}  // namespace
}  // namespace warpsim::hints
