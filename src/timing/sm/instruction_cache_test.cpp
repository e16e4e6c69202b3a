#include "timing/sm/instruction_cache.h"

#include <gtest/gtest.h>

namespace warpsim::timing {
namespace {

TEST(InstructionCache, MissFillsAfterTheLatencyAndLaterAccessesHit) {
  InstructionCache c(1024, 2, 128, 30);  // 4 sets of 2 ways
  EXPECT_EQ(c.access(0, 5), 35u);
  EXPECT_EQ(c.access(64, 10), 35u);  // same line, fill pending: waits for it, no second miss
  EXPECT_EQ(c.access(8, 40), 40u);
  EXPECT_EQ(c.accesses(), 3u);
  EXPECT_EQ(c.misses(), 1u);
  EXPECT_EQ(c.hits(), 2u);
}

TEST(InstructionCache, LeastRecentlyUsedWayIsReplaced) {
  InstructionCache c(1024, 2, 128, 10);
  // Lines 0, 4 and 8 map to set 0.
  c.access(0 * 128, 0);
  c.access(4 * 128, 0);
  c.access(0 * 128, 20);    // line 0 is now the most recent
  c.access(8 * 128, 21);    // evicts line 4
  EXPECT_EQ(c.access(0 * 128, 40), 40u);
  EXPECT_EQ(c.access(4 * 128, 41), 51u);  // missed again
  EXPECT_EQ(c.misses(), 4u);
}

TEST(InstructionCache, InvalidateEmptiesTheCache) {
  InstructionCache c(256, 1, 128, 10);
  c.access(0, 0);
  c.invalidate();
  EXPECT_EQ(c.access(0, 20), 30u);
  EXPECT_EQ(c.misses(), 2u);
  c.clearCounters();
  EXPECT_EQ(c.accesses(), 0u);
}

}  // namespace
}  // namespace warpsim::timing
