// The translator's cache rules: bypass, whole pinning in reuse order within the budget, partial
// pinning of the highest-reuse atom only, and the prefetchable remainder.
#include "mech/xmem/cache_attributes.h"

#include <gtest/gtest.h>

#include <vector>

namespace warpsim::mech::xmem {
namespace {

hints::AtomAttributes atom(uint8_t reuse, uint8_t intensity = 0, int64_t stride = 0) {
  hints::AtomAttributes a;
  a.reuse = reuse;
  a.intensity = intensity;
  if (stride != 0) {
    a.pattern = hints::AtomPattern::Regular;
    a.strideBytes = stride;
  }
  return a;
}

CacheAtomTable translate(const std::vector<hints::AtomAttributes>& atoms, const std::vector<uint64_t>& bytes,
                         const std::vector<bool>& active, uint64_t capacity, double share) {
  return translateForCache(
      atoms, [&](uint32_t id) { return bool(active[id]); }, [&](uint32_t id) { return bytes[id]; }, capacity,
      share);
}

TEST(CacheAttributes, ReuseOrderTakesTheBudgetWholeAndOnlyTheHighestReuseInPart) {
  // Budget 0.75 x 64 KB = 48 KB. Order: 2 (reuse 9, 16 KB, whole: 32 KB left), 1 (reuse 5,
  // intensity 1, 16 KB, whole: 16 KB left), 0 (reuse 5, 32 KB: does not fit, and is not of the
  // highest reuse, so no pins), 4 (reuse 3, 64 KB: likewise).
  const std::vector<hints::AtomAttributes> atoms{atom(5, 0), atom(5, 1, 4), atom(9), atom(0), atom(3, 0, 64)};
  const CacheAtomTable t = translate(atoms, {32768, 16384, 16384, 4096, 65536}, {true, true, true, true, true},
                                     65536, 0.75);
  EXPECT_TRUE(t[2].pinsAll());
  EXPECT_TRUE(t[1].pinsAll());
  EXPECT_EQ(t[0].pinThreshold, 0u);
  EXPECT_EQ(t[4].pinThreshold, 0u);
  EXPECT_FALSE(t[4].prefetchRemainder);  // no pinned part, so no remainder to prefetch
  EXPECT_EQ(t[4].strideBytes, 64);
  EXPECT_FALSE(t[1].prefetchRemainder);  // wholly pinned
  EXPECT_TRUE(t[3].bypass);               // reuse 0
  EXPECT_EQ(t[3].pinThreshold, 0u);
  EXPECT_FALSE(t[2].bypass);
}

TEST(CacheAttributes, TheHighestReuseAtomThatDoesNotFitIsPinnedInPartAndItsRemainderPrefetched) {
  // 48 KB of a 128 KB tile (reuse 8): 48/128 of the hash range; the reuse-1 atom gets nothing.
  const std::vector<hints::AtomAttributes> atoms{atom(8, 0, 4), atom(1, 0, 512)};
  const CacheAtomTable t = translate(atoms, {131072, 32768}, {true, true}, 65536, 0.75);
  EXPECT_EQ(t[0].pinThreshold, 49152u * CacheAtomRule::kHashRange / 131072);
  EXPECT_TRUE(t[0].partial());
  EXPECT_TRUE(t[0].prefetchRemainder);
  EXPECT_EQ(t[1].pinThreshold, 0u);
  EXPECT_FALSE(t[1].prefetchRemainder);
}

TEST(CacheAttributes, ALaterSmallerAtomIsPinnedWholeAfterALargerOneIsSkipped) {
  const std::vector<hints::AtomAttributes> atoms{atom(9), atom(5), atom(4)};
  const CacheAtomTable t = translate(atoms, {16384, 65536, 16384}, {true, true, true}, 65536, 0.75);
  EXPECT_TRUE(t[0].pinsAll());
  EXPECT_EQ(t[1].pinThreshold, 0u);
  EXPECT_TRUE(t[2].pinsAll());
}

TEST(CacheAttributes, InactiveAtomsGetNoRule) {
  const std::vector<hints::AtomAttributes> atoms{atom(0), atom(7)};
  const CacheAtomTable t = translate(atoms, {4096, 4096}, {false, false}, 65536, 0.75);
  EXPECT_FALSE(t[0].bypass);
  EXPECT_EQ(t[1].pinThreshold, 0u);
}

TEST(CacheAttributes, AnUnmappedAtomTakesNoBudget) {
  const std::vector<hints::AtomAttributes> atoms{atom(9), atom(1)};
  const CacheAtomTable t = translate(atoms, {0, 8192}, {true, true}, 8192, 1.0);
  EXPECT_EQ(t[0].pinThreshold, 0u);
  EXPECT_TRUE(t[1].pinsAll());
}

TEST(CacheAttributes, TheLineHashSpreadsTheFractionEvenly) {
  // A quarter threshold pins close to a quarter of 4096 consecutive lines.
  int below = 0;
  for (uint64_t l = 0; l < 4096; ++l) below += lineHash(0x10000000 + l * 128) < CacheAtomRule::kHashRange / 4;
  EXPECT_GT(below, 1024 - 100);
  EXPECT_LT(below, 1024 + 100);
  EXPECT_EQ(lineHash(0x1234), lineHash(0x1234));
}

}  // namespace
}  // namespace warpsim::mech::xmem
