#include "energy/energy_model.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace warpsim::energy {
namespace {

// Every baseline key set to 1 pJ except the ones a test changes.
std::string table(const std::string& extra = "") {
  std::string t = "[energy]\nstatic_watts = 2.0\n";
  for (const BaselineEvent& e : baselineEvents()) {
    std::string key = e.key;
    t += key + (key == "rf_array_read" ? " = 10.0\n" : key == "dram_read_burst" ? " = 100.0\n" : " = 1.0\n");
  }
  return t + extra;
}

TEST(EnergyModel, CountsTimesEnergyPlusStatic) {
  config::Tree tree = config::Tree::fromString(table());
  EnergyModel model(tree.section("energy"));
  nlohmann::json stats = {{"sm", {{"register_file", {{"array_reads", 1000}, {"array_writes", 500}}}}},
                          {"memory", {{"dram", {{"read_bursts", 20}}}}}};
  model.annotate(stats, 1e-6);  // 1 microsecond
  const nlohmann::json& e = stats["energy"];
  // register file: 1000 x 10 pJ + 500 x 1 pJ = 10.5 nJ; dram: 20 x 100 pJ = 2 nJ
  EXPECT_DOUBLE_EQ(e["components"]["register_file"]["nj"].get<double>(), 10.5);
  EXPECT_DOUBLE_EQ(e["components"]["dram"]["nj"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(e["dynamic_nj"].get<double>(), 12.5);
  // static: 2 W x 1 us = 2000 nJ
  EXPECT_DOUBLE_EQ(e["static_nj"].get<double>(), 2000.0);
  EXPECT_DOUBLE_EQ(e["total_nj"].get<double>(), 2012.5);
  EXPECT_NEAR(e["average_power_w"].get<double>(), 2.0125, 1e-12);
  EXPECT_NEAR(e["components"]["register_file"]["average_power_w"].get<double>(), 0.0105, 1e-12);
  EXPECT_DOUBLE_EQ(e["components"]["alu"]["nj"].get<double>(), 0.0);  // absent counter: zero
}

TEST(EnergyModel, MechanismEventsFromTheConfiguration) {
  config::Tree tree = config::Tree::fromString(
      table("[energy.extra.meta_read]\ncounter = \"sm.register_file.metadata_reads\"\npj = 0.5\n"
            "component = \"register_file\"\n"));
  EnergyModel model(tree.section("energy"));
  nlohmann::json stats = {{"sm", {{"register_file", {{"metadata_reads", 4000}}}}}};
  model.annotate(stats, 0.0);
  EXPECT_DOUBLE_EQ(stats["energy"]["components"]["register_file"]["nj"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(stats["energy"]["average_power_w"].get<double>(), 0.0);  // no time: no power
  tree.checkAllUsed();
}

TEST(EnergyModel, StaticExtraEventsCountAsStaticEnergy) {
  // Leakage of 2.37 mW per KiB at 1 GHz: 2.37 pJ per KiB-cycle.
  config::Tree tree = config::Tree::fromString(
      table("[energy.extra.sram_leakage]\ncounter = \"storage_kib_cycles\"\npj = 2.37\n"
            "component = \"sram_leakage\"\nstatic = true\n"));
  EnergyModel model(tree.section("energy"));
  nlohmann::json stats = {{"storage_kib_cycles", 384 * 1000}};  // 384 KiB for 1,000 cycles
  model.annotate(stats, 1e-6);
  const nlohmann::json& e = stats["energy"];
  EXPECT_DOUBLE_EQ(e["components"]["sram_leakage"]["nj"].get<double>(), 910.08);
  EXPECT_DOUBLE_EQ(e["components"]["static"]["nj"].get<double>(), 2000.0);  // static_watts alone
  EXPECT_DOUBLE_EQ(e["static_nj"].get<double>(), 2910.08);
  EXPECT_DOUBLE_EQ(e["dynamic_nj"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(e["total_nj"].get<double>(), 2910.08);
  tree.checkAllUsed();
}

TEST(EnergyModel, MissingKeyIsAnError) {
  config::Tree tree = config::Tree::fromString("[energy]\nstatic_watts = 1.0\n");
  try {
    EnergyModel model(tree.section("energy"));
    FAIL() << "expected an error";
  } catch (const config::Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("config: error: [energy] lacks 'rf_array_read'", 0), 0u) << e.what();
  }
}

TEST(EnergyModel, ExtraEventNeedsACounter) {
  config::Tree tree = config::Tree::fromString(table("[energy.extra.x]\npj = 1.0\n"));
  EXPECT_THROW(EnergyModel model(tree.section("energy")), config::Error);
}

}  // namespace
}  // namespace warpsim::energy
