// Banks shared by the register file and the memory data path (timing/storage_banks.h): where
// memory bytes live, and memory passes waiting for the register accesses that hold their banks,
// exact to the cycle. Register claims are made by hand here, as BankPorts makes them in the SM
// (bank_ports_test.cpp), before the cycle's memory port step.
#include <gtest/gtest.h>

#include "timing/mem/testing/harness.h"
#include "timing/storage_banks.h"

namespace warpsim::timing::mem {
namespace {

using testing::Harness;
using testing::record;
using testing::tinyParams;

constexpr uint64_t kEveryClusterBank0 = 0x1111'1111;  // bank 0 of each of the 8 clusters

TEST(StorageBanks, MemoryRowsAreStripedOverTheClustersThenTheBanksOfEach) {
  const StorageBanks b(8, 4, 16);
  EXPECT_EQ(b.banks(), 32u);
  EXPECT_EQ(b.bankOf(0), uint64_t{1} << 0);            // row 0: cluster 0, bank 0
  EXPECT_EQ(b.bankOf(15), uint64_t{1} << 0);
  EXPECT_EQ(b.bankOf(16), uint64_t{1} << 4);           // row 1: cluster 1, bank 0
  EXPECT_EQ(b.bankOf(112), uint64_t{1} << 28);         // row 7: cluster 7, bank 0
  EXPECT_EQ(b.bankOf(128), uint64_t{1} << 1);          // row 8: cluster 0, bank 1
  EXPECT_EQ(b.bankOf(128 * 3 + 16 * 5), uint64_t{1} << (5 * 4 + 3));
  EXPECT_EQ(b.bankOf(512), uint64_t{1} << 0);          // row 32: cluster 0, bank 0 again
  EXPECT_EQ(b.banksOf(0, 128), kEveryClusterBank0);    // a 128-byte line: one row per cluster
  EXPECT_EQ(b.banksOf(8, 16), (uint64_t{1} << 0) | (uint64_t{1} << 4));  // straddles two rows
}

TEST(StorageBanks, RegisterBanksWrapOntoTheStorageBanks) {
  StorageBanks b(2, 2, 16);
  b.claimRead(5, 7);                                   // register bank 5 -> storage bank 1
  EXPECT_TRUE(b.readsHeld(0b0010, 7));
  EXPECT_FALSE(b.readsHeld(0b1101, 7));
  EXPECT_FALSE(b.writesHeld(0b1111, 7));
  b.claimWrite(0, 8);                                  // a new cycle drops cycle 7's claims
  EXPECT_FALSE(b.readsHeld(0b1111, 8));
  EXPECT_TRUE(b.writesHeld(0b0001, 8));
}

class Arbitration : public ::testing::Test {
 protected:
  static MemoryParams params() {
    MemoryParams p = tinyParams();
    p.shared.banks = 8;       // the unified array's rule: 16 bytes per cluster per pass
    p.shared.bankBytes = 16;
    return p;
  }
  // Issues `r` now and steps until it completes, the register file holding `readBanks` /
  // `writeBanks` in each of the first `heldCycles` cycles; returns the latency.
  Cycle latency(const func::ExecRecord& r, uint32_t token, uint64_t readBanks, uint64_t writeBanks,
                Cycle heldCycles = 1) {
    const Cycle start = h.now();
    h.issue(r, token);
    while (!h.completed(token)) {
      if (h.now() < start + heldCycles) claim(readBanks, writeBanks);
      h.step();
    }
    return h.runUntil(token) - start;
  }
  void claim(uint64_t readBanks, uint64_t writeBanks) {
    for (uint32_t i = 0; i < 32; ++i) {
      if (readBanks >> i & 1) banks.claimRead(i, h.now());
      if (writeBanks >> i & 1) banks.claimWrite(i, h.now());
    }
  }
  nlohmann::json stats() {
    nlohmann::json s;
    h.system().reportStats(s);
    return s;
  }

  Harness h{params()};
  StorageBanks banks{8, 4, 16};
  void SetUp() override { h.unit().shareBanks(&banks); }
};

TEST_F(Arbitration, ASharedLoadWaitsWhileARegisterReadHoldsOneOfItsBanks) {
  const auto load = record(ir::Op::Ld, ir::Space::Shared, 0, 4);  // 128 B: bank 0 of every cluster
  EXPECT_EQ(latency(load, 1, 0, 0), 3u);                          // one pass + shared.latency 3
  EXPECT_EQ(latency(load, 2, uint64_t{1} << 1, 0), 3u);           // bank 1 of cluster 0: not its
  EXPECT_EQ(latency(load, 3, uint64_t{1} << 0, 0, 0), 3u);
  EXPECT_EQ(latency(load, 4, uint64_t{1} << 0, uint64_t{1} << 0), 4u);  // bank 0 of cluster 0
  EXPECT_EQ(latency(load, 5, uint64_t{1} << 28, 0, 3), 6u);       // cluster 7, three cycles
  const auto s = stats();
  EXPECT_EQ(s["storage_banks"]["arbitration_stalls"], 1 + 3);
  EXPECT_EQ(s["storage_banks"]["arbitration_accesses"], 2);
  EXPECT_EQ(s["shared"]["conflicted_accesses"], 0);
}

TEST_F(Arbitration, ReadsAndWritesUseSeparatePorts) {
  const auto store = record(ir::Op::St, ir::Space::Shared, 128, 4);  // bank 1 of every cluster
  EXPECT_EQ(latency(store, 1, 0x2222'2222, 0), 1u);                   // the write port is free
  EXPECT_EQ(latency(store, 2, 0, uint64_t{1} << 13), 2u);             // cluster 3, bank 1
  EXPECT_EQ(stats()["storage_banks"]["arbitration_stalls"], 1);
}

TEST_F(Arbitration, CachedLineAccessesUseOneRowOfTheLinesBankInEveryCluster) {
  constexpr uint64_t kLine = 0x7f00'0000'1080ull;        // line index odd: bank 1 of every cluster
  const auto load = record(ir::Op::Ld, ir::Space::Global, kLine, 4);
  EXPECT_EQ(latency(load, 1, 0x2222'2222, 0), 74u + 1);  // the miss's tag lookup waits too
  EXPECT_EQ(latency(load, 2, 0, 0), 5u);                 // a hit
  EXPECT_EQ(latency(load, 3, kEveryClusterBank0, 0), 5u);
  EXPECT_EQ(latency(load, 4, uint64_t{1} << 25, 0), 6u);  // cluster 6, bank 1
  EXPECT_EQ(stats()["storage_banks"]["arbitration_accesses"], 2);
}

TEST_F(Arbitration, TheEightBankRuleCountsConflictedAccesses) {
  // Stride 33 words: 32 distinct rows over 8 clusters, 4 per cluster -> 4 passes, 3 replays.
  const auto strided = record(ir::Op::Ld, ir::Space::Shared, 0, 33 * 4);
  EXPECT_EQ(latency(strided, 1, 0, 0), 4u - 1 + 3);
  EXPECT_EQ(latency(record(ir::Op::Ld, ir::Space::Shared, 0, 4), 2, 0, 0), 3u);
  const auto s = stats();
  EXPECT_EQ(s["shared"]["accesses"], 2);
  EXPECT_EQ(s["shared"]["bank_conflict_replays"], 3);
  EXPECT_EQ(s["shared"]["conflicted_accesses"], 1);
}

}  // namespace
}  // namespace warpsim::timing::mem
