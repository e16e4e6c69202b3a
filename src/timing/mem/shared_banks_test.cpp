#include "timing/mem/shared_banks.h"

#include <algorithm>

#include <gtest/gtest.h>

namespace warpsim::timing::mem {
namespace {

SharedPasses passesOf(uint64_t strideBytes, uint32_t bytes, uint32_t mask = ~0u, uint64_t base = 0,
                 uint32_t numBanks = 32, uint32_t bankBytes = 4) {
  SharedBanks banks(numBanks, bankBytes);
  uint64_t offset[32];
  for (int l = 0; l < 32; ++l) offset[l] = base + strideBytes * l;
  return banks.passes(offset, mask, bytes);
}

TEST(SharedBanks, StrideOneWordIsConflictFree) {
  const SharedPasses p = passesOf(4, 4);
  EXPECT_EQ(p.passes, 1u);
  EXPECT_EQ(p.cycles, 1u);
  EXPECT_EQ(p.replays(), 0u);
}

TEST(SharedBanks, StrideTwoWordsIsTwoWay) {
  EXPECT_EQ(passesOf(8, 4).cycles, 2u);
  EXPECT_EQ(passesOf(8, 4).replays(), 1u);
}

TEST(SharedBanks, StrideThirtyTwoWordsIsThirtyTwoWay) {
  EXPECT_EQ(passesOf(128, 4).cycles, 32u);
  EXPECT_EQ(passesOf(128, 4).replays(), 31u);
}

TEST(SharedBanks, SameWordIsBroadcast) {
  EXPECT_EQ(passesOf(0, 4).cycles, 1u);
  // Two words per bank-0 row... lanes alternating between two words of one bank: 2-way.
  SharedBanks banks(32, 4);
  uint64_t offset[32];
  for (int l = 0; l < 32; ++l) offset[l] = (l % 2) * 128;
  EXPECT_EQ(banks.passes(offset, ~0u, 4).cycles, 2u);
}

TEST(SharedBanks, BytesOfOneWordShareIt) {
  EXPECT_EQ(passesOf(1, 1).cycles, 1u);  // 32 bytes in 8 words of 8 banks
}

TEST(SharedBanks, EightByteAccessesGoByHalfWarps) {
  const SharedPasses unit = passesOf(8, 8);
  EXPECT_EQ(unit.passes, 2u);
  EXPECT_EQ(unit.cycles, 2u);
  EXPECT_EQ(unit.replays(), 0u);
  // 16-byte stride: lanes i and i + 8 of a half-warp share banks: 2-way in each pass.
  const SharedPasses wide = passesOf(16, 8);
  EXPECT_EQ(wide.passes, 2u);
  EXPECT_EQ(wide.cycles, 4u);
  EXPECT_EQ(wide.replays(), 2u);
  // Only the first half-warp active: one pass.
  EXPECT_EQ(passesOf(8, 8, 0x0000FFFFu).passes, 1u);
}

TEST(SharedBanks, SixteenByteAccessesGoByQuarterWarps) {
  const SharedPasses p = passesOf(16, 16);
  EXPECT_EQ(p.passes, 4u);
  EXPECT_EQ(p.cycles, 4u);
}

TEST(SharedBanks, InactiveLanesDoNotConflict) {
  EXPECT_EQ(passesOf(128, 4, 0x1u).cycles, 1u);
  EXPECT_EQ(passesOf(128, 4, 0x3u).cycles, 2u);
  EXPECT_EQ(passesOf(128, 4, 0).passes, 0u);
}

// Eight 16-byte banks, one row per cluster per pass (a unified register/shared/L1 array): an
// access must fall in 8 rows, one in each bank, to take one pass.
SharedPasses unified(uint64_t strideBytes, uint32_t bytes) { return passesOf(strideBytes, bytes, ~0u, 0, 8, 16); }

TEST(SharedBanks, SixteenByteRowsServeConsecutiveWordsInOnePass) {
  EXPECT_EQ(unified(4, 4).passes, 1u);
  EXPECT_EQ(unified(4, 4).cycles, 1u);   // 128 bytes: rows 0-7, one per bank
  EXPECT_EQ(unified(8, 4).cycles, 2u);   // 256 bytes: two rows in each bank
  EXPECT_EQ(unified(16, 4).cycles, 4u);
  EXPECT_EQ(unified(32, 4).cycles, 8u);  // even rows only: banks 0, 2, 4, 6, eight rows each
  EXPECT_EQ(unified(0, 4).cycles, 1u);   // broadcast
  const SharedPasses wide = unified(8, 8);  // half-warps of 128 bytes: conflict-free
  EXPECT_EQ(wide.passes, 2u);
  EXPECT_EQ(wide.cycles, 2u);
}

TEST(SharedBanks, PaddingThatAvoidsConflictsOnWordBanksDoesNotOnRowBanks) {
  // A stride of 33 words (a padded column walk) is conflict-free on 32 four-byte banks; on 8
  // sixteen-byte banks lanes 0-3 fall in rows 0, 8, 16, 24 (bank 0), lanes 4-7 in bank 1, ...:
  // four rows per bank.
  EXPECT_EQ(passesOf(132, 4).cycles, 1u);
  EXPECT_EQ(unified(132, 4).cycles, 4u);
  EXPECT_EQ(unified(132, 4).replays(), 3u);
}

// The aggressive variant: each of the 8 ports (clusters) gathers up to 16 bytes per cycle from
// its 4 banks, each bank one row per cycle; row w is in port w % 8, bank (w / 8) % 4.
uint32_t gathered(uint64_t strideBytes) {
  SharedBanks banks(8, 16, 4);
  uint64_t offset[32];
  for (int l = 0; l < 32; ++l) offset[l] = strideBytes * l;
  return banks.passes(offset, ~0u, 4).cycles;
}

TEST(SharedBanks, GatheringBanksServeRowsOfDifferentBanksOfAPortInOneCycle) {
  EXPECT_EQ(gathered(4), 1u);     // rows 0-7, one per port
  EXPECT_EQ(gathered(132), 1u);   // lanes 0-3: rows 0, 8, 16, 24 of port 0, banks 0-3, 16 bytes
  EXPECT_EQ(gathered(16), 1u);    // the same rows, one word each
  EXPECT_EQ(gathered(32), 2u);    // port 0: rows 0, 8, ..., 56, two per bank, 32 bytes
  EXPECT_EQ(gathered(512), 32u);  // rows 0, 32, 64, ...: all in bank 0 of port 0
  EXPECT_EQ(gathered(0), 1u);     // broadcast
}

TEST(SharedBanks, GatheringPortsCarryAtMostBankBytesPerCycle) {
  SharedBanks banks(8, 16, 4);
  // Lanes 0-3: two words of row 0 (bank 0) and two of row 8 (bank 1): 16 bytes, one cycle;
  // lanes 4-7 add two more words of each row: 32 bytes, two cycles.
  const uint64_t offset[8] = {0, 4, 128, 132, 8, 12, 136, 140};
  uint64_t lanes[32] = {};
  std::copy(offset, offset + 8, lanes);
  EXPECT_EQ(banks.passes(lanes, 0x0Fu, 4).cycles, 1u);
  EXPECT_EQ(banks.passes(lanes, 0xFFu, 4).cycles, 2u);
  EXPECT_EQ(SharedBanks(8, 16).passes(lanes, 0x0Fu, 4).cycles, 2u);  // one bank per port: 2 rows
}

}  // namespace
}  // namespace warpsim::timing::mem
