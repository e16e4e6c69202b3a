// Smoke test over every real PTX file in the repository (nvcc output): allocation at several
// budgets succeeds, the result links and keeps to the budget. (Its speed is measured by
// bench/bench_register_allocation.cpp, not here.)
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "compiler/register_allocation.h"
#include "func/program.h"
#include "ptx/link.h"
#include "ptx/parser.h"

namespace warpsim::compiler {
namespace {

std::vector<std::filesystem::path> ptxFiles() {
  const char* root = std::getenv("WARPSIM_SOURCE_DIR");
  std::filesystem::path base = root ? root : WARPSIM_TEST_SOURCE_DIR;
  std::vector<std::filesystem::path> files;
  for (const char* dir : {"workloads", "tests/cuda"}) {
    if (!std::filesystem::exists(base / dir)) continue;
    for (const auto& e : std::filesystem::recursive_directory_iterator(base / dir))
      if (e.path().extension() == ".ptx") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string readFile(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A program's PTX: one file, or the units of a separately compiled program (tests/cuda/rdc_*.ptx,
// nvcc -rdc=true), which only link together.
struct ProgramPtx {
  std::string name;
  std::vector<std::string> texts;
  ir::Module parse() const {
    if (texts.size() == 1) return ptx::parseModule(texts[0], name);
    std::vector<ptx::Unit> units;
    for (size_t i = 0; i < texts.size(); ++i) units.push_back({texts[i], name + ".unit" + std::to_string(i)});
    return ptx::parseLinked(units, name);
  }
};

std::vector<ProgramPtx> programs() {
  std::vector<ProgramPtx> out;
  ProgramPtx rdc{"rdc_linked.ptx", {}};
  for (const auto& file : ptxFiles()) {
    if (file.filename().string().rfind("rdc_", 0) == 0) rdc.texts.push_back(readFile(file));
    else out.push_back({file.filename().string(), {readFile(file)}});
  }
  if (!rdc.texts.empty()) out.push_back(std::move(rdc));
  return out;
}

TEST(WorkloadAllocation, EveryRepositoryKernelAllocatesAndLinks) {
  const auto all = programs();
  ASSERT_GT(all.size(), 20u);
  for (const auto& program : all) {
    SCOPED_TRACE(program.name);
    ir::Module probe = program.parse();
    const ModuleAllocation minimal = allocateRegisters(probe, RegisterBudget::minimal());
    uint32_t feasible = 1;
    for (const FunctionAllocation& f : minimal.functions) feasible = std::max(feasible, f.feasibleMinimum);
    for (RegisterBudget b : {RegisterBudget::minimal(), RegisterBudget::limit(32), RegisterBudget::limit(24),
                             RegisterBudget::limit(16), RegisterBudget::limit(feasible)}) {
      if (b.mode == RegisterBudget::Mode::Limit && b.registers < feasible) continue;
      ir::Module m = program.parse();
      const ModuleAllocation a = allocateRegisters(m, b);
      for (size_t i = 0; i < m.functions.size(); ++i) {
        if (!a.functions[i].allocated) continue;
        if (b.mode == RegisterBudget::Mode::Limit) {
          EXPECT_LE(a.functions[i].registers, b.registers);
        }
        // A kernel's .maxnreg caps `minimal` too (spill and local_array spill at theirs).
        if (b.mode == RegisterBudget::Mode::Minimal && m.functions[i].maxnreg != 0) {
          EXPECT_LE(a.functions[i].registers, m.functions[i].maxnreg);
        } else if (b.mode == RegisterBudget::Mode::Minimal) {
          // No value spill code: only call saves and predicates beyond the 7 physical ones
          // (those go through the spill area by design) use local memory.
          uint32_t predicateSpills = 0;
          for (const ir::Instr& in : m.functions[i].code)
            predicateSpills += (in.op == ir::Op::Setp || in.op == ir::Op::Selp) && in.has(ir::kSpill);
          EXPECT_EQ(a.functions[i].spillLoads + a.functions[i].spillStores,
                    2 * a.functions[i].callSaves + predicateSpills);
          EXPECT_EQ(a.functions[i].rematerialised, 0u);
        }
        EXPECT_LE(a.functions[i].predicates, 7u);
      }
      EXPECT_NO_THROW(func::Program::link(m, std::vector<uint64_t>(m.symbols.size(), 0x10000)))
          << toString(b);
    }
  }
}

}  // namespace
}  // namespace warpsim::compiler
