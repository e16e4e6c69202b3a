#include "timing/sm/bank_ports.h"

#include <gtest/gtest.h>

#include "timing/storage_banks.h"

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

TEST(BankPorts, GrantedPortsAreClaimedInSharedBanksForTheirCycleOnly) {
  StorageBanks shared(2, 4, 16);                // 8 banks: bank i of the model is storage bank i
  BankPorts p(1, 8, 4, 1, 1);
  p.shareBanks(&shared);
  const uint8_t reads[] = {3, 5};
  const uint8_t write[] = {6};
  p.allocate(0, reads, 2, 0);
  p.write(9, 0, write, 1, 20);
  p.cycle(20);
  EXPECT_TRUE(shared.readsHeld(uint64_t{1} << 3, 20));
  EXPECT_TRUE(shared.readsHeld(uint64_t{1} << 5, 20));
  EXPECT_FALSE(shared.readsHeld(uint64_t{1} << 6, 20));   // written, not read
  EXPECT_TRUE(shared.writesHeld(uint64_t{1} << 6, 20));
  EXPECT_FALSE(shared.writesHeld(uint64_t{1} << 3, 20));
  EXPECT_FALSE(shared.readsHeld(0xFF, 21));               // claims last one cycle
}

TEST(BankPorts, ConflictedCollectorsCountsEachWaitingCollectorOnce) {
  BankPorts p(1, 4, 4, 1, 1);
  const uint8_t bank2[] = {2};
  const uint8_t bank2x3[] = {2, 2, 2};
  p.allocate(0, bank2, 1, 0);                   // reads bank 2 in cycle 1
  p.allocate(0, bank2x3, 3, 0);                 // waits in 1, reads in 2, 3 and 4
  const uint8_t bank1[] = {1};
  p.allocate(0, bank1, 1, 0);                   // never waits
  for (Cycle t = 1; t <= 4; ++t) p.cycle(t);
  EXPECT_EQ(p.readConflicts(), 3u + 2 + 1);     // the second collector's reads waiting: 3, 2, 1
  EXPECT_EQ(p.conflictedCollectors(), 1u);
  EXPECT_EQ(p.reads(), 5u);
}

}  // namespace
}  // namespace warpsim::timing
