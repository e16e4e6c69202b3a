// The command line in timing mode: `warpsim run --mode timing` with its statistics, and
// `warpsim config show` building the model.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "timing_test_support.h"

namespace warpsim::test {
namespace {

struct Cli {
  int exitCode = -1;
  std::string out, err;
};

std::string readFile(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

Cli runCli(const std::vector<std::string>& args) {
  const std::filesystem::path dir =
      std::filesystem::path(testing::TempDir()) /
      ("warpsim_cli_" + std::string(testing::UnitTest::GetInstance()->current_test_info()->name()));
  std::filesystem::create_directories(dir);
  std::string command = quote(WARPSIM_CLI_PATH);
  for (const std::string& a : args) command += " " + quote(a);
  command += " >" + quote((dir / "out").string()) + " 2>" + quote((dir / "err").string()) +
             " </dev/null";
  const int status = std::system(command.c_str());
  Cli r;
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = readFile(dir / "out");
  r.err = readFile(dir / "err");
  std::filesystem::remove_all(dir);
  return r;
}

TEST(CliTiming, RunWritesTimingStatisticsPerKernelAndInTotal) {
  const std::string stats = testing::TempDir() + "warpsim_cli_timing_stats.json";
  Cli r = runCli({"run", "reduce-tree", "--size", "small", "--mode", "timing", "--estimate-resources",
                  "--stats", stats});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.err, "");  // no progress line when stderr is not a terminal
  EXPECT_TRUE(contains(r.out, "timing mode, gtx480, 15 SMs")) << r.out;
  EXPECT_TRUE(contains(r.out, "cycles: ")) << r.out;
  EXPECT_TRUE(contains(r.out, "hit rates: L1D ")) << r.out;
  EXPECT_TRUE(contains(r.out, "energy: ")) << r.out;
  nlohmann::json j = nlohmann::json::parse(readFile(stats));
  std::remove(stats.c_str());
  EXPECT_EQ(j["mode"], "timing");
  EXPECT_EQ(j["config"]["name"], "gtx480");
  EXPECT_EQ(j["config"]["sms"], 15);
  ASSERT_EQ(j["kernels"].size(), 2u);
  uint64_t cycles = 0, warps = 0;
  for (const nlohmann::json& k : j["kernels"]) {
    EXPECT_EQ(k["timing"]["cycles"], k["cycles"]);
    EXPECT_EQ(k["timing"]["warp_instructions"], k["warp_instructions"]);
    cycles += k["cycles"].get<uint64_t>();
    warps += k["warp_instructions"].get<uint64_t>();
  }
  EXPECT_EQ(j["totals"]["cycles"].get<uint64_t>(), cycles);
  EXPECT_EQ(j["totals"]["timing"]["cycles"].get<uint64_t>(), cycles);
  EXPECT_DOUBLE_EQ(j["totals"]["timing"]["ipc"].get<double>(),
                   static_cast<double>(warps) / static_cast<double>(cycles));
  EXPECT_TRUE(j["totals"]["timing"].contains("energy"));
}

TEST(CliTiming, SampleIntervalAddsATimeSeries) {
  const std::string stats = testing::TempDir() + "warpsim_cli_samples.json";
  Cli r = runCli({"run", "vecadd", "--size", "small", "--mode", "timing", "--estimate-resources",
                  "--sample-interval", "1000", "--stats", stats, "-q"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out, "");
  nlohmann::json j = nlohmann::json::parse(readFile(stats));
  std::remove(stats.c_str());
  const nlohmann::json& s = j["kernels"][0]["timing"]["samples"];
  EXPECT_EQ(s["interval"], 1000);
  ASSERT_GT(s["cycle"].size(), 2u);
  EXPECT_EQ(s["cycle"][0], 1000);
  EXPECT_EQ(s["cycle"][1], 2000);
}

TEST(CliTiming, ConfigShowListsEveryKeyTheModelReads) {
  Cli r = runCli({"config", "show", "gtx480", "--set", "gpu.num_sms=4"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  for (const char* key : {"num_sms", "register_allocation_unit", "skip_idle_cycles", "impl",
                          "passes", "max_warps", "hit_latency"}) {
    EXPECT_TRUE(contains(r.out, key)) << key;
  }
  EXPECT_TRUE(contains(r.out, "--set")) << "the overridden key names its source";
  EXPECT_TRUE(contains(r.out, "default")) << "keys read at their defaults are listed too";
}

TEST(CliTiming, ConfigErrorsAreOneLine) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"config", "show", "gtx480", "--set", "sm.bogus=1"},
        std::vector<std::string>{"run", "vecadd", "--mode", "timing", "--set", "gpu.num_smz=2"},
        std::vector<std::string>{"config", "show", "no-such-gpu"}}) {
    Cli r = runCli(args);
    EXPECT_EQ(r.exitCode, 1) << args[args.size() - 1];
    EXPECT_EQ(lines(r.err).size(), 2u) << r.err;  // one line and its newline
    EXPECT_TRUE(contains(r.err, "error")) << r.err;
  }
  Cli mode = runCli({"run", "vecadd", "--mode", "cycle"});
  EXPECT_EQ(mode.exitCode, 1);
  EXPECT_TRUE(contains(mode.err, "--mode 'cycle' is unknown (modes: timing, functional)")) << mode.err;
}

TEST(CliTiming, ConfigListNamesTheBundledGpus) {
  Cli r = runCli({"config", "list"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  for (const char* name : {"gtx480", "fermi-rfh", "k40", "gtx980", "v100", "a100", "h100"}) {
    EXPECT_TRUE(contains(r.out, name)) << name;
  }
}

}  // namespace
}  // namespace warpsim::test
