// dram.ideal_row_buffer (dram_channel.h): every access a row hit, no ACT or PRE.
#include <gtest/gtest.h>

#include "config/config.h"
#include "timing/mem/dram_channel.h"
#include "timing/mem/mem_params_config.h"
#include "timing/mem/testing/dram_cases.h"

namespace warpsim::timing::mem {
namespace {

// GTX 480 timings, no return latency; 4 bursts each (testing/dram_cases.h).
DramParams idealRowParams(bool ideal) { return testing::dramParams(DramScheduler::FrFcfs, ideal); }
DramRequest lineRead(uint32_t bank, uint32_t row, uint32_t tag) { return testing::dramRequest(bank, row, tag); }

std::vector<std::pair<uint32_t, Cycle>> runUntil(DramChannel& ch, Cycle to) {
  for (Cycle c = 0; c < to; ++c) ch.cycle(c);
  std::vector<std::pair<uint32_t, Cycle>> out;
  auto& done = ch.completions(0);
  for (; !done.empty(); done.pop()) out.push_back({done.front().tag, done.front().cycle});
  return out;
}

TEST(IdealRowBuffer, TwoRowsOfOneBankWithoutIt) {
  DramChannel ch(idealRowParams(false), 1);
  ch.enqueue(lineRead(0, 1, 1));
  ch.enqueue(lineRead(0, 2, 2));
  const auto done = runUntil(ch, 200);
  // ACT 0, RD(1) 12 -> data until 12 + 12 + 4 = 28. PRE at max(tRAS 28, 12 + 4) = 28,
  // ACT at max(0 + tRC, 28 + tRP) = 40, RD(2) 52 -> 68.
  ASSERT_EQ(done.size(), 2u);
  EXPECT_EQ(done[0], (std::pair<uint32_t, Cycle>{1, 28}));
  EXPECT_EQ(done[1], (std::pair<uint32_t, Cycle>{2, 68}));
  EXPECT_EQ(ch.stats().activates, 2u);
  EXPECT_EQ(ch.stats().precharges, 1u);
  EXPECT_EQ(ch.stats().rowHits, 0u);
  EXPECT_EQ(ch.stats().rowMisses, 2u);
}

TEST(IdealRowBuffer, TwoRowsOfOneBankWithIt) {
  DramChannel ch(idealRowParams(true), 1);
  ch.enqueue(lineRead(0, 1, 1));
  ch.enqueue(lineRead(0, 2, 2));
  const auto done = runUntil(ch, 200);
  // RD(1) at 0 -> data 12..16. RD(2) waits for the bank's bursts (0 + 4) and the bus
  // (16 - tCL = 4): at 4 -> data 16..20.
  ASSERT_EQ(done.size(), 2u);
  EXPECT_EQ(done[0], (std::pair<uint32_t, Cycle>{1, 16}));
  EXPECT_EQ(done[1], (std::pair<uint32_t, Cycle>{2, 20}));
  EXPECT_EQ(ch.stats().activates, 0u);
  EXPECT_EQ(ch.stats().precharges, 0u);
  EXPECT_EQ(ch.stats().rowHits, 2u);
  EXPECT_EQ(ch.stats().rowMisses, 0u);
}

TEST(IdealRowBuffer, EveryRequestOfAMixCountsAsARowHit) {
  DramChannel ch(idealRowParams(true), 1);
  for (uint32_t i = 0; i < 12; ++i) {
    DramRequest r = lineRead(i % 3, i, i);
    r.write = i % 4 == 3;
    ch.enqueue(r);
  }
  runUntil(ch, 1000);
  EXPECT_TRUE(ch.empty());
  EXPECT_EQ(ch.stats().rowHits, 12u);
  EXPECT_EQ(ch.stats().rowMisses + ch.stats().activates + ch.stats().precharges, 0u);
  EXPECT_EQ(ch.stats().busyCycles, 48u);
}

TEST(IdealRowBuffer, AWriteThatHasTheBusIsFollowedByTheWritesWaiting) {
  DramChannel ch(idealRowParams(true), 1);
  DramRequest w0 = lineRead(0, 1, 0), w2 = lineRead(2, 1, 2);
  w0.write = w2.write = true;
  ch.enqueue(w0);
  ch.enqueue(lineRead(1, 1, 1));
  ch.enqueue(w2);
  const auto done = runUntil(ch, 200);
  // WR(0) at 0 -> data 4..8. At 1 the read's data could start at 1 + tCL = 13, the second
  // write's at 8 (issued at 8 - tWL = 4): it waits for the write, WR(2) at 4 -> data 8..12,
  // then RD(1) at 5 -> data 17..21. (Oldest-first would issue the read at 1: data 13..17.)
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0], (std::pair<uint32_t, Cycle>{1, 21}));
  EXPECT_EQ(ch.stats().writeBursts, 8u);
  EXPECT_EQ(ch.stats().busyCycles, 12u);
}

TEST(IdealRowBuffer, AReadGoesBeforeAnOlderWriteWhenBothKeepTheBusBusy) {
  DramChannel ch(idealRowParams(true), 1);
  for (uint32_t i = 0; i < 4; ++i) ch.enqueue(lineRead(i, i, i));
  DramRequest w = lineRead(4, 1, 9);
  w.write = true;
  Cycle c = 0;
  for (; c < 2; ++c) ch.cycle(c);
  ch.enqueue(w);  // after the first read took the idle bus
  ch.enqueue(lineRead(5, 1, 5));
  for (; c < 300; ++c) ch.cycle(c);
  // Reads at 0, 4, 8, 12 -> data back-to-back from 12 to 28. From 13 the write's data and the
  // last read's could both start at 28, the read's command first: RD(5) at 16 -> data 28..32,
  // then WR at 28 -> data 32..36 (the write first, at 24, would leave the bus idle 32..37).
  auto& done = ch.completions(0);
  std::vector<std::pair<uint32_t, Cycle>> order;
  for (; !done.empty(); done.pop()) order.push_back({done.front().tag, done.front().cycle});
  ASSERT_EQ(order.size(), 5u);
  EXPECT_EQ(order[3], (std::pair<uint32_t, Cycle>{3, 28}));
  EXPECT_EQ(order[4], (std::pair<uint32_t, Cycle>{5, 32}));
  EXPECT_TRUE(ch.empty());
  EXPECT_EQ(ch.stats().busyCycles, 24u);
}

TEST(IdealRowBuffer, IsAConfigurationKey) {
  config::Tree off = config::Tree::fromString("");
  EXPECT_FALSE(readMemoryParams(off, 15, 1400).dram.idealRowBuffer);
  config::Tree on = config::Tree::fromString("[dram]\nideal_row_buffer = true\n");
  EXPECT_TRUE(readMemoryParams(on, 15, 1400).dram.idealRowBuffer);
}

}  // namespace
}  // namespace warpsim::timing::mem
