// Test helper: parse PTX, optionally allocate registers, link and launch kernels functionally.
// Like func::testing::KernelRunner, but the module can be allocated between parse and link.
#pragma once
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "compiler/register_allocation.h"
#include "func/testing/kernel_runner.h"
#include "ptx/parser.h"

namespace warpsim::compiler::testing {

inline const char* kHeader = ".version 8.0\n.target sm_80\n.address_size 64\n\n";

// The allocation, held in a base so that it exists before the runner links the module.
struct AllocationHolder {
  ModuleAllocation allocation;
};

class ModuleRunner : public AllocationHolder, public func::testing::KernelRunner {
 public:
  // Parses `ptx` and allocates it with `budget` (nothing when off), then links it.
  ModuleRunner(const std::string& ptx, const RegisterBudget& budget)
      : KernelRunner(allocated(ptx, budget, allocation)) {}

  const ir::Function& function(const std::string& name) const {
    return module().functions.at(static_cast<size_t>(module().findFunction(name)));
  }
  const FunctionAllocation& stats(const std::string& name) const {
    return allocation.functions.at(static_cast<size_t>(module().findFunction(name)));
  }
  std::string text(const std::string& name) const {
    const auto i = static_cast<uint32_t>(module().findFunction(name));
    return allocatedText(module(), i, allocation.functions.at(i));
  }

 private:
  static ir::Module allocated(const std::string& ptx, const RegisterBudget& budget,
                              ModuleAllocation& out) {
    ir::Module m = ptx::parseModule(ptx, "test.ptx");
    out = allocateRegisters(m, budget);
    return m;
  }
};

// Runs kernel `k(out, in)` with `threads` threads in one block: `in` holds `inWords` words
// (0x9E3779B9 * i ^ i >> 3), `out` holds `outWords` words of 0xA5A5A5A5; returns `out`.
inline std::vector<uint32_t> runOutIn(const std::string& ptx, const RegisterBudget& budget, uint32_t threads,
                                      size_t outWords, size_t inWords = 256, std::string* text = nullptr) {
  ModuleRunner run(ptx, budget);
  std::vector<uint32_t> in(inWords);
  for (size_t i = 0; i < inWords; ++i) in[i] = static_cast<uint32_t>(0x9E3779B9u * i) ^ static_cast<uint32_t>(i >> 3);
  const uint64_t inAddr = run.upload(in);
  const uint64_t outAddr = run.upload(std::vector<uint32_t>(outWords, 0xA5A5A5A5u));
  run.launch("k", {1, 1, 1}, {threads, 1, 1}, {outAddr, inAddr});
  if (text) *text = run.text("k");
  return run.download<uint32_t>(outAddr, outWords);
}

}  // namespace warpsim::compiler::testing
