// The warpsim command line, run as a separate process: exit status, stdout, and one-line
// errors on stderr.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "test_support.h"

namespace warpsim::test {
namespace {

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

TEST(Cli, ListShowsEveryWorkloadWithCategoryAndSizes) {
  CliResult r = runCli({"list"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "65 workloads")) << r.out;
  // name, category, description, small / default / large sizes and their meaning
  EXPECT_TRUE(contains(r.out, "sgemm-tiled     dense")) << r.out;
  EXPECT_TRUE(contains(r.out, "128 / 256 / ")) << r.out;
  EXPECT_TRUE(contains(r.out, "spill           private")) << r.out;
  EXPECT_TRUE(contains(r.out, "262144 / 4194304 / 16777216 elements")) << r.out;  // vecadd
  EXPECT_FALSE(contains(r.out, "vecadd-reduce")) << r.out;
}

TEST(Cli, RunPrintsSummaryAndWritesStatsJson) {
  TempFile statsFile("stats.json", "");
  const std::string& stats = statsFile.path();
  CliResult r = runCli({"run", "histogram", "--size", "small", "--seed", "7", "--mode",
                        "functional", "--estimate-resources", "--stats", stats});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "workload histogram [reduction], size small = 262144"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "kernels launched: 2")) << r.out;
  EXPECT_TRUE(contains(r.out, "SIMD efficiency:")) << r.out;
  EXPECT_TRUE(contains(r.out, "thread-inst/s")) << r.out;
  EXPECT_TRUE(contains(r.out, "verification: PASS")) << r.out;

  std::ifstream in(stats);
  nlohmann::json j = nlohmann::json::parse(in);
  EXPECT_EQ(j["workload"], "histogram");
  EXPECT_EQ(j["category"], "reduction");
  EXPECT_EQ(j["size"], "small");
  EXPECT_EQ(j["problem_size"], 262144);
  EXPECT_EQ(j["seed"], 7);
  EXPECT_EQ(j["mode"], "functional");
  EXPECT_EQ(j["config"]["name"], "gtx480");  // functional mode simulates the default GPU too
  EXPECT_EQ(j["config"]["sms"], 15);
  EXPECT_EQ(j["config"]["resources"], "estimate");
  EXPECT_EQ(j["verified"], true);
  ASSERT_EQ(j["kernels"].size(), 2u);
  uint64_t threads = 0, warps = 0, atomics = 0;
  for (const auto& k : j["kernels"]) {
    for (const char* field : {"name", "grid", "block", "regs_per_thread", "shared_bytes",
                              "local_bytes", "warp_instructions", "thread_instructions",
                              "simd_efficiency", "instruction_mix", "memory",
                              "divergent_branches"}) {
      EXPECT_TRUE(k.contains(field)) << field;
    }
    EXPECT_GT(k["simd_efficiency"].get<double>(), 0.0);
    EXPECT_LE(k["simd_efficiency"].get<double>(), 1.0);
    EXPECT_EQ(k["block"].size(), 3u);
    threads += k["thread_instructions"].get<uint64_t>();
    warps += k["warp_instructions"].get<uint64_t>();
    atomics += k["atomics"].get<uint64_t>();
  }
  // Per-block shared histograms: the first kernel has shared memory, shared atomics and
  // reads its input from global memory.
  const auto& first = j["kernels"][0];
  EXPECT_GT(first["shared_bytes"].get<uint64_t>(), 0u);
  EXPECT_GT(first["memory"]["shared"]["instructions"].get<uint64_t>(), 0u);
  EXPECT_GE(first["memory"]["global"]["bytes"].get<uint64_t>(), 262144u * 4);
  EXPECT_GT(atomics, 0u);
  EXPECT_EQ(j["totals"]["kernels"], 2);
  EXPECT_EQ(j["totals"]["thread_instructions"].get<uint64_t>(), threads);
  EXPECT_EQ(j["totals"]["warp_instructions"].get<uint64_t>(), warps);
  EXPECT_EQ(j["totals"]["atomics"].get<uint64_t>(), atomics);
  EXPECT_GT(j["host"]["wall_seconds"].get<double>(), 0.0);
  EXPECT_GT(j["host"]["thread_instructions_per_second"].get<double>(), 0.0);
}

TEST(Cli, RunDefaultsToSgemmTiledAndDetailShowsMixAndMemory) {
  CliResult r = runCli({"run", "--size", "32", "--detail", "--estimate-resources"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "workload sgemm-tiled [dense], size custom = 32")) << r.out;
  EXPECT_TRUE(contains(r.out, "verification: PASS")) << r.out;
  EXPECT_TRUE(contains(r.out, "mix:")) << r.out;
  EXPECT_TRUE(contains(r.out, "shared")) << r.out;
}

// Timing-mode runs are tested in tests/timing/cli_timing_test.cpp.
TEST(Cli, UnknownModeIsRefusedClearly) {
  expectOneLineError(runCli({"run", "vecadd", "--mode", "fast"}), "--mode 'fast' is unknown");
}

TEST(Cli, RunAllPrintsOneLinePerWorkloadAndACount) {
  CliResult r = runCli({"run", "--all", "--size", "small", "--mode", "functional", "--estimate-resources"});
  EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
  std::vector<std::string> out = lines(r.out);
  ASSERT_EQ(out.size(), 66u) << r.out;
  EXPECT_EQ(out[0].rfind("PASS vecadd ", 0), 0u) << out[0];
  EXPECT_EQ(out[64].rfind("PASS heartwall ", 0), 0u) << out[64];
  EXPECT_TRUE(contains(out[65], "65 of 65 workloads passed (size small")) << out[65];
}

// With --jobs the workloads run in processes of their own, several at a time; the lines are those
// of one process, in the suite's order (wall time and rate aside).
TEST(Cli, RunAllWithJobsPrintsTheSameLinesInTheSameOrder) {
  const std::vector<std::string> args = {"run", "--all", "--size", "small", "--mode", "functional",
                                         "--estimate-resources"};
  std::vector<std::string> withJobs = args;
  withJobs.insert(withJobs.end(), {"--jobs", "3"});
  CliResult one = runCli(args), three = runCli(withJobs);
  ASSERT_EQ(one.exitCode, 0) << one.out << one.err;
  ASSERT_EQ(three.exitCode, 0) << three.out << three.err;
  // "... 100.0% SIMD    0.058 s   99.35 Mthread-inst/s": the line up to its wall time.
  auto untimed = [](const std::string& line) { return line.substr(0, line.find("% SIMD") + 6); };
  const std::vector<std::string> a = lines(one.out), b = lines(three.out);
  ASSERT_EQ(a.size(), 66u) << one.out;
  ASSERT_EQ(b.size(), a.size()) << three.out;
  for (size_t i = 0; i + 1 < a.size(); ++i) EXPECT_EQ(untimed(b[i]), untimed(a[i])) << i;
  EXPECT_TRUE(contains(b[65], "65 of 65 workloads passed (size small, functional mode)")) << b[65];
  EXPECT_TRUE(contains(b[65], " in 3 processes, ")) << b[65];
  EXPECT_EQ(three.err, one.err);  // what the children print on stderr, in the same order

  CliResult alone = runCli({"run", "vecadd", "--jobs", "2"});
  EXPECT_EQ(alone.exitCode, 1);
  EXPECT_TRUE(contains(alone.err, "--jobs runs the workloads of --all in parallel; it needs --all")) << alone.err;
}

// --threads N is host.threads=N: functional mode's statistics do not depend on it (only the
// host's time does), and it takes whole numbers of at least 1.
TEST(Cli, ThreadsChangeNothingButTheHostTime) {
  const std::string one = testing::TempDir() + "threads1.json", three = testing::TempDir() + "threads3.json";
  CliResult a = runCli({"run", "histogram", "--mode", "functional", "--estimate-resources", "--threads", "1",
                        "--stats", one, "-q"});
  CliResult b = runCli({"run", "histogram", "--mode", "functional", "--estimate-resources", "--set",
                        "host.threads=3", "--stats", three, "-q"});
  ASSERT_EQ(a.exitCode, 0) << a.err;
  ASSERT_EQ(b.exitCode, 0) << b.err;
  auto withoutHostTime = [](const std::string& path) {
    std::ifstream in(path);
    nlohmann::json j = nlohmann::json::parse(in);
    j.erase("host");
    for (nlohmann::json& k : j["kernels"]) {
      k.erase("wall_seconds");
      k.erase("thread_instructions_per_second");
    }
    return j;
  };
  EXPECT_EQ(withoutHostTime(one), withoutHostTime(three));
  expectOneLineError(runCli({"run", "vecadd", "--threads", "0"}), "--threads");
  expectOneLineError(runCli({"run", "vecadd", "--mode", "functional", "--set", "host.threads=2000"}),
                     "host.threads");
}

TEST(Cli, CalibrateListAlignsNamesUnitsAndDescriptions) {
  CliResult r = runCli({"calibrate", "--list"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const std::vector<std::string> out = lines(r.out);
  ASSERT_GE(out.size(), 10u) << r.out;
  ASSERT_EQ(out[0].rfind("l1_hit_cycles ", 0), 0u) << out[0];
  // Three columns (name, unit, description), each starting where it starts on the first line,
  // after at least two spaces: the longest name and unit set the widths.
  const size_t gap = out[0].find("  cycles");  // the unit after the name's padding
  ASSERT_NE(gap, std::string::npos) << out[0];
  const size_t unit = gap + 2;
  const size_t what = out[0].find_first_not_of(' ', unit + 6);
  ASSERT_NE(what, std::string::npos) << out[0];
  for (const std::string& line : out) {
    ASSERT_GT(line.size(), what) << line;
    EXPECT_EQ(line.substr(unit - 2, 2), "  ") << line;
    EXPECT_NE(line[unit], ' ') << line;
    EXPECT_EQ(line.substr(what - 2, 2), "  ") << line;
    EXPECT_NE(line[what], ' ') << line;
  }
}

TEST(Cli, UnknownWorkloadIsAOneLineError) {
  expectOneLineError(runCli({"run", "nonesuch"}), "no workload 'nonesuch'");
  expectOneLineError(runCli({"run", "vecadd-reduce"}), "no workload 'vecadd-reduce'");
}

TEST(Cli, BadOptionIsAOneLineError) {
  expectOneLineError(runCli({"run", "--size", "zero"}), "--size 'zero'");
  expectOneLineError(runCli({"run", "--size", "0"}), "--size '0'");
  expectOneLineError(runCli({"frobnicate"}), "frobnicate");
  expectOneLineError(runCli({"run", "sgemm-tiled", "--size", "100000"}), "too large");
  expectOneLineError(runCli({"run", "vecadd", "--all"}), "--all runs every workload");
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
