// dram.t_wtr, t_rtw, t_faw, t_refi / t_rfc, refresh = "per_bank" / t_rfc_pb (dram_channel.h):
// each constraint on a tiny case with its exact cycles. With every one of them 0 the timings are
// those of dram_channel_test.cpp.
#include <gtest/gtest.h>

#include "config/config.h"
#include "timing/mem/dram_channel.h"
#include "timing/mem/mem_params_config.h"
#include "timing/mem/testing/dram_cases.h"
#include "timing/mem/testing/harness.h"

namespace warpsim::timing::mem {
namespace {

// GTX 480 timings, no return latency; every request moves 4 bursts (testing/dram_cases.h).
using testing::dramParams;
DramRequest req(uint32_t bank, uint32_t row, uint32_t tag, bool write = false) {
  return testing::dramRequest(bank, row, tag, write);
}

using Done = std::vector<std::pair<uint32_t, Cycle>>;

Done take(DramChannel& ch) {
  Done out;
  auto& done = ch.completions(0);
  for (; !done.empty(); done.pop()) out.push_back({done.front().tag, done.front().cycle});
  return out;
}

// Cycles [from, to), every cycle.
Done runEveryCycle(DramChannel& ch, Cycle from, Cycle to) {
  for (Cycle c = from; c < to; ++c) ch.cycle(c);
  return take(ch);
}

// Cycles [from, to) the way the memory system runs them: only at nextWorkCycle (the channel's
// hint), jumping over the rest. Must give the same cycles as `runEveryCycle`.
Done runByHints(DramChannel& ch, Cycle from, Cycle to) {
  for (Cycle c = ch.nextWorkCycle(from); c < to; c = ch.nextWorkCycle(c + 1)) ch.cycle(c);
  return take(ch);
}

// ---- tWTR ----

TEST(DramTurnaround, AReadAfterAWriteWaitsForTwtrAfterTheWriteData) {
  for (uint32_t wtr : {0u, 5u}) {
    DramParams p = dramParams();
    p.tWTR = wtr;
    DramChannel ch(p, 1);
    ch.enqueue(req(0, 1, 0, true));
    ch.enqueue(req(0, 1, 1));
    const Done done = runEveryCycle(ch, 0, 200);
    // ACT 0; WR 12 (oldest) -> data 16..20. Without tWTR the read's command waits only for the
    // bank's bursts (12 + 4 = 16; its data 28..32 starts after the bus frees at 20):
    // done 16 + 12 + 4 = 32. With tWTR 5: RD at 20 + 5 = 25 -> data 37..41.
    ASSERT_EQ(done.size(), 1u);
    EXPECT_EQ(done[0], (std::pair<uint32_t, Cycle>{1, wtr == 0 ? 32 : 41})) << wtr;
  }
}

TEST(DramTurnaround, TwtrAppliesWithTheIdealRowBuffer) {
  for (uint32_t wtr : {0u, 5u}) {
    DramParams p = dramParams();
    p.idealRowBuffer = true;
    p.tWTR = wtr;
    DramChannel ch(p, 1);
    ch.enqueue(req(0, 1, 0, true));
    ch.enqueue(req(1, 1, 1));
    const Done done = runEveryCycle(ch, 0, 200);
    // At 0 the write's data could start at 4, the read's at 12: WR 0 -> data 4..8. Without
    // tWTR: RD at 1 -> data 13..17. With tWTR 5: RD at 8 + 5 = 13 -> data 25..29.
    ASSERT_EQ(done.size(), 1u);
    EXPECT_EQ(done[0].second, wtr == 0 ? 17u : 29u) << wtr;
    EXPECT_EQ(ch.stats().activates + ch.stats().precharges, 0u);
  }
}

// ---- tRTW ----

TEST(DramTurnaround, AWriteAfterAReadWaitsForTrtwAfterTheReadCommand) {
  for (uint32_t rtw : {0u, 20u}) {
    DramParams p = dramParams(DramScheduler::Fcfs);  // keeps read, write, read in order
    p.tRTW = rtw;
    DramChannel ch(p, 1);
    ch.enqueue(req(0, 1, 1));
    ch.enqueue(req(0, 1, 9, true));
    ch.enqueue(req(0, 1, 2));
    const Done done = runEveryCycle(ch, 0, 200);
    // ACT 0; RD(1) 12 -> data 24..28. Without tRTW: WR at max(12 + 4, 28 - tWL) = 24 -> data
    // 28..32; RD(2) at max(24 + 4, 32 - tCL) = 28 -> data 40..44. With tRTW 20: WR at 12 + 20 =
    // 32 -> data 36..40; RD(2) at 32 + 4 = 36 -> data 48..52.
    ASSERT_EQ(done.size(), 2u);
    EXPECT_EQ(done[0], (std::pair<uint32_t, Cycle>{1, 28}));
    EXPECT_EQ(done[1], (std::pair<uint32_t, Cycle>{2, rtw == 0 ? 44 : 52})) << rtw;
  }
}

// ---- tFAW ----

TEST(DramFourActivateWindow, AFifthActWithinTfawWaits) {
  for (uint32_t faw : {0u, 30u}) {
    DramParams p = dramParams();
    p.tRCD = 40;  // column commands come after the ACTs below and never share their cycles
    p.tFAW = faw;
    DramChannel ch(p, 1);
    for (uint32_t b = 0; b < 9; ++b) ch.enqueue(req(b, 1, b));
    const Done done = runEveryCycle(ch, 0, 300);
    // ACT k of bank k: tRRD 6 apart, and with tFAW 30 at least 30 after ACT k - 4:
    //   without: 0 6 12 18 24 30 36 42 48
    //   with:    0 6 12 18 max(24, 0 + 30) = 30, 36, 42, 48, max(54, 30 + 30) = 60.
    // RD k at ACT k + 40, never on an ACT's cycle, data RD + 12 .. RD + 16, no bus overlap.
    const std::vector<Cycle> act = faw == 0 ? std::vector<Cycle>{0, 6, 12, 18, 24, 30, 36, 42, 48}
                                            : std::vector<Cycle>{0, 6, 12, 18, 30, 36, 42, 48, 60};
    ASSERT_EQ(done.size(), 9u);
    for (uint32_t b = 0; b < 9; ++b) {
      EXPECT_EQ(done[b], (std::pair<uint32_t, Cycle>{b, act[b] + 40 + 12 + 4})) << faw << " " << b;
    }
    EXPECT_EQ(ch.stats().activates, 9u);
  }
}

// ---- refresh ----

DramParams refreshParams() {
  DramParams p = dramParams();
  p.tREFI = 100;
  p.tRFC = 30;
  return p;
}

TEST(DramRefresh, ClosesTheOpenRowAndDelaysARequestArrivingDuringIt) {
  for (bool byHints : {false, true}) {
    DramChannel ch(refreshParams(), 1);
    ch.enqueue(req(0, 1, 1));
    Done done = byHints ? runByHints(ch, 0, 120) : runEveryCycle(ch, 0, 120);
    // ACT 0, RD 12 -> 28; the row stays open. Refresh due at 100 (the channel is idle): PRE at
    // 100 (tRAS and read-to-precharge long past), REF at 100 + tRP = 112, banks closed until
    // 112 + tRFC = 142.
    ASSERT_EQ(done.size(), 1u);
    EXPECT_EQ(done[0].second, 28u);
    ch.enqueue(req(0, 1, 2));  // at 120, during the refresh: the same row, now closed
    done = byHints ? runByHints(ch, 120, 300) : runEveryCycle(ch, 120, 300);
    // A row miss 22 cycles (the rest of tRFC) late: ACT 142, RD 154 -> data 166..170.
    // (Without refresh: a row hit, RD 120 -> 136.)
    ASSERT_EQ(done.size(), 1u);
    EXPECT_EQ(done[0], (std::pair<uint32_t, Cycle>{2, 170})) << byHints;
    EXPECT_EQ(ch.stats().refreshes, 1u);
    EXPECT_EQ(ch.stats().refreshCycles, 142u - 100);  // due 100 to the end of tRFC
    EXPECT_EQ(ch.stats().precharges, 1u);
    EXPECT_EQ(ch.stats().activates, 2u);
    EXPECT_EQ(ch.stats().rowMisses, 2u);
    EXPECT_EQ(ch.stats().rowHits, 0u);
  }
}

TEST(DramRefresh, StopsARowHitStreamAndWaitsForPrechargeTiming) {
  for (bool byHints : {false, true}) {
    DramChannel ch(refreshParams(), 1);
    ch.enqueue(req(0, 1, 0));
    Done done = byHints ? runByHints(ch, 0, 90) : runEveryCycle(ch, 0, 90);
    ASSERT_EQ(done.size(), 1u);
    for (uint32_t i = 1; i <= 4; ++i) ch.enqueue(req(0, 1, i));
    done = byHints ? runByHints(ch, 90, 400) : runEveryCycle(ch, 90, 400);
    // Row hits RD 90, 94, 98 -> done 106, 110, 114. At 100 the refresh is due: no more column
    // commands; PRE at 98 + 4 = 102 (read-to-precharge), REF at 102 + tRP = 114, ACT at
    // 114 + tRFC = 144, RD(4) 156 -> data 168..172.
    ASSERT_EQ(done.size(), 4u);
    EXPECT_EQ(done[0], (std::pair<uint32_t, Cycle>{1, 106}));
    EXPECT_EQ(done[1], (std::pair<uint32_t, Cycle>{2, 110}));
    EXPECT_EQ(done[2], (std::pair<uint32_t, Cycle>{3, 114}));
    EXPECT_EQ(done[3], (std::pair<uint32_t, Cycle>{4, 172})) << byHints;
    EXPECT_EQ(ch.stats().refreshes, 1u);
    EXPECT_EQ(ch.stats().refreshCycles, 144u - 100);
    EXPECT_EQ(ch.stats().rowHits, 3u);
    EXPECT_EQ(ch.stats().rowMisses, 2u);
  }
}

TEST(DramRefresh, WaitsForWriteRecoveryAndServesNoRowHitMeanwhile) {
  DramChannel ch(refreshParams(), 1);
  ch.enqueue(req(0, 1, 0));
  runEveryCycle(ch, 0, 95);  // ACT 0, RD 12
  ch.enqueue(req(0, 1, 9, true));
  ch.enqueue(req(0, 2, 1));  // another row: it needs the bank precharged
  Done done = runEveryCycle(ch, 95, 105);
  EXPECT_TRUE(done.empty());
  ch.enqueue(req(0, 1, 3));  // a row hit, arriving while the refresh waits for tWR
  done = runEveryCycle(ch, 105, 400);
  // WR 95 -> data 99..103: PRE allowed at 103 + tWR = 115 (for the read's row and for the
  // refresh due at 100 alike). The row hit could issue at 105 (-> done 121) but the refresh
  // holds every column command: PRE 115, REF 127, ACT(row 2) 157, RD(1) 169 -> data 181..185;
  // PRE at max(157 + tRAS, 169 + 4) = 185, ACT(row 1) max(157 + tRC, 185 + tRP) = 197. Refresh
  // 2 is due at 200, before RD(3) could issue (209): PRE 197 + tRAS = 225, REF 237, ACT(row 1)
  // again at 267, RD(3) 279 -> data 291..295.
  ASSERT_EQ(done.size(), 2u);
  EXPECT_EQ(done[0], (std::pair<uint32_t, Cycle>{1, 185}));
  EXPECT_EQ(done[1], (std::pair<uint32_t, Cycle>{3, 295}));
  EXPECT_EQ(ch.stats().refreshes, 2u);
  EXPECT_EQ(ch.stats().refreshCycles, (157u - 100) + (267 - 200));
  EXPECT_EQ(ch.stats().activates, 4u);  // 0, 157, 197, 267
  EXPECT_EQ(ch.stats().precharges, 3u);  // 115, 185, 225
}

TEST(DramRefresh, RefreshesOfAnIdleChannelHappenAtTheirDueCycles) {
  DramChannel ch(refreshParams(), 1);
  ch.enqueue(req(0, 1, 1));
  runEveryCycle(ch, 0, 1010);
  // Refresh 1: PRE 100, REF 112 (end 142); refreshes 2..10 at 200, 300, ..., 1000 (the banks are
  // closed: REF at the due cycle, tRFC each). Counted once the channel works again...
  EXPECT_EQ(ch.stats().refreshes, 0u);
  // ... or its statistics are read at a cycle.
  EXPECT_EQ(ch.statsAt(1010).refreshes, 10u);
  EXPECT_EQ(ch.statsAt(1010).refreshCycles, 42u + 9 * 30);
  EXPECT_EQ(ch.statsAt(1000).refreshes, 9u);  // due before cycle 1000
  ch.enqueue(req(0, 1, 2));
  Done done = runEveryCycle(ch, 1010, 1200);
  // The 10th refresh ends at 1030: ACT 1030, RD 1042 -> data 1054..1058.
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].second, 1058u);
  EXPECT_EQ(ch.stats().refreshes, 10u);
  EXPECT_EQ(ch.stats().refreshCycles, 312u);
  // Refresh 11 at 1100 (idle again, row open): PRE 1100, REF 1112, end 1142.
  EXPECT_EQ(ch.stats().refreshes, 10u);
  EXPECT_EQ(ch.statsAt(1200).refreshes, 11u);
  EXPECT_EQ(ch.statsAt(1200).refreshCycles, 312u + 42);
  ch.settleRefresh(1200);
  EXPECT_EQ(ch.stats().refreshes, 11u);
  EXPECT_EQ(ch.stats().precharges, 2u);
}

TEST(DramRefresh, DoesNotApplyToTheIdealRowBufferNorTfaw) {
  DramParams p = refreshParams();
  p.idealRowBuffer = true;
  p.tFAW = 1000;
  p.queueDepth = 64;
  DramChannel ch(p, 1);
  for (uint32_t i = 0; i < 40; ++i) ch.enqueue(req(i % 8, i, i));
  const Done done = runEveryCycle(ch, 0, 400);
  // Reads back to back from cycle 0: read i's data 12 + 4i .. 16 + 4i, across the due cycles
  // 100 and 200 without a gap.
  ASSERT_EQ(done.size(), 40u);
  for (uint32_t i = 0; i < 40; ++i) EXPECT_EQ(done[i].second, 16u + 4 * i) << i;
  EXPECT_EQ(ch.statsAt(400).refreshes, 0u);
}

// ---- per-bank refresh ----

// Four banks, tREFI 400: a per-bank refresh every 100 cycles, banks 0, 1, 2, 3, 0, ...
DramParams perBankParams() {
  DramParams p = dramParams();
  p.banks = 4;
  p.tREFI = 400;
  p.refresh = DramRefresh::PerBank;
  p.tRFCpb = 30;
  return p;
}

TEST(DramPerBankRefresh, BlocksOnlyItsBankWhileTheOthersServe) {
  for (bool byHints : {false, true}) {
    DramChannel ch(perBankParams(), 1);
    ch.enqueue(req(0, 1, 1));
    Done done = byHints ? runByHints(ch, 0, 100) : runEveryCycle(ch, 0, 100);
    ASSERT_EQ(done.size(), 1u);
    EXPECT_EQ(done[0].second, 28u);  // ACT 0, RD 12; the row stays open
    ch.enqueue(req(0, 1, 2));        // at 100, a row hit in the bank whose refresh is due
    ch.enqueue(req(1, 5, 3));        // another bank
    done = byHints ? runByHints(ch, 100, 300) : runEveryCycle(ch, 100, 300);
    // Refresh 1 (bank 0) due at 100: PRE 100, REFpb at 100 + tRP = 112, bank 0 closed until
    // 112 + tRFCpb = 142. Bank 1 serves meanwhile: ACT 101, RD 113 -> data 125..129. The row
    // hit waits for the refresh and is now a row miss: ACT 142, RD 154 -> data 166..170.
    // (All-bank refresh would hold bank 1 too; without refresh: RD(2) 100 -> 116.)
    ASSERT_EQ(done.size(), 2u);
    EXPECT_EQ(done[0], (std::pair<uint32_t, Cycle>{3, 129})) << byHints;
    EXPECT_EQ(done[1], (std::pair<uint32_t, Cycle>{2, 170})) << byHints;
    EXPECT_EQ(ch.stats().refreshes, 1u);
    EXPECT_EQ(ch.stats().refreshCycles, 142u - 100);
    // Refresh 2 (bank 1, open since 101) due at 200 while the channel is idle: PRE 200, REFpb
    // 212, end 242. Refresh 3 is due at 300, not before.
    EXPECT_EQ(ch.statsAt(300).refreshes, 2u);
    EXPECT_EQ(ch.statsAt(300).refreshCycles, 42u + 42);
    EXPECT_EQ(ch.statsAt(300).precharges, 2u);
    EXPECT_EQ(ch.stats().activates, 3u);  // 0, 101, 142
  }
}

TEST(DramPerBankRefresh, ARowHitStreamInAnotherBankLosesOnlyTheRefCommandSlot) {
  DramParams p = perBankParams();
  p.queueDepth = 64;
  DramChannel ch(p, 1);
  for (uint32_t i = 0; i < 30; ++i) ch.enqueue(req(1, 1, i));
  const Done done = runEveryCycle(ch, 0, 400);
  // ACT 0, RD i at 12 + 4i -> done 28 + 4i. Refresh 1 (bank 0, closed) issues REFpb at its due
  // cycle 100, the cycle RD 22 would have had (one command per cycle): reads 22.. one cycle
  // later. The stream crosses the refresh without stopping.
  ASSERT_EQ(done.size(), 30u);
  for (uint32_t i = 0; i < 30; ++i) EXPECT_EQ(done[i].second, 28u + 4 * i + (i >= 22)) << i;
  EXPECT_EQ(ch.stats().rowHits, 29u);
  EXPECT_EQ(ch.stats().refreshes, 1u);
  EXPECT_EQ(ch.stats().refreshCycles, 30u);
}

TEST(DramPerBankRefresh, RefreshesEveryBankInTurnOverAWindow) {
  DramChannel ch(perBankParams(), 1);
  ch.enqueue(req(0, 1, 1));
  runEveryCycle(ch, 0, 1010);
  // Refresh 1 (bank 0, open): PRE 100, REFpb 112 (end 142); refreshes 2..10 at 200, ..., 1000
  // at their due cycles (banks closed), banks 1, 2, 3, 0, 1, 2, 3, 0, 1.
  EXPECT_EQ(ch.stats().refreshes, 0u);
  EXPECT_EQ(ch.statsAt(1000).refreshes, 9u);
  EXPECT_EQ(ch.statsAt(1001).refreshes, 10u);
  EXPECT_EQ(ch.statsAt(1010).refreshCycles, 42u + 9 * 30);
  EXPECT_EQ(ch.statsAt(4010).refreshes, 40u);  // one per 100 cycles: tREFI / banks
  ch.enqueue(req(1, 1, 2));  // bank 1: refreshed at 1000, closed until 1030
  ch.enqueue(req(2, 1, 3));  // bank 2: refreshed at 700, free
  const Done done = runEveryCycle(ch, 1010, 1200);
  // ACT(bank 2) 1010, RD 1022 -> data 1034..1038; ACT(bank 1) 1030, RD 1042 -> 1054..1058.
  ASSERT_EQ(done.size(), 2u);
  EXPECT_EQ(done[0], (std::pair<uint32_t, Cycle>{3, 1038}));
  EXPECT_EQ(done[1], (std::pair<uint32_t, Cycle>{2, 1058}));
  EXPECT_EQ(ch.stats().refreshes, 10u);
  // Refresh 11 (bank 2, open since 1010) at 1100: PRE 1100, REFpb 1112, end 1142.
  EXPECT_EQ(ch.statsAt(1200).refreshCycles, 312u + 42);
  ch.settleRefresh(1200);
  EXPECT_EQ(ch.stats().refreshes, 11u);
  EXPECT_EQ(ch.stats().precharges, 2u);
}

// ---- configuration ----

TEST(DramTimingConstraints, AreConfigurationKeysOffByDefault) {
  config::Tree none = config::Tree::fromString("");
  const DramParams d = readMemoryParams(none, 15, 1400).dram;
  EXPECT_EQ(d.tWTR + d.tRTW + d.tFAW + d.tREFI + d.tRFC, 0u);
  config::Tree set = config::Tree::fromString(
      "[dram]\nt_wtr = 7\nt_rtw = 9\nt_faw = 26\nt_refi = 4738\nt_rfc = 425\n");
  const DramParams s = readMemoryParams(set, 15, 1400).dram;
  EXPECT_EQ(s.tWTR, 7u);
  EXPECT_EQ(s.tRTW, 9u);
  EXPECT_EQ(s.tFAW, 26u);
  EXPECT_EQ(s.tREFI, 4738u);
  EXPECT_EQ(s.tRFC, 425u);
  config::Tree bad = config::Tree::fromString("[dram]\nt_refi = 100\nt_rfc = 100\n");
  EXPECT_THROW(readMemoryParams(bad, 15, 1400), config::Error);
  config::Tree noRfc = config::Tree::fromString("[dram]\nt_refi = 100\n");
  EXPECT_THROW(readMemoryParams(noRfc, 15, 1400), config::Error);
  EXPECT_EQ(d.refresh, DramRefresh::AllBank);
  config::Tree perBank = config::Tree::fromString(
      "[dram]\nt_refi = 4738\nrefresh = \"per_bank\"\nt_rfc_pb = 195\n");
  const DramParams pb = readMemoryParams(perBank, 15, 1400).dram;
  EXPECT_EQ(pb.refresh, DramRefresh::PerBank);
  EXPECT_EQ(pb.tRFCpb, 195u);
  config::Tree noRfcPb =
      config::Tree::fromString("[dram]\nt_refi = 4738\nrefresh = \"per_bank\"\n");
  EXPECT_THROW(readMemoryParams(noRfcPb, 15, 1400), config::Error);
  // 16 banks, t_refi 100: a bank's refreshes are 6 x 16 = 96 cycles apart, shorter than t_rfc_pb.
  config::Tree longRfcPb = config::Tree::fromString(
      "[dram]\nt_refi = 100\nrefresh = \"per_bank\"\nt_rfc_pb = 98\n");
  EXPECT_THROW(readMemoryParams(longRfcPb, 15, 1400), config::Error);
  config::Tree badName = config::Tree::fromString("[dram]\nrefresh = \"per-bank\"\n");
  EXPECT_THROW(readMemoryParams(badName, 15, 1400), config::Error);
}

// ---- through the memory system ----

TEST(DramRefresh, EachKernelCountsTheRefreshesOfItsOwnTime) {
  MemoryParams p = testing::tinyParams();  // every clock 1000 MHz
  p.dram.tREFI = 100;
  p.dram.tRFC = 30;
  testing::Harness h(p);
  h.latencyOf(testing::record(ir::Op::Ld, ir::Space::Global, 0x7f00'0000'1000ull, 4), 1);
  while (h.now() < 1000) h.step();
  nlohmann::json s;
  h.system().reportStats(s);
  // The miss's ACT is long before 72, so refresh 1 precharges at 100 and refreshes at 112
  // (end 142); refreshes 2..9 at 200..900. DRAM time is at cycle 1000: 9 refreshes.
  EXPECT_EQ(s["dram"]["refreshes"], 9);
  EXPECT_EQ(s["dram"]["refresh_cycles"], 42 + 8 * 30);
  h.system().beginKernel();
  while (h.now() < 1500) h.step();
  h.system().reportStats(s);
  EXPECT_EQ(s["dram"]["refreshes"], 5);  // 1000, 1100, ..., 1400
  EXPECT_EQ(s["dram"]["refresh_cycles"], 5 * 30);
}

}  // namespace
}  // namespace warpsim::timing::mem
