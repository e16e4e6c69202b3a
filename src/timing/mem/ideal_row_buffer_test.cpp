// dram.ideal_row_buffer (dram_channel.h): every access a row hit, no ACT or PRE.
#include <gtest/gtest.h>

#include "config/config.h"
#include "timing/mem/dram_channel.h"
#include "timing/mem/mem_params_config.h"

namespace warpsim::timing::mem {
namespace {

// GTX 480 timings (tRCD 12, tRP 12, tRAS 28, tCL 12, tRC 40), no return latency; 4 bursts each.
DramParams params(bool ideal) {
  DramParams p;
  p.returnLatency = 0;
  p.idealRowBuffer = ideal;
  return p;
}

DramRequest read(uint32_t bank, uint32_t row, uint32_t tag) {
  DramRequest r;
  r.bank = bank;
  r.row = row;
  r.tag = tag;
  r.bursts = 4;
  r.sectors = 0xF;
  return r;
}

std::vector<std::pair<uint32_t, Cycle>> run(DramChannel& ch, Cycle to) {
  for (Cycle c = 0; c < to; ++c) ch.cycle(c);
  std::vector<std::pair<uint32_t, Cycle>> out;
  auto& done = ch.completions(0);
  for (; !done.empty(); done.pop()) out.push_back({done.front().tag, done.front().cycle});
  return out;
}

TEST(IdealRowBuffer, TwoRowsOfOneBankWithoutIt) {
  DramChannel ch(params(false), 1);
  ch.enqueue(read(0, 1, 1));
  ch.enqueue(read(0, 2, 2));
  const auto done = run(ch, 200);
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
  DramChannel ch(params(true), 1);
  ch.enqueue(read(0, 1, 1));
  ch.enqueue(read(0, 2, 2));
  const auto done = run(ch, 200);
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
  DramChannel ch(params(true), 1);
  for (uint32_t i = 0; i < 12; ++i) {
    DramRequest r = read(i % 3, i, i);
    r.write = i % 4 == 3;
    ch.enqueue(r);
  }
  run(ch, 1000);
  EXPECT_TRUE(ch.empty());
  EXPECT_EQ(ch.stats().rowHits, 12u);
  EXPECT_EQ(ch.stats().rowMisses + ch.stats().activates + ch.stats().precharges, 0u);
  EXPECT_EQ(ch.stats().busyCycles, 48u);
}

TEST(IdealRowBuffer, IsAConfigurationKey) {
  config::Tree off = config::Tree::fromString("");
  EXPECT_FALSE(readMemoryParams(off, 15, 1400).dram.idealRowBuffer);
  config::Tree on = config::Tree::fromString("[dram]\nideal_row_buffer = true\n");
  EXPECT_TRUE(readMemoryParams(on, 15, 1400).dram.idealRowBuffer);
}

}  // namespace
}  // namespace warpsim::timing::mem
