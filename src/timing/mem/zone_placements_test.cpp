// The zone placements' answers for given addresses, and the bijection of their local addresses.
#include "timing/mem/zone_placements.h"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <utility>
#include <vector>

namespace warpsim::timing::mem {
namespace {

constexpr uint64_t kPage = 64 * 1024;

TEST(XorZonePlacement, ZoneIsTheFieldXorTheFoldOfHigherBits) {
  XorZonePlacement p(4, 8);  // field: bits 8-9; fold: bits 10-11, 12-13, ...
  EXPECT_EQ(p.at(0x000).zone, 0u);
  EXPECT_EQ(p.at(0x0ff).zone, 0u);
  EXPECT_EQ(p.at(0x100).zone, 1u);
  EXPECT_EQ(p.at(0x300).zone, 3u);
  EXPECT_EQ(p.at(0x400).zone, 1u);           // bit 10 folds onto field bit 0
  EXPECT_EQ(p.at(0x800).zone, 2u);           // bit 11 onto field bit 1
  EXPECT_EQ(p.at(0x1400).zone, 0u);          // bits 10 and 12 cancel
  EXPECT_EQ(p.at(0x7f00'0000'0000).zone, 2u);  // bits 40-46: four onto field bit 0 (even
                                               // parity), three onto bit 1 (odd)
  // local: the address without bits 8-9.
  EXPECT_EQ(p.at(0x3ff).local, 0xffu);
  EXPECT_EQ(p.at(0x400).local, 0x100u);
  EXPECT_EQ(p.at(0x1234'5678).local, (0x1234'5678ull >> 10) << 8 | 0x78);
}

TEST(XorZonePlacement, OneZoneIsTheIdentity) {
  XorZonePlacement p(1, 8);
  EXPECT_EQ(p.at(0x1234'5678).zone, 0u);
  EXPECT_EQ(p.at(0x1234'5678).local, 0x1234'5678u);
}

// Every 128-byte line of `bytes` from 0: (zone, local) pairs are distinct, and each zone's
// locals are exactly [0, bytes / zones) (dense).
template <class P>
void expectDenseBijection(P& p, uint32_t zones, uint64_t bytes) {
  std::set<std::pair<uint32_t, uint64_t>> seen;
  std::vector<std::set<uint64_t>> locals(zones);
  for (uint64_t a = 0; a < bytes; a += 128) {
    const ZonePlace z = p.place(a, kNoRequester);
    ASSERT_LT(z.zone, zones);
    ASSERT_EQ(z.local % 128, 0u) << a;
    ASSERT_TRUE(seen.insert({z.zone, z.local}).second) << "address " << a << " collides";
    locals[z.zone].insert(z.local);
  }
  for (uint32_t z = 0; z < zones; ++z) {
    ASSERT_EQ(locals[z].size(), bytes / zones / 128) << "zone " << z;
    EXPECT_EQ(*locals[z].rbegin(), bytes / zones - 128) << "zone " << z;
  }
}

TEST(XorZonePlacement, DenseBijection) {
  XorZonePlacement p(4, 8);
  expectDenseBijection(p, 4, 16 * kPage);
  XorZonePlacement q(8, 12);
  expectDenseBijection(q, 8, 16 * kPage);
}

TEST(InterleaveBitsZonePlacement, ZoneBitsPerRangeAndXorElsewhere) {
  InterleaveBitsZonePlacement p(4, 8);
  p.setRanges({{0, kPage, 7}, {4 * kPage, 4 * kPage, 16}, {2 * kPage, kPage, 14}});
  EXPECT_EQ(p.at(0x000).zone, 0u);
  EXPECT_EQ(p.at(0x080).zone, 1u);  // bits 7-8
  EXPECT_EQ(p.at(0x180).zone, 3u);
  EXPECT_EQ(p.at(0x200).zone, 0u);
  EXPECT_EQ(p.at(0x180).local, 0x000u);
  EXPECT_EQ(p.at(0x200).local, 0x080u);
  EXPECT_EQ(p.at(2 * kPage + 0x4000).zone, 1u);  // bits 14-15
  EXPECT_EQ(p.at(2 * kPage + 0xc000).zone, 3u);
  EXPECT_EQ(p.at(2 * kPage + 0xc000).local, 2 * kPage / 4);
  EXPECT_EQ(p.at(4 * kPage).zone, 0u);  // bits 16-17: whole pages
  EXPECT_EQ(p.at(5 * kPage + 5).zone, 1u);
  EXPECT_EQ(p.at(7 * kPage).zone, 3u);
  EXPECT_EQ(p.at(7 * kPage + 5).local, kPage + 5);
  // Outside the ranges: xor at bit 8.
  XorZonePlacement x(4, 8);
  for (uint64_t a : {kPage + 0x100, kPage + 0x400, 9 * kPage + 0x300}) {
    EXPECT_EQ(p.at(a).zone, x.at(a).zone) << a;
    EXPECT_EQ(p.at(a).local, x.at(a).local) << a;
  }
}

// Ranges with every bit position 7..16 side by side with the xor remainder: still one storage
// location per address, and every zone's locals dense.
TEST(InterleaveBitsZonePlacement, MixedBitPositionsStayADenseBijection) {
  InterleaveBitsZonePlacement p(4, 8);
  std::vector<ZoneBitsRange> ranges;
  uint64_t base = 0;
  for (uint32_t bit = 7; bit <= 16; ++bit) {
    const uint64_t align = std::max<uint64_t>(kPage, uint64_t{1} << (bit + 2));
    base = (base + align - 1) / align * align;
    ranges.push_back({base, align, bit});
    base += align + (bit % 2 == 0 ? kPage : 0);  // some xor pages in between
  }
  p.setRanges(ranges);
  const uint64_t total = (base + 4 * kPage - 1) / (4 * kPage) * (4 * kPage);
  expectDenseBijection(p, 4, total);
}

TEST(InterleaveBitsZonePlacement, RefusesBadRanges) {
  InterleaveBitsZonePlacement p(4, 8);
  EXPECT_THROW(p.setRanges({{0, kPage, 6}}), std::invalid_argument);
  EXPECT_THROW(p.setRanges({{0, kPage, 17}}), std::invalid_argument);
  EXPECT_THROW(p.setRanges({{kPage, kPage, 16}}), std::invalid_argument);  // needs 256 KB
  EXPECT_THROW(p.setRanges({{0x100, kPage, 7}}), std::invalid_argument);
  EXPECT_THROW(p.setRanges({{0, 2 * kPage, 7}, {kPage, kPage, 8}}), std::invalid_argument);
  EXPECT_NO_THROW(p.setRanges({{0, 4 * kPage, 16}, {4 * kPage, kPage, 7}}));
  EXPECT_EQ(p.ranges().size(), 2u);
  EXPECT_THROW(InterleaveBitsZonePlacement(4, 15), config::Error);  // xor granule > page
  EXPECT_THROW(XorZonePlacement(3, 8), config::Error);
}

TEST(FirstTouchZonePlacement, PagesStayWithTheirFirstToucherInDenseFrames) {
  FirstTouchZonePlacement p(4, 65536);
  EXPECT_EQ(p.place(5 * kPage + 0x80, 2).zone, 2u);
  EXPECT_EQ(p.place(5 * kPage + 0x80, 2).local, 0x80u);      // zone 2's frame 0
  EXPECT_EQ(p.place(5 * kPage + 0x100, 0).zone, 2u);         // kept: first touch wins
  EXPECT_EQ(p.place(9 * kPage, 2).local, kPage);             // zone 2's frame 1
  EXPECT_EQ(p.place(7 * kPage + 3, 0).local, 3u);            // zone 0's frame 0
  EXPECT_EQ(p.place(11 * kPage, kNoRequester).zone, 11u % 4);  // side traffic: page mod zones
  EXPECT_EQ(p.pagesIn(2), 2u);
  EXPECT_EQ(p.pagesIn(0), 1u);
  // Many pages (the table grows): answers unchanged.
  for (uint64_t page = 100; page < 5100; ++page) p.place(page * kPage, page % 3);
  EXPECT_EQ(p.place(5 * kPage, 1).zone, 2u);
  EXPECT_EQ(p.place(5 * kPage, 1).local, 0u);
  EXPECT_EQ(p.place(4321 * kPage + 7, 0).zone, 4321u % 3);
  std::set<std::pair<uint32_t, uint64_t>> seen;
  for (uint64_t page = 100; page < 5100; ++page) {
    const ZonePlace z = p.place(page * kPage, kNoRequester);
    EXPECT_TRUE(seen.insert({z.zone, z.local}).second);
  }
}

}  // namespace
}  // namespace warpsim::timing::mem
