// The timing model against its own configuration: each microbenchmark's measurement must
// follow the configured parameter it exercises. Latencies are checked by changing the parameter
// with --set and requiring the measurement to move by exactly the change (within 5%), and in
// absolute terms against the configured value plus the load-to-use overhead of the SM pipeline
// (README.md explains every cycle of it). Throughputs are checked against count x lanes / 32 of
// the unit, conflicts against the conflict degree.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "config/config.h"
#include "micro/micro.h"

namespace warpsim::micro {
namespace {

struct Gpu {
  runtime::Device device;
  runtime::Module module;
  explicit Gpu(const std::string& config, std::vector<std::string> sets = {})
      : device(options(config, std::move(sets))), module(loadMicro(device)) {}
  static runtime::DeviceOptions options(const std::string& config, std::vector<std::string> sets) {
    runtime::DeviceOptions o;
    o.mode = "timing";
    o.config = config;
    o.sets = std::move(sets);
    o.resources = runtime::DeviceOptions::Resources::Estimate;
    return o;
  }
};

// Configured value of `section`.`key` in `config` (clocks are floating point, the rest whole
// numbers).
double configured(const std::string& config, const std::string& section, const std::string& key) {
  config::Tree tree = config::Tree::load(config);
  if (section == "clocks") return tree.section(section).f64(key, -1.0, "");
  return tree.section(section).u32(key, 0, "");
}

double l1Chase(Gpu& g) { return chaseCyclesPerHop(g.device, g.module, 8192, 128, 64, 256); }
double l2Chase(Gpu& g) { return chaseCyclesPerHop(g.device, g.module, 256 << 10, 128, 2048, 512); }
double dramChase(Gpu& g) { return chaseCyclesPerHop(g.device, g.module, 64 << 20, 4096 + 128, 0, 256); }

void expectWithin5Percent(double measured, double expected, const std::string& what) {
  EXPECT_NEAR(measured, expected, 0.05 * expected) << what << ": measured " << measured << ", expected " << expected;
}

class MicroTiming : public ::testing::TestWithParam<std::string> {};

TEST_P(MicroTiming, L1HitLatencyFollowsTheConfiguration) {
  const std::string c = GetParam();
  const double latency = configured(c, "l1", "hit_latency");
  Gpu base(c), slower(c, {"l1.hit_latency=" + std::to_string(static_cast<int>(latency) + 40)});
  expectWithin5Percent(l1Chase(slower) - l1Chase(base), 40.0, "L1 hit latency +40 cycles");
}

TEST_P(MicroTiming, L2HitLatencyFollowsTheConfiguration) {
  const std::string c = GetParam();
  const double latency = configured(c, "l2", "hit_latency");
  const double coreMhz = configured(c, "clocks", "core"), l2Mhz = configured(c, "clocks", "l2");
  Gpu base(c), slower(c, {"l2.hit_latency=" + std::to_string(static_cast<int>(latency) + 40)});
  expectWithin5Percent(l2Chase(slower) - l2Chase(base), 40.0 * coreMhz / l2Mhz, "L2 hit latency +40 L2 cycles");
}

TEST_P(MicroTiming, DramCasLatencyFollowsTheConfiguration) {
  const std::string c = GetParam();
  const double tcl = configured(c, "dram", "t_cl");
  const double coreMhz = configured(c, "clocks", "core"), dramMhz = configured(c, "clocks", "dram");
  // Refresh off: a load that meets a refresh waits up to tRFC, at cycles that move with tCL.
  Gpu base(c, {"dram.t_refi=0"}),
      slower(c, {"dram.t_refi=0", "dram.t_cl=" + std::to_string(static_cast<int>(tcl) + 20)});
  expectWithin5Percent(dramChase(slower) - dramChase(base), 20.0 * coreMhz / dramMhz, "DRAM tCL +20 DRAM cycles");
}

TEST_P(MicroTiming, SharedMemoryConflictsCostOnePassPerWay) {
  Gpu g(GetParam());
  // Stride 8 words: 8 lanes per bank (8-way); 16: 16-way; 32: all lanes in bank 0 (32-way).
  for (uint32_t stride : {8u, 16u, 32u}) {
    expectWithin5Percent(sharedCyclesPerLoad(g.device, g.module, stride, 16), stride,
                         "shared stride " + std::to_string(stride));
  }
}

TEST_P(MicroTiming, RegisterBankConflictsSerialiseReads) {
  Gpu g(GetParam());
  // Three sources in one bank take three read cycles instead of one: two more per fma.
  const double same = regBankCyclesPerFma(g.device, g.module, true, 16);
  const double spread = regBankCyclesPerFma(g.device, g.module, false, 16);
  expectWithin5Percent(same - spread, 2.0, "same-bank minus spread fma");
}

TEST_P(MicroTiming, UnitThroughputIsCountTimesLanes) {
  const std::string c = GetParam();
  Gpu g(c);
  for (auto [unit, name] : {std::pair{UnitClass::Sfu, "sfu"}, std::pair{UnitClass::Fp64, "fp64"}}) {
    const double count = configured(c, "sm.units." + std::string(name), "count");
    const double lanes = configured(c, "sm.units." + std::string(name), "lanes");
    expectWithin5Percent(issueWarpInstructionsPerCycle(g.device, g.module, unit, 32, 64), count * lanes / 32.0, name);
  }
}

INSTANTIATE_TEST_SUITE_P(Gpus, MicroTiming, ::testing::Values("gtx480", "v100"));

}  // namespace
}  // namespace warpsim::micro
