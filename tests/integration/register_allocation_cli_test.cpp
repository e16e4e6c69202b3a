// The register allocator from the command line: --max-registers on `run`, the summary line and
// statistics, its one-line errors, and `ptx-check --allocate`.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <fstream>

#include "integration/test_support.h"

namespace warpsim::test {
namespace {

std::string repoPath(const std::string& relative) { return sourceDir() + "/" + relative; }

TEST(CliRegisterAllocation, RunAtABudgetReportsSpillsAndAllocatorResources) {
  TempFile stats("stats.json", "");
  CliResult r = runCli({"run", "spill", "--size", "small", "--mode", "functional",
                        "--max-registers", "20", "--estimate-resources", "--stats", stats.path()});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("register allocation: budget 20; spill loads "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" allocator "), std::string::npos) << r.out;
  std::ifstream in(stats.path());
  const nlohmann::json j = nlohmann::json::parse(in);
  const nlohmann::json& k = j.at("kernels").at(0);
  EXPECT_EQ(k.at("resource_source"), "allocator");
  EXPECT_LE(k.at("regs_per_thread").get<int>(), 20);
  const nlohmann::json& a = k.at("register_allocation");
  EXPECT_EQ(a.at("budget"), "20");
  EXPECT_GT(a.at("dynamic_spill_stores").get<uint64_t>(), 0u);
  EXPECT_GT(a.at("static_spill_stores").get<uint64_t>(), 0u);
  // Spill traffic is local traffic.
  EXPECT_LE(a.at("dynamic_spill_store_bytes").get<uint64_t>() +
                a.at("dynamic_spill_load_bytes").get<uint64_t>(),
            k.at("memory").at("local").at("bytes").get<uint64_t>());
}

TEST(CliRegisterAllocation, OffLeavesKernelsOnVirtualRegisters) {
  TempFile stats("stats.json", "");
  CliResult r = runCli({"run", "vecadd", "--size", "small", "--mode", "functional",
                        "--max-registers", "off", "--estimate-resources", "--stats", stats.path()});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out.find("register allocation:"), std::string::npos);
  std::ifstream in(stats.path());
  const nlohmann::json j = nlohmann::json::parse(in);
  EXPECT_EQ(j.at("kernels").at(0).at("resource_source"), "estimate");
  EXPECT_FALSE(j.at("kernels").at(0).contains("register_allocation"));
}

TEST(CliRegisterAllocation, BudgetErrorsAreOneLine) {
  expectOneLineError(runCli({"run", "vecadd", "--max-registers", "lots"}),
                     "--max-registers: must be off, minimal or a register count from 1 to 255, "
                     "not 'lots'");
  expectOneLineError(runCli({"run", "vecadd", "--max-registers", "0"}), "not '0'");
  CliResult r = runCli({"run", "vecadd", "--size", "small", "--max-registers", "2"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_EQ(lines(r.err).size(), 1u) << r.err;
  EXPECT_NE(r.err.find("kernel 'vecadd': a budget of 2 registers cannot hold the operands of the "
                       "instruction at line 41 (it needs 4); the smallest feasible budget is 4"),
            std::string::npos)
      << r.err;
}

TEST(CliRegisterAllocation, PtxCheckPrintsTheAllocatedCode) {
  CliResult r = runCli({"ptx-check", repoPath("workloads/spill/spill.ptx"), "--allocate", "minimal",
                        "--estimate-resources"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  // .maxnreg 24 caps the kernel: it spills even at `minimal`.
  EXPECT_NE(r.out.find("// .entry spill_mix: 24 registers"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("resources (allocator, budget minimal): 24 registers/thread"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("st.local.b64 [local], %RD0;  // line 39 spill"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("mov.u32 %R2, %tid.x;  // line 33"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace warpsim::test
