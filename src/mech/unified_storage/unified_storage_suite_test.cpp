// The unified pool on whole programs: every workload of the suite verifies on fermi-unified with
// each pool size and each fixed design (in turn: see suiteVariants), and every launch under the pool reports a partition
// that fills the pool exactly.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "workloads/testing/run_with_overlays.h"
#include "workloads/testing/suite_params.h"

namespace warpsim {
namespace {

uint64_t carveout(const runtime::LaunchReport& r, const char* name) {
  return (*r.timing)["occupancy"]["carveout"][name].get<uint64_t>();
}

class EquivalenceWithUnifiedStorage : public testing::TestWithParam<std::string> {};

TEST_P(EquivalenceWithUnifiedStorage, VerifiesOnEveryPoolAndFixedPartition) {
  // The study's 384 KB pool on every workload, one other pool size and two fixed designs per
  // workload in turn (WARPSIM_FULL_SUITES=1: all of them).
  for (const std::string& pool :
       workloads::testing::suiteVariants(GetParam(), {"384"}, {"128", "256", "512"})) {
    const uint64_t kb = std::stoull(pool);
    workloads::testing::runWithEachOverlay(
        GetParam(), "fermi-unified", {"unified-" + pool},
        [&](const std::string& overlay, const runtime::LaunchReport& r) {
          ASSERT_TRUE(r.timing != nullptr);
          EXPECT_EQ(carveout(r, "register_bytes") + carveout(r, "shared_bytes") + carveout(r, "l1_bytes") +
                        carveout(r, "unused_bytes"),
                    kb * 1024)
              << overlay << " " << r.kernel;
        });
  }
  workloads::testing::runWithEachOverlay(
      GetParam(), "fermi-unified",
      workloads::testing::suiteVariants(
          GetParam(), {},
          {"partition-128-32-32", "partition-128-64-64", "partition-256-64-64",
           "partition-256-256-256", "partition-512-512-512", "limited-16-48", "limited-48-16"},
          2),
      [&](const std::string& overlay, const runtime::LaunchReport& r) {
        ASSERT_TRUE(r.timing != nullptr);
        EXPECT_FALSE((*r.timing)["occupancy"].contains("carveout")) << overlay;
      },
      {"compiler.registers=\"minimal\""});
}

TEST(UnifiedStorage, SgemmTiledGetsTheL1ThatItsCtasLeave) {
  // sgemm-tiled at small: 256-thread CTAs (8 warps) of 24 registers (the allocator's minimal) and
  // two 16 x 16 float tiles (2 KB). The 32 warp slots hold 4 CTAs: 4 x 8 x 768 registers = 96 KB
  // and 8 KB of shared memory; of the 280 KB left, the L1 takes its largest, 256 KB.
  int launches = 0;
  workloads::testing::runWithEachOverlay(
      "sgemm-tiled", "fermi-unified", {"unified-384"}, [&](const std::string&, const runtime::LaunchReport& r) {
        ASSERT_TRUE(r.timing != nullptr);
        ++launches;
        EXPECT_EQ(r.resources.registers, 24u);
        EXPECT_EQ((*r.timing)["occupancy"]["ctas_per_sm"], 4);
        EXPECT_EQ(carveout(r, "register_bytes"), 96u * 1024);
        EXPECT_EQ(carveout(r, "shared_bytes"), 8u * 1024);
        EXPECT_EQ(carveout(r, "l1_bytes"), 256u * 1024);
        EXPECT_EQ(carveout(r, "unused_bytes"), 24u * 1024);
      });
  EXPECT_GT(launches, 0);
}

uint64_t memoryCount(const runtime::LaunchReport& r, const char* group, const char* name) {
  return (*r.timing)["memory"][group][name].get<uint64_t>();
}

TEST(UnifiedStorage, RegisterAccessesHoldBackMemoryPassesOnlyInSharedBanks) {
  // sgemm-tiled's inner loop reads both shared tiles while its multiply-adds read registers:
  // in the unified array some passes find a bank's port taken by a register access.
  uint64_t stalls = 0, waited = 0, memoryAccesses = 0;
  workloads::testing::runWithEachOverlay(
      "sgemm-tiled", "fermi-unified", {"unified-384"}, [&](const std::string&, const runtime::LaunchReport& r) {
        stalls += memoryCount(r, "storage_banks", "arbitration_stalls");
        waited += memoryCount(r, "storage_banks", "arbitration_accesses");
        memoryAccesses += memoryCount(r, "shared", "accesses") + memoryCount(r, "l1d", "accesses");
      });
  EXPECT_GT(waited, 0u);
  EXPECT_GE(stalls, waited);          // an access that waited waited at least a cycle
  EXPECT_LT(waited, memoryAccesses);  // most find their banks free
  workloads::testing::runWithEachOverlay(
      "sgemm-tiled", "fermi-unified", {"unified-384"},
      [&](const std::string&, const runtime::LaunchReport& r) {
        EXPECT_EQ(memoryCount(r, "storage_banks", "arbitration_stalls"), 0u);
      },
      {"sm.storage_banks.shared_with_registers=false"});
}

TEST(UnifiedStorage, TheAggressiveBankRuleNeverAddsSharedMemoryReplays) {
  // nw's shared accesses conflict under the 8-bank rule: some of the rows a cluster must deliver
  // lie in different banks of it, which the aggressive rule gathers in one cycle. Addresses do
  // not depend on timing, so the per-access degrees compare directly.
  uint64_t simple = 0, gathered = 0;
  workloads::testing::runWithEachOverlay(
      "nw", "fermi-unified", {"unified-384", "unified-384+unified-aggressive"},
      [&](const std::string& overlay, const runtime::LaunchReport& r) {
        (overlay == "unified-384" ? simple : gathered) += memoryCount(r, "shared", "bank_conflict_replays");
      });
  EXPECT_GT(simple, 0u);
  EXPECT_LT(gathered, simple);
}

// Named Suite/Equivalence...: the sanitizer stage skips whole-suite runs by that prefix.
INSTANTIATE_TEST_SUITE_P(Suite, EquivalenceWithUnifiedStorage,
                         testing::ValuesIn(workloads::testing::workloadNames()),
                         workloads::testing::workloadTestName);

}  // namespace
}  // namespace warpsim
