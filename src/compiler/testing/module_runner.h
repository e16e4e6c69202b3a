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
#include "func/device_memory.h"
#include "func/functional_gpu.h"
#include "func/program.h"
#include "ptx/parser.h"

namespace warpsim::compiler::testing {

inline const char* kHeader = ".version 8.0\n.target sm_80\n.address_size 64\n\n";

class ModuleRunner {
 public:
  // Parses `ptx` and allocates it with `budget` (nothing when off).
  ModuleRunner(const std::string& ptx, const RegisterBudget& budget)
      : module_(ptx::parseModule(ptx, "test.ptx")) {
    allocation = allocateRegisters(module_, budget);
    std::vector<uint64_t> addrs(module_.symbols.size(), 0);
    for (size_t i = 0; i < module_.symbols.size(); ++i) {
      const ir::Symbol& s = module_.symbols[i];
      if (s.space != ir::Space::Global && s.space != ir::Space::Const) continue;
      addrs[i] = memory.allocate(s.size, std::max<uint32_t>(s.align, 256));
      if (!s.init.empty()) memory.write(addrs[i], s.init.data(), s.init.size());
    }
    program_ = std::make_unique<func::Program>(func::Program::link(module_, addrs));
  }

  const ir::Module& module() const { return module_; }
  const ir::Function& function(const std::string& name) const {
    return module_.functions.at(static_cast<size_t>(module_.findFunction(name)));
  }
  const FunctionAllocation& stats(const std::string& name) const {
    return allocation.functions.at(static_cast<size_t>(module_.findFunction(name)));
  }
  std::string text(const std::string& name) const {
    const auto i = static_cast<uint32_t>(module_.findFunction(name));
    return allocatedText(module_, i, allocation.functions.at(i));
  }

  template <class T>
  uint64_t upload(const std::vector<T>& v) {
    uint64_t a = memory.allocate(v.size() * sizeof(T));
    memory.write(a, v.data(), v.size() * sizeof(T));
    return a;
  }
  template <class T>
  std::vector<T> download(uint64_t addr, size_t n) const {
    std::vector<T> v(n);
    memory.read(addr, v.data(), n * sizeof(T));
    return v;
  }

  // Launches `kernel` with 64-bit arguments (kernels under test take .u64 pointers or .u32s).
  func::LaunchResult launch(const std::string& kernel, func::Dim3 grid, func::Dim3 block,
                            const std::vector<uint64_t>& args) {
    int k = program_->findKernel(kernel);
    EXPECT_GE(k, 0) << "no kernel " << kernel;
    if (k < 0) return {};
    const ir::Function& f = module_.functions[static_cast<size_t>(k)];
    func::LaunchConfig cfg;
    cfg.grid = grid;
    cfg.block = block;
    cfg.params.assign(f.kernelParamBytes, 0);
    EXPECT_EQ(args.size(), f.params.size());
    for (size_t i = 0; i < args.size() && i < f.params.size(); ++i)
      std::memcpy(cfg.params.data() + f.params[i].offset, &args[i], std::min<uint32_t>(f.params[i].size, 8));
    options.printfOut = &printed;
    return func::runKernel(*program_, static_cast<uint32_t>(k), cfg, memory, options);
  }

  ModuleAllocation allocation;
  func::DeviceMemory memory;
  func::RunOptions options;
  std::ostringstream printed;

 private:
  ir::Module module_;
  std::unique_ptr<func::Program> program_;
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
