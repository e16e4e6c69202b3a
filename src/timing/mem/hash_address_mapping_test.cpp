#include "timing/mem/hash_address_mapping.h"

#include <gtest/gtest.h>

#include <set>
#include <tuple>

namespace warpsim::timing::mem {
namespace {

TEST(HashAddressMapping, ConsecutiveGranulesVisitEveryChannel) {
  HashAddressMapping m(6, 16, 2048, 256);
  std::set<uint32_t> channels;
  for (uint64_t g = 0; g < 6; ++g) channels.insert(m.map(g * 256).channel);
  EXPECT_EQ(channels.size(), 6u);
  // Within a granule everything stays in one channel, at consecutive local addresses.
  const DramAddress a = m.map(0x1000), b = m.map(0x10FF);
  EXPECT_EQ(a.channel, b.channel);
  EXPECT_EQ(b.local, a.local + 0xFF);
}

TEST(HashAddressMapping, ExactValues) {
  HashAddressMapping m(6, 16, 2048, 256);
  // chunk 0: q 0, r 0, hash 0 -> channel 0, local 0, bank 0, row 0.
  DramAddress a = m.map(0);
  EXPECT_EQ(a.channel, 0u);
  EXPECT_EQ(a.local, 0u);
  // chunk 7: q 1, r 1, hash (3-bit groups of 1) = 1 -> channel (1 + 1) % 6 = 2; local 256 + 5.
  a = m.map(7 * 256 + 5);
  EXPECT_EQ(a.channel, 2u);
  EXPECT_EQ(a.local, 261u);
  EXPECT_EQ(a.column, 261u);
  EXPECT_EQ(a.bank, 0u);
  // local 2048 * 17 = row 1 of n = 17: bank (17 % 16) ^ (1 % 16) = 0.
  HashAddressMapping one(1, 16, 2048, 256);
  a = one.map(2048 * 17);
  EXPECT_EQ(a.row, 1u);
  EXPECT_EQ(a.bank, 0u);
  a = one.map(2048 * 3);
  EXPECT_EQ(a.row, 0u);
  EXPECT_EQ(a.bank, 3u);
}

TEST(HashAddressMapping, PowerOfTwoStridesSpreadOverChannels) {
  HashAddressMapping m(8, 16, 2048, 256);
  std::set<uint32_t> channels;
  for (uint64_t i = 0; i < 64; ++i) channels.insert(m.map(i * 8 * 256).channel);
  EXPECT_EQ(channels.size(), 8u);
}

TEST(HashAddressMapping, IsABijection) {
  for (uint32_t channels : {6u, 8u}) {
    for (uint32_t banks : {16u, 12u}) {
      HashAddressMapping m(channels, banks, 2048, 256);
      std::set<std::pair<uint32_t, uint64_t>> locals;
      std::set<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>> cells;
      const uint64_t n = 4096;
      for (uint64_t g = 0; g < n; ++g) {
        const DramAddress a = m.map(0x7f00'0000'0000ull + g * 256);
        locals.insert({a.channel, a.local});
        cells.insert({a.channel, a.bank, a.row, a.column});
        EXPECT_LT(a.channel, channels);
        EXPECT_LT(a.bank, banks);
      }
      EXPECT_EQ(locals.size(), n);
      EXPECT_EQ(cells.size(), n);
    }
  }
}

}  // namespace
}  // namespace warpsim::timing::mem
