// The targets file format (targets.h): what is read, the errors for what is wrong, and how a
// simulated value is scored against a figure or a range.
#include "calibration/targets.h"

#include <gtest/gtest.h>

#include <string>

namespace warpsim::calibration {
namespace {

constexpr const char* kGood = R"(
gpu = "v100"
sets = ["clocks.core=1380"]
[sources]
jia = "Jia et al. 2018"
[[target]]
measurement = "l1_hit_cycles"
value = 28
source = "jia"
fit = "l1.hit_latency"
[[target]]
measurement = "l2_hit_cycles"
range = [200, 220]
source = "jia"
note = "a range"
)";

std::string errorOf(const std::string& text) {
  try {
    parseTargets(text, "t.toml");
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(CalibrationTargets, AreReadWithTheirSourcesSetsAndFitKeys) {
  const TargetSet s = parseTargets(kGood, "t.toml");
  EXPECT_EQ(s.gpu, "v100");
  ASSERT_EQ(s.sets.size(), 1u);
  EXPECT_EQ(s.sets[0], "clocks.core=1380");
  ASSERT_EQ(s.targets.size(), 2u);
  EXPECT_EQ(s.targets[0].measurement, "l1_hit_cycles");
  EXPECT_TRUE(s.targets[0].single());
  EXPECT_DOUBLE_EQ(s.targets[0].tolerance, 0.05);
  EXPECT_EQ(s.targets[0].fit, "l1.hit_latency");
  EXPECT_EQ(s.targets[0].line, 6);
  EXPECT_FALSE(s.targets[1].single());
  EXPECT_DOUBLE_EQ(s.targets[1].tolerance, 0.10);
  EXPECT_DOUBLE_EQ(s.targets[1].goal(), 210);
  EXPECT_EQ(s.sources.at("jia"), "Jia et al. 2018");
}

TEST(CalibrationTargets, ScoreTheDistanceFromTheFigureOrTheRange) {
  const TargetSet s = parseTargets(kGood, "t.toml");
  const Target& single = s.targets[0];
  EXPECT_DOUBLE_EQ(single.error(28), 0);
  EXPECT_NEAR(single.error(29.4), 0.05, 1e-12);
  EXPECT_TRUE(single.met(29.4));
  EXPECT_FALSE(single.met(29.5));
  EXPECT_DOUBLE_EQ(single.error(21), 0.25);
  const Target& range = s.targets[1];
  EXPECT_DOUBLE_EQ(range.error(205), 0);
  EXPECT_DOUBLE_EQ(range.error(180), 0.10);
  EXPECT_TRUE(range.met(180));
  EXPECT_DOUBLE_EQ(range.error(242), 0.10);
  EXPECT_FALSE(range.met(243));
}

TEST(CalibrationTargets, MistakesAreOneLineNamingFileAndLine) {
  const std::string head = "gpu = \"v100\"\n[sources]\njia = \"J\"\n[[target]]\n";
  EXPECT_EQ(errorOf(head + "measurement = \"l1_hit\"\nvalue = 28\nsource = \"jia\"\n"),
            "t.toml:5: error: unknown measurement 'l1_hit' (warpsim calibrate --list shows them)");
  EXPECT_EQ(errorOf(head + "measurement = \"l1_hit_cycles\"\nsource = \"jia\"\n"),
            "t.toml:4: error: a target needs exactly one of 'value' (a published figure) and "
            "'range' ([low, high])");
  EXPECT_EQ(errorOf(head + "measurement = \"l1_hit_cycles\"\nvalue = 28\nsource = \"nvidia\"\n"),
            "t.toml:7: error: source 'nvidia' is not in [sources]");
  EXPECT_EQ(errorOf(head + "measurement = \"l1_hit_cycles\"\nrange = [40, 30]\nsource = \"jia\"\n"),
            "t.toml:6: error: 'range' must be [low, high] with low <= high");
  EXPECT_EQ(errorOf(head + "measurement = \"l1_hit_cycles\"\nvalue = 28\nsource = \"jia\"\nvalu = 3\n"),
            "t.toml:8: error: unknown key 'valu' in a target");
  EXPECT_EQ(errorOf("gpu = \"v100\"\n[[target]]\n"),
            "t.toml:1: error: '[sources]' is missing: every target names its source");
  EXPECT_NE(errorOf("gpu = \n").find("t.toml:1: error: "), std::string::npos);
}

TEST(CalibrationTargets, EveryBundledTargetsFileIsValid) {
  for (const char* gpu : {"gtx480-hw", "v100", "a100", "h100"}) {
    const std::string path = findTargets(gpu);
    ASSERT_FALSE(path.empty()) << gpu;
    const TargetSet s = loadTargets(path);
    EXPECT_EQ(s.gpu, gpu);
    EXPECT_GE(s.targets.size(), 4u) << gpu;
  }
}

}  // namespace
}  // namespace warpsim::calibration
