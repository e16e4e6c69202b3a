// RegisterCache: FIFO and LRU replacement, 64-bit registers taking two entries, replacement of
// an older copy, drain order.
#include "mech/rfc/register_cache.h"

#include <gtest/gtest.h>

#include <vector>

namespace warpsim::mech::rfc {
namespace {

std::vector<uint32_t> insertAll(RegisterCache& c, uint32_t slot, const std::vector<uint32_t>& regs) {
  std::vector<uint32_t> evicted;
  for (uint32_t r : regs) c.insert(slot, r, 1, true, [&](const CachedRegister& e) { evicted.push_back(e.reg); });
  return evicted;
}

TEST(RegisterCache, FifoEvictsInInsertionOrderWhateverWasRead) {
  RegisterCache c(2, 3, Replacement::Fifo);
  insertAll(c, 0, {1, 2, 3});
  c.touch(0, *c.find(0, 1));  // a read does not change FIFO order
  EXPECT_EQ(insertAll(c, 0, {4, 5}), (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(c.find(0, 1), nullptr);
  EXPECT_NE(c.find(0, 3), nullptr);
  EXPECT_EQ(c.usedWords(1), 0u);  // slots are independent
}

TEST(RegisterCache, LruEvictsTheLeastRecentlyRead) {
  RegisterCache c(1, 3, Replacement::Lru);
  insertAll(c, 0, {1, 2, 3});
  c.touch(0, *c.find(0, 1));
  EXPECT_EQ(insertAll(c, 0, {4}), (std::vector<uint32_t>{2}));
  c.touch(0, *c.find(0, 3));
  EXPECT_EQ(insertAll(c, 0, {5}), (std::vector<uint32_t>{1}));
}

TEST(RegisterCache, WideRegisterTakesTwoEntriesAndEvictsUntilItFits) {
  RegisterCache c(1, 3, Replacement::Fifo);
  insertAll(c, 0, {1, 2, 3});
  std::vector<uint32_t> evicted;
  ASSERT_TRUE(c.insert(0, 8, 2, true, [&](const CachedRegister& e) { evicted.push_back(e.reg); }));
  EXPECT_EQ(evicted, (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(c.usedWords(0), 3u);
  RegisterCache one(1, 1, Replacement::Fifo);
  EXPECT_FALSE(one.insert(0, 8, 2, true, [](const CachedRegister&) {}));  // never fits
  EXPECT_EQ(one.usedWords(0), 0u);
}

TEST(RegisterCache, NewValueReplacesTheOldCopyWithoutEvictingIt) {
  RegisterCache c(1, 2, Replacement::Fifo);
  insertAll(c, 0, {1, 2});
  EXPECT_TRUE(insertAll(c, 0, {1}).empty());  // the old copy of r1 is superseded, not evicted
  EXPECT_EQ(insertAll(c, 0, {3}), (std::vector<uint32_t>{2}));  // r1 is now the newest
}

TEST(RegisterCache, DrainVisitsEntriesInReplacementOrderAndEmpties) {
  RegisterCache c(1, 4, Replacement::Fifo);
  insertAll(c, 0, {7, 5, 6});
  ASSERT_TRUE(c.remove(0, 5));
  EXPECT_FALSE(c.remove(0, 5));
  std::vector<uint32_t> order;
  c.drain(0, [&](const CachedRegister& e) { order.push_back(e.reg); });
  EXPECT_EQ(order, (std::vector<uint32_t>{7, 6}));
  EXPECT_EQ(c.usedWords(0), 0u);
  EXPECT_EQ(c.find(0, 7), nullptr);
}

}  // namespace
}  // namespace warpsim::mech::rfc
