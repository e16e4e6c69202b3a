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
      GetParam(), "gtx480", {"wlm"}, [&](const std::string&, const runtime::LaunchReport& r) {
        ASSERT_TRUE(r.timing != nullptr);
        EXPECT_TRUE((*r.timing)["resources"].contains("warp_level"));
      });
  workloads::testing::runWithEachOverlay(
      GetParam(), "gtx480", {"zorua", "zorua-no-swap"},
      [&](const std::string& overlay, const runtime::LaunchReport& r) {
        ASSERT_TRUE(r.timing != nullptr);
        EXPECT_GT(zoruaCounter(r, "", "grants"), 0u) << overlay << " " << r.kernel;
        if (overlay == "zorua-no-swap") {
          EXPECT_EQ(zoruaCounter(r, "", "oversubscribed_grants"), zoruaCounter(r, "", "forced_grants"));
        }
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

namespace warpsim {
namespace {

// Specification points of the sweep (src/mech/zorua/experiment): every workload that accepts
// resource specifications verifies under Zorua with and without oversubscription at its
// smallest and largest block size, each with its largest shared size when it has them, at the
// fewest registers without spills and at a budget of 16 (spill code). On k40, the sweep's
// Kepler: its 255 registers per thread hold every kernel's spill-free count (dgemm-tiled's
// 256-thread kernel needs 64, one more than Fermi allows).
class ZoruaAtSpecifications : public testing::TestWithParam<std::string> {};

TEST_P(ZoruaAtSpecifications, VerifiesAtTheExtremeBlockSizesAndRegisterBudgets) {
  std::vector<workloads::Workload> all = workloads::allWorkloads();
  const workloads::Workload* w = workloads::findWorkload(all, GetParam());
  ASSERT_NE(w, nullptr);
  const workloads::SpecSpace& spec = w->spec;
  ASSERT_FALSE(spec.threadsPerBlock.empty());
  const uint32_t shared = spec.sharedBytesPerBlock.empty() ? 0 : spec.sharedBytesPerBlock.back();
  for (const char* overlay : {"zorua", "zorua-no-swap"}) {
    for (const uint32_t threads : {spec.threadsPerBlock.front(), spec.threadsPerBlock.back()}) {
      for (const char* budget : {"minimal", "16"}) {
        runtime::DeviceOptions o;
        o.resources = runtime::DeviceOptions::Resources::Estimate;
        o.config = "k40";
        o.overlays = {overlay};
        // A string, as --max-registers gives it (the overlay sets the key to a name).
        o.sets = {std::string("compiler.registers=\"") + budget + "\"", "resources.zorua.poison_swapped=true"};
        runtime::Device device(o);
        std::vector<runtime::LaunchReport> reports;
        workloads::WorkloadContext ctx{device, w->smallSize, 1, reports, threads, shared};
        workloads::Outcome out;
        try {
          out = w->run(ctx);
        } catch (const std::exception& e) {
          out.detail = e.what();
        }
        EXPECT_TRUE(out.passed) << overlay << " " << threads << " threads, " << shared << " B, registers "
                                << budget << ": " << out.detail;
      }
    }
  }
}

std::vector<std::string> specWorkloads() {
  std::vector<std::string> names;
  for (const workloads::Workload& w : workloads::allWorkloads())
    if (!w.spec.threadsPerBlock.empty()) names.push_back(w.name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(Suite, ZoruaAtSpecifications, testing::ValuesIn(specWorkloads()),
                         workloads::testing::workloadTestName);

}  // namespace
}  // namespace warpsim
