#include "timing/sm/bank_ports.h"

#include <gtest/gtest.h>

namespace warpsim::timing {
namespace {

TEST(BankPorts, ExtraDelayHoldsTheCollectorAfterItsLastRead) {
  BankPorts p(1, 4, 4, 1, 1);
  const uint8_t banks[] = {1, 2};
  const uint32_t c = p.allocate(0, banks, 2, 3);
  p.cycle(11);                                  // both read in cycle 11
  EXPECT_EQ(p.ready(0, 12), 0u);                // baseline would be ready in 12
  EXPECT_EQ(p.nextEvent(12), 15u);
  EXPECT_EQ(p.ready(0, 15), uint64_t{1} << c);  // 11 + 1 + 3
  EXPECT_EQ(p.reads(), 2u);
}

TEST(BankPorts, WritesWaitForTheirEarliestCycleAndSilentWritesAreNotReported) {
  BankPorts p(1, 4, 4, 1, 1);
  const uint8_t bank1[] = {1};
  p.write(5, 0, bank1, 1, 12);                  // compressed write-back one cycle later
  p.write(6, 0, bank1, 1, 10, true);            // a register move of the model's own
  EXPECT_EQ(p.nextEvent(10), 10u);
  p.cycle(10);
  uint32_t tag = 0;
  EXPECT_FALSE(p.popWritten(tag));              // the silent write took bank 1, reports nothing
  EXPECT_EQ(p.nextEvent(11), 12u);
  p.cycle(11);
  EXPECT_FALSE(p.popWritten(tag));
  p.cycle(12);
  ASSERT_TRUE(p.popWritten(tag));
  EXPECT_EQ(tag, 5u);
  EXPECT_EQ(p.writes(), 2u);
  EXPECT_EQ(p.writeConflicts(), 0u);            // waiting for `earliest` is not a conflict
}

}  // namespace
}  // namespace warpsim::timing
