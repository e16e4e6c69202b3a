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
    t.install(0, w, 128 * i, InsertPosition::Mru, PinKind::None);
  }
}

TEST(CacheTags, GeometryAndLookup) {
  CacheGeometry g;  // 16 KB, 4-way, 128 B lines: 32 sets
  CacheTags t(g);
  EXPECT_EQ(t.sets(), 32u);
  EXPECT_EQ(t.allSectors(), 0xFu);
  EXPECT_EQ(t.setOf(33), 1u);
  EXPECT_EQ(t.find(1, 128 * 33), kNoWay);
  t.install(1, 2, 128 * 33, InsertPosition::Mru, PinKind::None);
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
  t.install(0, 1, 9 * 128, InsertPosition::Lru, PinKind::None);
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
  t.install(0, 0, 0, InsertPosition::Mru, PinKind::Soft);  // pinned, and older than way 1 after a touch
  t.touch(0, 1);
  EXPECT_EQ(t.victim(0), 1u);
  t.install(0, 1, 128, InsertPosition::Mru, PinKind::Soft);
  EXPECT_EQ(t.victim(0), 0u);  // all pinned: the LRU one
}

TEST(CacheTags, SoftPinnedLinesGoBeforeHardPinnedOnes) {
  CacheTags t(oneSet(Replacement::Lru, 3));
  t.install(0, 0, 0, InsertPosition::Mru, PinKind::Hard);
  t.install(0, 1, 128, InsertPosition::Mru, PinKind::Soft);
  t.install(0, 2, 256, InsertPosition::Mru, PinKind::Soft);
  EXPECT_EQ(t.victim(0), 1u);  // the least recent soft-pinned line; the hard one stays
  t.touch(0, 1);
  EXPECT_EQ(t.victim(0), 2u);
  t.install(0, 2, 256, InsertPosition::Mru, PinKind::None);
  EXPECT_EQ(t.victim(0), 2u);  // unpinned before any pinned line, however recent
}

TEST(CacheTags, EveryLineHardPinnedEvictsWayZero) {
  CacheTags t(oneSet(Replacement::Lru, 4));
  for (uint32_t w = 0; w < 4; ++w) t.install(0, w, w * 128, InsertPosition::Mru, PinKind::Hard);
  t.touch(0, 0);  // way 0 is the most recent: it goes all the same (thrash-resistant pinning)
  EXPECT_EQ(t.victim(0), 0u);
  t.line(0, 0).pending = 0x1;  // its fill is on its way: the least recent of the others
  EXPECT_EQ(t.victim(0), 1u);
  t.line(0, 0).pending = 0;
  CacheTags r(oneSet(Replacement::Random, 4));
  for (uint32_t w = 0; w < 4; ++w) r.install(0, w, w * 128, InsertPosition::Mru, PinKind::Hard);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(r.victim(0), 0u);
}

TEST(CacheTags, UnpinClearsOneKindOfPin) {
  CacheTags t(oneSet(Replacement::Lru, 4));
  t.install(0, 0, 0, InsertPosition::Mru, PinKind::Hard);
  t.install(0, 1, 128, InsertPosition::Mru, PinKind::Hard);
  t.install(0, 2, 256, InsertPosition::Mru, PinKind::Soft);
  t.install(0, 3, 384, InsertPosition::Mru, PinKind::Hard);
  EXPECT_EQ(t.victim(0), 2u);
  EXPECT_EQ(t.unpin(PinKind::Hard), 3u);
  EXPECT_EQ(t.line(0, 2).pin, PinKind::Soft);
  EXPECT_EQ(t.victim(0), 0u);  // the least recent of the three unpinned lines
  EXPECT_EQ(t.unpin(PinKind::Hard), 0u);
}

TEST(CacheTags, RandomIsDeterministicPerSeed) {
  auto draws = [](uint64_t seed, uint64_t stream = 0) {
    CacheGeometry g = oneSet(Replacement::Random, 8);
    g.seed = seed;
    CacheTags t(g, stream);
    for (uint32_t i = 0; i < 8; ++i) t.install(0, i, 128 * i, InsertPosition::Mru, PinKind::None);
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

namespace warpsim::timing::mem {
namespace {

TEST(TreePlru, FourWaysFollowTheTextbookTree) {
  const TreePlru plru(4);
  uint64_t bits = 0;
  for (uint32_t w = 0; w < 4; ++w) plru.touch(bits, w);
  // After using 0, 1, 2, 3 in order the tree points at 0.
  EXPECT_EQ(plru.victim(bits), 0u);
  plru.touch(bits, 0);
  EXPECT_EQ(plru.victim(bits), 2u);  // root now points right, the right pair at 2
  plru.touch(bits, 2);
  EXPECT_EQ(plru.victim(bits), 1u);
  plru.pointTo(bits, 3);
  EXPECT_EQ(plru.victim(bits), 3u);
}

TEST(TreePlru, ThreeAndSixWaysNeverPickAMissingWay) {
  for (uint32_t ways : {3u, 5u, 6u}) {
    const TreePlru plru(ways);
    uint64_t bits = 0;
    uint32_t seen = 0;
    for (uint32_t i = 0; i < 64; ++i) {
      const uint32_t v = plru.victim(bits);
      ASSERT_LT(v, ways) << ways << " ways";
      seen |= 1u << v;
      plru.touch(bits, v);  // replace the victim: the next one differs
    }
    EXPECT_EQ(seen, (1u << ways) - 1) << "every way is chosen in turn with " << ways << " ways";
  }
}

TEST(CacheTags, PlruReplacementEvictsTheWayTheTreePointsTo) {
  CacheGeometry g;
  g.sizeBytes = 4 * 128;
  g.assoc = 4;
  g.lineBytes = 128;
  g.replacement = Replacement::Plru;
  CacheTags tags(g);
  for (uint32_t w = 0; w < 4; ++w) {
    const uint32_t v = tags.victim(0);
    EXPECT_EQ(v, w);  // invalid ways first, in order
    tags.install(0, v, 128 * w, InsertPosition::Mru, PinKind::None);
  }
  tags.touch(0, 0);
  EXPECT_EQ(tags.victim(0), 2u);
  tags.line(0, 2).pending = 1;  // waits for a fill: the LRU choice among the others
  EXPECT_EQ(tags.victim(0), 1u);
}

TEST(CacheTags, WholeLinesWithOneTagPerWayNeverEvictMoreThanTheVictim) {
  CacheTags t(oneSet(Replacement::Lru));
  fill(t, 4);
  uint32_t out[4];
  EXPECT_FALSE(t.compressedCapacity());
  EXPECT_EQ(t.dataSegments(), 64u);  // segments of 8 bytes
  EXPECT_EQ(t.usedSegments(0), 64u);
  EXPECT_EQ(t.roomFor(0, t.victim(0), 0, out), 0u);
}

TEST(CacheTags, CompressedCapacityHoldsLinesByTheirSizeUpToItsTags) {
  CacheGeometry g = oneSet(Replacement::Lru, 2);  // 2 data ways of 4 segments, 4 tags
  g.tagFactor = 2;
  g.segmentBytes = 32;
  CacheTags t(g);
  EXPECT_TRUE(t.compressedCapacity());
  EXPECT_EQ(t.ways(), 4u);
  EXPECT_EQ(t.dataSegments(), 8u);
  uint32_t out[4];
  // Four lines of 64 bytes (2 segments) fill the data and every tag, no eviction on the way.
  for (uint32_t i = 0; i < 4; ++i) {
    const uint32_t w = t.victim(0);
    ASSERT_EQ(w, i);
    ASSERT_EQ(t.roomFor(0, w, 64, out), 0u);
    t.install(0, w, 128 * i, InsertPosition::Mru, PinKind::None, 64);
  }
  EXPECT_EQ(t.usedSegments(0), 8u);
  // A whole line in the victim's tag (way 0, 2 segments freed) needs 2 more: way 1 goes too.
  t.touch(0, 2);
  ASSERT_EQ(t.victim(0), 0u);
  ASSERT_EQ(t.roomFor(0, 0, 0, out), 1u);
  EXPECT_EQ(out[0], 1u);
  // A line of 3 segments at way 3 growing to 4 needs one of 2 segments from the others: the
  // least recently used other than itself (way 0, then 1 with way 0 touched).
  t.resize(0, 3, 96);
  EXPECT_EQ(t.usedSegments(0), 9u);  // over its data after a write grew it
  ASSERT_EQ(t.roomFor(0, 3, 128, out), 1u);
  EXPECT_EQ(out[0], 0u);
  t.touch(0, 0);
  ASSERT_EQ(t.roomFor(0, 3, 128, out), 1u);
  EXPECT_EQ(out[0], 1u);
  t.drop(0, 1);
  EXPECT_EQ(t.usedSegments(0), 7u);
  EXPECT_EQ(t.find(0, 128), kNoWay);
}

TEST(CacheTags, LinesWaitingForFillsOrPinnedKeepTheirRoomAsLongAsPossible) {
  CacheGeometry g = oneSet(Replacement::Lru, 2);
  g.tagFactor = 4;  // 8 tags, 8 segments of 32 bytes of data
  g.segmentBytes = 32;
  CacheTags t(g);
  uint32_t out[8];
  t.install(0, 0, 0, InsertPosition::Mru, PinKind::Soft, 64);    // pinned, oldest
  t.install(0, 1, 128, InsertPosition::Mru, PinKind::None, 50);  // 2 segments, rounded up
  t.install(0, 2, 256, InsertPosition::Mru, PinKind::None, 0);   // a whole line
  t.line(0, 2).pending = 0xF;                           // its fill is on its way
  // 4 segments more at way 3: the unpinned line goes first, then the pinned one.
  ASSERT_EQ(t.roomFor(0, 3, 128, out), 2u);
  EXPECT_EQ(out[0], 1u);
  EXPECT_EQ(out[1], 0u);
  // A second whole line waiting for its fill: the two hold all the data but what a new line
  // needs (4 + 4 of 8 segments), and the others cannot give it.
  t.install(0, 3, 384, InsertPosition::Mru, PinKind::None, 0);
  t.line(0, 3).pending = 0xF;
  EXPECT_EQ(t.usedSegments(0), 12u);
  EXPECT_EQ(t.roomFor(0, 4, 128, out), kNoRoom);
  EXPECT_EQ(t.roomFor(0, 4, 1, out), kNoRoom);  // even one byte: a segment
}

}  // namespace
}  // namespace warpsim::timing::mem
