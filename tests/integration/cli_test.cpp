// The warpsim command line, run as a separate process: exit status, stdout, and one-line
// errors on stderr.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "test_support.h"

namespace warpsim::test {
namespace {

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// A failed command: non-zero exit, nothing on stdout, exactly one line on stderr.
void expectOneLineError(const CliResult& r, const std::string& part) {
  EXPECT_NE(r.exitCode, 0);
  ASSERT_EQ(lines(r.err).size(), 1u) << r.err;
  EXPECT_TRUE(contains(r.err, part)) << r.err;
}

TEST(Cli, HelpOnEverySubcommand) {
  for (std::vector<std::string> args : {std::vector<std::string>{"--help"},
                                        {"run", "--help"},
                                        {"list", "--help"},
                                        {"ptx-check", "--help"}}) {
    CliResult r = runCli(args);
    EXPECT_EQ(r.exitCode, 0) << args[0];
    EXPECT_TRUE(contains(r.out, "Usage")) << r.out;
  }
}

TEST(Cli, ListNamesTheBundledExamples) {
  CliResult r = runCli({"list"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "vecadd-reduce"));
  EXPECT_TRUE(contains(r.out, "matmul"));
  EXPECT_TRUE(contains(r.out, "histogram"));
}

TEST(Cli, RunPrintsSummaryAndWritesStatsJson) {
  TempFile statsFile("stats.json", "");
  const std::string& stats = statsFile.path();
  CliResult r = runCli({"run", "vecadd-reduce", "--size", "3000", "--estimate-resources",
                        "--stats", stats});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "verification: PASS")) << r.out;
  EXPECT_TRUE(contains(r.out, "vector_add")) << r.out;
  EXPECT_TRUE(contains(r.out, "reduce_shuffle")) << r.out;
  EXPECT_TRUE(contains(r.out, "thread-inst/s")) << r.out;

  std::ifstream in(stats);
  nlohmann::json j = nlohmann::json::parse(in);
  EXPECT_EQ(j["example"], "vecadd-reduce");
  EXPECT_EQ(j["size"], 3000);
  EXPECT_EQ(j["verification"]["passed"], true);
  // vector_add, saxpy, then reduction passes 3000 -> 12 -> 1 partial sums.
  ASSERT_EQ(j["launches"].size(), 4u);
  EXPECT_EQ(j["launches"][0]["kernel"], "vector_add");
  EXPECT_EQ(j["launches"][0]["grid"], nlohmann::json::array({12, 1, 1}));
  EXPECT_EQ(j["launches"][0]["resources"]["source"], "estimate");
  uint64_t sum = 0;
  for (const auto& l : j["launches"]) sum += l["thread_instructions"].get<uint64_t>();
  EXPECT_EQ(j["thread_instructions"].get<uint64_t>(), sum);
  EXPECT_GT(j["launches"][0]["stats"]["memory"]["global"]["bytes"].get<uint64_t>(), 0u);
  EXPECT_LE(j["launches"][0]["stats"]["simd_efficiency"].get<double>(), 1.0);
}

TEST(Cli, RunMatmulDetailShowsMixAndMemory) {
  CliResult r = runCli({"run", "matmul", "--size", "24", "--detail", "--estimate-resources"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "verification: PASS")) << r.out;
  EXPECT_TRUE(contains(r.out, "mix:")) << r.out;
  EXPECT_TRUE(contains(r.out, "shared")) << r.out;
}

TEST(Cli, UnknownExampleIsAOneLineError) {
  expectOneLineError(runCli({"run", "nonesuch"}), "no example 'nonesuch'");
}

TEST(Cli, BadOptionIsAOneLineError) {
  expectOneLineError(runCli({"run", "--size", "zero"}), "--size");
  expectOneLineError(runCli({"frobnicate"}), "frobnicate");
  expectOneLineError(runCli({"run", "matmul", "--size", "5000"}), "too large");
}

TEST(Cli, PtxCheckDescribesKernelsFunctionsAndVariables) {
  CliResult r = runCli({"ptx-check", cudaPtx("recursion"), "--estimate-resources"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "kernel recursive_calls")) << r.out;
  EXPECT_TRUE(contains(r.out, ".u64 recursive_calls_param_0")) << r.out;
  EXPECT_TRUE(contains(r.out, "fib")) << r.out;
  EXPECT_TRUE(contains(r.out, "registers/thread")) << r.out;
  CliResult g = runCli({"ptx-check", cudaPtx("const_globals"), "--estimate-resources"});
  ASSERT_EQ(g.exitCode, 0) << g.err;
  EXPECT_TRUE(contains(g.out, ".const")) << g.out;
  EXPECT_TRUE(contains(g.out, "halves")) << g.out;
}

TEST(Cli, PtxCheckMalformedFileNamesFileAndLine) {
  TempFile file("bad.ptx", ".version 8.0\n.target sm_80\n.address_size 64\n"
                                              ".visible .entry k()\n{\n  frobnicate;\n}\n");
  expectOneLineError(runCli({"ptx-check", file.path()}), file.path() + ":6: error:");
}

TEST(Cli, PtxCheckUnsupportedOpcodeNamesFileAndLine) {
  TempFile file(
      "redux.ptx", ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n"
                   "  .reg .b32 %r<3>;\n  redux.sync.add.u32 %r2, %r1, 0xffffffff;\n  ret;\n}\n");
  CliResult r = runCli({"ptx-check", file.path()});
  expectOneLineError(r, file.path() + ":7: error:");
  EXPECT_TRUE(contains(r.err, "redux")) << r.err;
}

TEST(Cli, PtxCheckMissingFileIsAOneLineError) {
  expectOneLineError(runCli({"ptx-check", "/nonexistent/file.ptx"}), "/nonexistent/file.ptx");
}

}  // namespace
}  // namespace warpsim::test
