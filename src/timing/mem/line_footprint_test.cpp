#include "timing/mem/line_footprint.h"

#include <gtest/gtest.h>

namespace warpsim::timing::mem {
namespace {

TEST(LineFootprint, CountsEachLineOnceThroughGrowth) {
  LineFootprint f;
  EXPECT_EQ(f.size(), 0u);
  for (uint64_t i = 0; i < 10000; ++i) f.insert(i * 7919);  // grows from 1024 slots to 32768
  for (uint64_t i = 0; i < 10000; i += 3) f.insert(i * 7919);
  f.insert(0);
  EXPECT_EQ(f.size(), 10000u);
  f.insert(UINT64_MAX - 1);  // any line number but the all-ones one
  EXPECT_EQ(f.size(), 10001u);
  f.clear();
  EXPECT_EQ(f.size(), 0u);
  f.insert(5);
  f.insert(5);
  EXPECT_EQ(f.size(), 1u);
}

}  // namespace
}  // namespace warpsim::timing::mem
