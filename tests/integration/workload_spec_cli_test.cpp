// `warpsim run --threads-per-block N --shared-per-block BYTES` and `warpsim list --specs`: the
// resource specifications of the suite's workloads, run as a separate process.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "test_support.h"

namespace warpsim::test {
namespace {

nlohmann::json readJson(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

TEST(CliSpec, ThreadsPerBlockReachesTheLaunchesSummaryAndStats) {
  TempFile statsFile("stats.json", "");
  CliResult r = runCli({"run", "mst", "--size", "small", "--mode", "functional",
                        "--estimate-resources", "--threads-per-block", "64", "--stats",
                        statsFile.path()});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "seed 1, 64 threads/block, functional mode")) << r.out;
  EXPECT_TRUE(contains(r.out, "verification: PASS")) << r.out;
  nlohmann::json j = readJson(statsFile.path());
  EXPECT_EQ(j["threads_per_block"], 64);
  EXPECT_FALSE(j.contains("shared_per_block"));
  ASSERT_FALSE(j["kernels"].empty());
  for (const auto& k : j["kernels"]) EXPECT_EQ(k["block"][0], 64) << k["name"];
}

TEST(CliSpec, SharedPerBlockIsTheCtaTotal) {
  TempFile statsFile("stats.json", "");
  CliResult r = runCli({"run", "dct8x8", "--size", "small", "--mode", "functional",
                        "--estimate-resources", "--threads-per-block", "128",
                        "--shared-per-block", "12288", "--stats", statsFile.path(), "-q"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  nlohmann::json j = readJson(statsFile.path());
  EXPECT_EQ(j["threads_per_block"], 128);
  EXPECT_EQ(j["shared_per_block"], 12288);
  EXPECT_EQ(j["verified"], true);
  ASSERT_EQ(j["kernels"].size(), 2u);
  for (const auto& k : j["kernels"]) {
    EXPECT_EQ(k["block"][0].get<int>() * k["block"][1].get<int>(), 128) << k["name"];
    EXPECT_EQ(k["shared_bytes"], 12288) << k["name"];
  }
}

TEST(CliSpec, WithoutASpecificationTheStatsHaveNoSpecFields) {
  TempFile statsFile("stats.json", "");
  CliResult r = runCli({"run", "sssp", "--size", "small", "--mode", "functional",
                        "--estimate-resources", "--stats", statsFile.path(), "-q"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  nlohmann::json j = readJson(statsFile.path());
  EXPECT_FALSE(j.contains("threads_per_block"));
  EXPECT_FALSE(j.contains("shared_per_block"));
}

TEST(CliSpec, ValuesAWorkloadDoesNotAcceptAreOneLineErrors) {
  expectOneLineError(runCli({"run", "mst", "--threads-per-block", "100"}),
                     "mst does not accept --threads-per-block 100 (accepted: 32, 64, 128, 192, "
                     "256, 512, 768, 1024)");
  expectOneLineError(runCli({"run", "mst", "--shared-per-block", "4096"}),
                     "mst does not accept --shared-per-block (accepted: --threads-per-block 32, ");
  expectOneLineError(runCli({"run", "dct8x8", "--shared-per-block", "2304"}),
                     "dct8x8 does not accept --shared-per-block 2304 (accepted: 9216, 12288, ");
  expectOneLineError(runCli({"run", "vecadd", "--threads-per-block", "256"}),
                     "vecadd does not accept --threads-per-block (it has no resource "
                     "specifications");
  expectOneLineError(runCli({"run", "--all", "--size", "small", "--threads-per-block", "256"}),
                     "--threads-per-block needs a workload, not --all");
  expectOneLineError(runCli({"run", "--all", "--shared-per-block", "9216"}),
                     "--shared-per-block needs a workload, not --all");
  expectOneLineError(runCli({"run", "mst", "--threads-per-block", "0"}), "--threads-per-block");
}

TEST(CliSpec, ListMarksAndListsTheSpecifications) {
  CliResult r = runCli({"list"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  for (const std::string& line : lines(r.out)) {
    if (line.rfind("dct8x8 ", 0) == 0 || line.rfind("mst ", 0) == 0) {
      EXPECT_TRUE(contains(line, "[spec]")) << line;
    }
    if (line.rfind("vecadd ", 0) == 0) {
      EXPECT_FALSE(contains(line, "[spec]")) << line;
    }
  }
  EXPECT_TRUE(contains(r.out, "warpsim list --specs")) << r.out;

  CliResult specs = runCli({"list", "--specs"});
  ASSERT_EQ(specs.exitCode, 0) << specs.err;
  EXPECT_TRUE(contains(specs.out, "\ndct8x8\n  --threads-per-block  64, 128, 256, 512, 1024\n"
                                  "  --shared-per-block   9216, 12288, 16384, 24576, 32768\n"))
      << specs.out;
  EXPECT_TRUE(contains(specs.out, "\nmst\n  --threads-per-block  32, 64, 128, 192, 256, 512, "
                                  "768, 1024\n  --shared-per-block   none\n"))
      << specs.out;
  EXPECT_FALSE(contains(specs.out, "\nvecadd\n")) << specs.out;

  CliResult help = runCli({"run", "--help"});
  EXPECT_TRUE(contains(help.out, "--threads-per-block")) << help.out;
  EXPECT_TRUE(contains(help.out, "--shared-per-block")) << help.out;
}

}  // namespace
}  // namespace warpsim::test
