// Zorua on whole programs: every workload of the suite verifies with the coordinator allocating
// per warp and per phase, with and without oversubscription; and on register files too small
// for the kernels' warps, where sets go to swap space and come back, a swapped register is
// overwritten with a pattern until its fill returns (poison_swapped), so a program that read one
// early, or got one back with the wrong values, would fail its check.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "workloads/testing/run_with_overlays.h"
#include "workloads/testing/suite_params.h"

namespace warpsim {
namespace {

uint64_t zoruaCounter(const runtime::LaunchReport& r, const char* group, const char* name) {
  const nlohmann::json& z = (*r.timing)["resources"]["zorua"];
  return group[0] == '\0' ? z[name].get<uint64_t>() : z[group][name].get<uint64_t>();
}

class EquivalenceWithZorua : public testing::TestWithParam<std::string> {};

TEST_P(EquivalenceWithZorua, VerifiesWithAndWithoutOversubscriptionAndUnderWarpLevelManagement) {
  workloads::testing::runWithEachOverlay(
      GetParam(), "gtx480", {"zorua", "zorua-no-swap", "wlm"},
      [&](const std::string& overlay, const runtime::LaunchReport& r) {
        ASSERT_TRUE(r.timing != nullptr);
        if (overlay == "wlm") return;
        EXPECT_GT(zoruaCounter(r, "", "grants"), 0u) << overlay << " " << r.kernel;
        if (overlay == "zorua-no-swap") EXPECT_EQ(zoruaCounter(r, "", "oversubscribed_grants"), zoruaCounter(r, "", "forced_grants"));
      },
      {"resources.zorua.poison_swapped=true"});
}

// Named Suite/Equivalence...: the sanitizer stage skips whole-suite runs by that prefix.
INSTANTIATE_TEST_SUITE_P(Suite, EquivalenceWithZorua, testing::ValuesIn(workloads::testing::workloadNames()),
                         workloads::testing::workloadTestName);

// A register file of 8192 registers (64 sets) per SM and a threshold of the whole of it: the
// 8-warp CTAs of sgemm-tiled (8 sets a warp) and scan (barrier after barrier) overflow it at once.
struct Swapped {
  uint64_t spills = 0, fills = 0, offChip = 0, saves = 0;
};

Swapped runSwapping(const std::string& workload) {
  Swapped s;
  workloads::testing::runWithEachOverlay(
      workload, "gtx480", {"zorua"},
      [&](const std::string&, const runtime::LaunchReport& r) {
        s.spills += zoruaCounter(r, "registers", "spills");
        s.fills += zoruaCounter(r, "registers", "fills");
        s.offChip += zoruaCounter(r, "registers", "off_chip_accesses");
        s.saves += zoruaCounter(r, "warp_slots", "saves");
      },
      {"sm.registers=8192", "resources.zorua.threshold=1.0", "resources.zorua.adaptive_threshold=false",
       "resources.zorua.poison_swapped=true"});
  return s;
}

TEST(ZoruaSwap, SwappedRegistersComeBackWithTheirValues) {
  const Swapped s = runSwapping("sgemm-tiled");
  EXPECT_GT(s.spills, 0u);
  EXPECT_GT(s.fills, 0u);
  EXPECT_EQ(s.fills, s.offChip);  // every fill was asked for by an instruction that needed it
}

TEST(ZoruaSwap, ABarrierHeavyKernelOversubscribedDoesNotDeadlock) {
  const Swapped s = runSwapping("scan");
  EXPECT_GT(s.spills, 0u);
}

}  // namespace
}  // namespace warpsim
