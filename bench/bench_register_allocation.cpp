// Cost of the register-allocation stage: every workload kernel of the suite (the committed PTX
// of workloads/*/) parsed once, then allocated together per iteration at `minimal`, at 32 and at
// 16 registers (spill code included). Counters: kernels and instructions allocated per second;
// the time per iteration is what allocating the whole suite costs a run.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "compiler/register_allocation.h"
#include "ptx/parser.h"

namespace {

namespace fs = std::filesystem;
using warpsim::compiler::RegisterBudget;

std::string sourceDir() {
  const char* dir = std::getenv("WARPSIM_SOURCE_DIR");
  return dir != nullptr ? dir : WARPSIM_SOURCE_DIR_DEFAULT;
}

// Every workload module, parsed (sorted by path: deterministic).
const std::vector<warpsim::ir::Module>& suiteModules() {
  static const std::vector<warpsim::ir::Module> modules = [] {
    std::vector<fs::path> paths;
    for (const auto& entry : fs::recursive_directory_iterator(sourceDir() + "/workloads")) {
      if (entry.path().extension() == ".ptx") paths.push_back(entry.path());
    }
    std::sort(paths.begin(), paths.end());
    std::vector<warpsim::ir::Module> out;
    for (const fs::path& p : paths) {
      std::ifstream in(p);
      std::ostringstream text;
      text << in.rdbuf();
      out.push_back(warpsim::ptx::parseModule(text.str(), p.string()));
    }
    return out;
  }();
  return modules;
}

void allocateSuite(benchmark::State& state, RegisterBudget budget) {
  const std::vector<warpsim::ir::Module>& modules = suiteModules();
  size_t kernels = 0, instructions = 0;
  for (const auto& m : modules) {
    for (const auto& f : m.functions) {
      kernels += f.isEntry ? 1 : 0;
      instructions += f.code.size();
    }
  }
  for (auto _ : state) {
    for (const warpsim::ir::Module& original : modules) {
      state.PauseTiming();
      warpsim::ir::Module m = original;
      state.ResumeTiming();
      try {
        benchmark::DoNotOptimize(warpsim::compiler::allocateRegisters(m, budget));
      } catch (const warpsim::compiler::AllocationError&) {
        // a kernel needs more than this budget for one instruction: counted as done
      }
    }
  }
  state.counters["modules"] = static_cast<double>(modules.size());
  state.counters["kernels"] = static_cast<double>(kernels);
  state.counters["instructions_per_s"] = benchmark::Counter(
      static_cast<double>(instructions) * static_cast<double>(state.iterations()),
      benchmark::Counter::kIsRate);
}

void SuiteMinimal(benchmark::State& s) { allocateSuite(s, RegisterBudget::minimal()); }
void Suite32(benchmark::State& s) { allocateSuite(s, RegisterBudget::limit(32)); }
void Suite16(benchmark::State& s) { allocateSuite(s, RegisterBudget::limit(16)); }
BENCHMARK(SuiteMinimal)->Unit(benchmark::kMillisecond);
BENCHMARK(Suite32)->Unit(benchmark::kMillisecond);
BENCHMARK(Suite16)->Unit(benchmark::kMillisecond);

}  // namespace
