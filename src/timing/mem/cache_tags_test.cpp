#include "timing/mem/cache_tags.h"

#include <gtest/gtest.h>

namespace warpsim::timing::mem {
namespace {

CacheGeometry oneSet(Replacement r, uint32_t ways = 4) {
  CacheGeometry g;
  g.sizeBytes = 128 * ways;
  g.assoc = ways;
  g.replacement = r;
  return g;
}

void fill(CacheTags& t, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t w = t.victim(0);
    ASSERT_EQ(w, i);  // invalid ways first, in order
    t.install(0, w, 128 * i, InsertPosition::Mru, false);
  }
}

TEST(CacheTags, GeometryAndLookup) {
  CacheGeometry g;  // 16 KB, 4-way, 128 B lines: 32 sets
  CacheTags t(g);
  EXPECT_EQ(t.sets(), 32u);
  EXPECT_EQ(t.allSectors(), 0xFu);
  EXPECT_EQ(t.setOf(33), 1u);
  EXPECT_EQ(t.find(1, 128 * 33), kNoWay);
  t.install(1, 2, 128 * 33, InsertPosition::Mru, false);
  EXPECT_EQ(t.find(1, 128 * 33), 2u);
}

TEST(CacheTags, LruEvictsTheLeastRecentlyUsed) {
  CacheTags t(oneSet(Replacement::Lru));
  fill(t, 4);
  t.touch(0, 0);
  EXPECT_EQ(t.victim(0), 1u);
  t.touch(0, 1);
  EXPECT_EQ(t.victim(0), 2u);
  t.touch(0, 2);
  t.touch(0, 3);
  EXPECT_EQ(t.victim(0), 0u);
}

TEST(CacheTags, FifoIgnoresHits) {
  CacheTags t(oneSet(Replacement::Fifo));
  fill(t, 4);
  t.touch(0, 0);
  EXPECT_EQ(t.victim(0), 0u);
}

TEST(CacheTags, LruInsertionPositionIsEvictedNext) {
  CacheTags t(oneSet(Replacement::Lru));
  fill(t, 4);
  t.install(0, 1, 9 * 128, InsertPosition::Lru, false);
  EXPECT_EQ(t.victim(0), 1u);
  t.touch(0, 1);
  EXPECT_EQ(t.victim(0), 0u);
}

TEST(CacheTags, PendingLinesAreNeverVictimsAndPinnedOnlyAsLastResort) {
  CacheTags t(oneSet(Replacement::Lru, 2));
  fill(t, 2);
  t.line(0, 0).pending = 0x1;
  EXPECT_EQ(t.victim(0), 1u);
  t.line(0, 1).pending = 0x1;
  EXPECT_EQ(t.victim(0), kNoWay);
  t.line(0, 0).pending = 0;
  t.line(0, 1).pending = 0;
  t.install(0, 0, 0, InsertPosition::Mru, true);  // pinned, and older than way 1 after a touch
  t.touch(0, 1);
  EXPECT_EQ(t.victim(0), 1u);
  t.install(0, 1, 128, InsertPosition::Mru, true);
  EXPECT_EQ(t.victim(0), 0u);  // all pinned: the LRU one
}

TEST(CacheTags, RandomIsDeterministicPerSeed) {
  auto draws = [](uint64_t seed, uint64_t stream = 0) {
    CacheGeometry g = oneSet(Replacement::Random, 8);
    g.seed = seed;
    CacheTags t(g, stream);
    for (uint32_t i = 0; i < 8; ++i) t.install(0, i, 128 * i, InsertPosition::Mru, false);
    std::vector<uint32_t> v;
    for (int i = 0; i < 16; ++i) v.push_back(t.victim(0));
    return v;
  };
  EXPECT_EQ(draws(7), draws(7));
  EXPECT_NE(draws(7), draws(8));
  EXPECT_NE(draws(7, 0), draws(7, 1));  // each SM or slice draws its own sequence
  for (uint32_t w : draws(3)) EXPECT_LT(w, 8u);
}

TEST(CacheTags, InvalidateAllKeepsLinesWaitingForFills) {
  CacheTags t(oneSet(Replacement::Lru, 2));
  fill(t, 2);
  t.line(0, 1).pending = 0x2;
  t.invalidateAll();
  EXPECT_EQ(t.find(0, 0), kNoWay);
  EXPECT_EQ(t.find(0, 128), 1u);
}

}  // namespace
}  // namespace warpsim::timing::mem
