#include "timing/mem/dram_channel.h"
#include "timing/mem/testing/dram_cases.h"

#include <gtest/gtest.h>

namespace warpsim::timing::mem {
namespace {

// GTX 480 timings, no return latency; every request below moves 4 bursts (a line) unless told
// otherwise (testing/dram_cases.h).
DramParams params(DramScheduler s = DramScheduler::FrFcfs) { return testing::dramParams(s); }
DramRequest read(uint32_t bank, uint32_t row, uint32_t tag, uint32_t bursts = 4) {
  return testing::dramRequest(bank, row, tag, false, bursts);
}

// Runs cycles [from, to) and returns the completions taken, as (tag, cycle).
std::vector<std::pair<uint32_t, Cycle>> run(DramChannel& ch, Cycle from, Cycle to) {
  std::vector<std::pair<uint32_t, Cycle>> out;
  for (Cycle c = from; c < to; ++c) ch.cycle(c);
  auto& done = ch.completions(0);
  while (!done.empty()) {
    out.push_back({done.front().tag, done.front().cycle});
    done.pop();
  }
  return out;
}

TEST(DramChannel, ClosedBankReadTakesRcdPlusClPlusBursts) {
  DramChannel ch(params(), 1);
  ch.enqueue(read(0, 1, 7));
  const auto done = run(ch, 0, 100);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0], (std::pair<uint32_t, Cycle>{7, 12 + 12 + 4}));
  EXPECT_EQ(ch.stats().activates, 1u);
  EXPECT_EQ(ch.stats().rowMisses, 1u);
  EXPECT_EQ(ch.stats().readBursts, 4u);
  EXPECT_EQ(ch.stats().busyCycles, 4u);
}

TEST(DramChannel, RowHitTakesClPlusBursts) {
  DramChannel ch(params(), 1);
  ch.enqueue(read(0, 1, 1));
  run(ch, 0, 40);
  ch.enqueue(read(0, 1, 2));
  const auto done = run(ch, 40, 100);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].second, 40u + 12 + 4);
  EXPECT_EQ(ch.stats().rowHits, 1u);
  EXPECT_EQ(ch.stats().activates, 1u);
}

TEST(DramChannel, RowConflictPrechargesAndActivates) {
  DramChannel ch(params(), 1);
  ch.enqueue(read(0, 1, 1));
  run(ch, 0, 40);  // ACT 0, RD 12
  ch.enqueue(read(0, 2, 2));
  const auto done = run(ch, 40, 200);
  // PRE 40 (tRAS long past), ACT at max(0 + tRC, 40 + tRP) = 52, RD 64, data until 80.
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].second, 80u);
  EXPECT_EQ(ch.stats().precharges, 1u);
  EXPECT_EQ(ch.stats().rowMisses, 2u);
}

TEST(DramChannel, FrFcfsServesTheRowHitFirst) {
  DramChannel ch(params(), 1);
  ch.enqueue(read(0, 1, 1));
  run(ch, 0, 30);             // ACT 0, RD 12, data 24..28
  ch.enqueue(read(0, 2, 2));  // older, row miss
  ch.enqueue(read(0, 1, 3));  // younger, row hit
  const auto done = run(ch, 30, 200);
  // RD(3) at 30 -> 46. PRE at 34 (read-to-precharge: 30 + 4), ACT at max(0 + 40, 34 + 12) = 46,
  // RD(2) at 58 -> 74.
  ASSERT_EQ(done.size(), 2u);
  EXPECT_EQ(done[0], (std::pair<uint32_t, Cycle>{3, 46}));
  EXPECT_EQ(done[1], (std::pair<uint32_t, Cycle>{2, 74}));
  EXPECT_EQ(ch.stats().rowHits, 1u);
}

TEST(DramChannel, FcfsServesInArrivalOrder) {
  DramChannel ch(params(DramScheduler::Fcfs), 1);
  ch.enqueue(read(0, 1, 1));
  run(ch, 0, 30);
  ch.enqueue(read(0, 2, 2));
  ch.enqueue(read(0, 1, 3));
  const auto done = run(ch, 30, 300);
  // PRE 30, ACT max(40, 42) = 42, RD(2) 54 -> 70; PRE at max(42 + 28, 54 + 4) = 70,
  // ACT max(42 + 40, 70 + 12) = 82, RD(3) 94 -> 110.
  ASSERT_EQ(done.size(), 2u);
  EXPECT_EQ(done[0], (std::pair<uint32_t, Cycle>{2, 70}));
  EXPECT_EQ(done[1], (std::pair<uint32_t, Cycle>{3, 110}));
}

TEST(DramChannel, StreamOfRowHitsKeepsTheBusBusy) {
  DramChannel ch(params(), 1);
  for (uint32_t i = 0; i < 8; ++i) ch.enqueue(read(0, 1, i));
  const auto done = run(ch, 0, 200);
  // ACT 0; RD k at 12 + 4k (the bus frees every 4 cycles); data of k ends at 28 + 4k.
  ASSERT_EQ(done.size(), 8u);
  for (uint32_t k = 0; k < 8; ++k) EXPECT_EQ(done[k].second, 28u + 4 * k);
  EXPECT_EQ(ch.stats().busyCycles, 32u);
  EXPECT_EQ(ch.stats().readBursts, 32u);
  EXPECT_EQ(ch.stats().rowHits, 7u);
  EXPECT_EQ(ch.stats().rowMisses, 1u);
}

TEST(DramChannel, ActivatesOfDifferentBanksAreTrrdApart) {
  DramChannel ch(params(), 1);
  ch.enqueue(read(0, 1, 1));
  ch.enqueue(read(1, 1, 2));
  const auto done = run(ch, 0, 200);
  // ACT b0 at 0, ACT b1 at 6; RD b0 12 -> 28; RD b1 at 18 (bus free at 28 = 18 + tCL) -> 34.
  ASSERT_EQ(done.size(), 2u);
  EXPECT_EQ(done[0].second, 28u);
  EXPECT_EQ(done[1].second, 34u);
  EXPECT_EQ(ch.stats().activates, 2u);
}

TEST(DramChannel, WritesHoldTheBankForWriteRecovery) {
  DramChannel ch(params(), 1);
  DramRequest w = read(0, 1, 0);
  w.write = true;
  ch.enqueue(w);
  run(ch, 0, 20);  // ACT 0, WR 12: data 16..20, precharge allowed at max(28, 20 + 12) = 32
  ch.enqueue(read(0, 2, 5));
  const auto done = run(ch, 20, 200);
  // PRE 32, ACT max(40, 44) = 44, RD 56 -> 72.
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].second, 72u);
  EXPECT_EQ(ch.stats().writeBursts, 4u);
  EXPECT_EQ(ch.stats().busyCycles, 8u);
}

TEST(DramChannel, ReturnLatencyDelaysTheDataOnly) {
  DramParams p = params();
  p.returnLatency = 100;
  DramChannel ch(p, 1);
  ch.enqueue(read(0, 1, 1));
  ch.enqueue(read(0, 1, 2));
  const auto done = run(ch, 0, 300);
  ASSERT_EQ(done.size(), 2u);
  EXPECT_EQ(done[0].second, 28u + 100);
  EXPECT_EQ(done[1].second, 32u + 100);  // the bus is not held longer
}

TEST(DramChannel, QueueDepthLimitsAdmission) {
  DramParams p = params();
  p.queueDepth = 2;
  DramChannel ch(p, 1);
  EXPECT_TRUE(ch.canAccept(0, 1, 1));
  EXPECT_FALSE(ch.canAccept(0, 2, 1));
  ch.enqueue(read(0, 1, 1));
  ch.enqueue(read(0, 1, 2));
  EXPECT_FALSE(ch.canAccept(0, 1, 0));
  EXPECT_FALSE(ch.empty());
}

}  // namespace
}  // namespace warpsim::timing::mem
