// The ALB: set = page mod sets, true LRU within a set, exact hit/miss sequences.
#include "mech/xmem/atom_lookaside_buffer.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>

namespace warpsim::mech::xmem {
namespace {

// The k-th page of set 0 of the default ALB (32 sets).
constexpr uint64_t setZero(uint64_t k) { return k * 32; }

TEST(AtomLookasideBuffer, DefaultsAre32SetsOf8Ways) {
  const AtomLookasideBuffer alb;
  EXPECT_EQ(alb.entries(), 256u);
  EXPECT_EQ(alb.ways(), 8u);
  EXPECT_EQ(alb.sets(), 32u);
}

TEST(AtomLookasideBuffer, AMissFillsAndTheNextAccessHits) {
  AtomLookasideBuffer alb;
  EXPECT_FALSE(alb.contains(7));
  EXPECT_FALSE(alb.access(7));
  EXPECT_TRUE(alb.contains(7));
  EXPECT_TRUE(alb.access(7));
  EXPECT_EQ(alb.hits(), 1u);
  EXPECT_EQ(alb.misses(), 1u);
}

TEST(AtomLookasideBuffer, OneMorePageThanWaysEvictsTheLeastRecentlyUsed) {
  AtomLookasideBuffer alb;
  for (uint64_t k = 0; k < 8; ++k) EXPECT_FALSE(alb.access(setZero(k))) << k;
  EXPECT_FALSE(alb.access(setZero(8)));  // evicts page 0, the LRU
  EXPECT_FALSE(alb.contains(setZero(0)));
  EXPECT_FALSE(alb.access(setZero(0)));  // misses again, evicting page 1
  EXPECT_FALSE(alb.contains(setZero(1)));
  EXPECT_TRUE(alb.access(setZero(2)));   // page 2 becomes the MRU
  EXPECT_FALSE(alb.access(setZero(1)));  // evicts page 3, not page 2
  EXPECT_FALSE(alb.contains(setZero(3)));
  EXPECT_TRUE(alb.contains(setZero(2)));
  EXPECT_EQ(alb.misses(), 11u);
  EXPECT_EQ(alb.hits(), 1u);
}

TEST(AtomLookasideBuffer, AHitProtectsAPageFromEviction) {
  AtomLookasideBuffer alb;
  for (uint64_t k = 0; k < 8; ++k) alb.access(setZero(k));
  EXPECT_TRUE(alb.access(setZero(0)));
  EXPECT_FALSE(alb.access(setZero(8)));  // evicts page 1
  EXPECT_TRUE(alb.contains(setZero(0)));
  EXPECT_FALSE(alb.contains(setZero(1)));
}

TEST(AtomLookasideBuffer, SetsAreIndependent) {
  AtomLookasideBuffer alb;
  EXPECT_FALSE(alb.access(1));  // set 1
  for (uint64_t k = 0; k < 20; ++k) alb.access(setZero(k));
  EXPECT_TRUE(alb.access(1));
}

TEST(AtomLookasideBuffer, InvalidateDropsOnePageAndItsWayIsFilledFirst) {
  AtomLookasideBuffer alb;
  for (uint64_t k = 0; k < 8; ++k) alb.access(setZero(k));
  alb.invalidate(setZero(3));
  alb.invalidate(setZero(9));  // not cached: nothing happens
  EXPECT_FALSE(alb.contains(setZero(3)));
  EXPECT_FALSE(alb.access(setZero(8)));  // fills page 3's way; page 0 (the LRU) stays
  EXPECT_TRUE(alb.contains(setZero(0)));
  EXPECT_FALSE(alb.access(setZero(3)));
  EXPECT_FALSE(alb.contains(setZero(0)));
}

TEST(AtomLookasideBuffer, FlushDropsEverything) {
  AtomLookasideBuffer alb;
  alb.access(1);
  alb.access(2);
  alb.flush();
  EXPECT_FALSE(alb.access(1));
  EXPECT_FALSE(alb.access(2));
  EXPECT_EQ(alb.misses(), 4u);
}

TEST(AtomLookasideBuffer, FullyAssociative) {
  AtomLookasideBuffer alb(4, 4);
  EXPECT_EQ(alb.sets(), 1u);
  for (uint64_t page : {10, 11, 12, 13}) EXPECT_FALSE(alb.access(page));
  EXPECT_FALSE(alb.access(14));  // evicts 10
  EXPECT_FALSE(alb.contains(10));
  EXPECT_TRUE(alb.access(11));
}

TEST(AtomLookasideBuffer, InvalidOrganisationsThrow) {
  EXPECT_THROW(AtomLookasideBuffer(0, 8), std::invalid_argument);
  EXPECT_THROW(AtomLookasideBuffer(256, 0), std::invalid_argument);
  EXPECT_THROW(AtomLookasideBuffer(100, 8), std::invalid_argument);  // not a multiple
  EXPECT_THROW(AtomLookasideBuffer(24, 8), std::invalid_argument);   // 3 sets
  EXPECT_THROW(AtomLookasideBuffer(8, 16), std::invalid_argument);
  EXPECT_NO_THROW(AtomLookasideBuffer(1, 1));
}

}  // namespace
}  // namespace warpsim::mech::xmem
