// Test helper: parse PTX, give module variables device memory, link, and launch kernels with
// typed arguments. Test-only (included from *_test.cpp).
#pragma once
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "func/device_memory.h"
#include "func/functional_gpu.h"
#include "func/program.h"
#include "ptx/parser.h"

namespace warpsim::func::testing {

class KernelRunner {
 public:
  explicit KernelRunner(const std::string& ptxText, std::string sourceName = "test.ptx")
      : KernelRunner(ptx::parseModule(ptxText, std::move(sourceName))) {}
  // An already parsed module (transformed, e.g. register-allocated, before it is linked here).
  explicit KernelRunner(ir::Module module) : module_(std::move(module)) {
    std::vector<uint64_t> addrs(module_.symbols.size(), 0);
    for (size_t i = 0; i < module_.symbols.size(); ++i) {
      const ir::Symbol& s = module_.symbols[i];
      if (s.space != ir::Space::Global && s.space != ir::Space::Const) continue;
      addrs[i] = memory.allocate(s.size, std::max<uint32_t>(s.align, 256));
      if (!s.init.empty()) memory.write(addrs[i], s.init.data(), s.init.size());
    }
    for (size_t i = 0; i < module_.symbols.size(); ++i)
      for (const ir::Symbol::AddrInit& a : module_.symbols[i].addrInits) {
        const uint64_t v = addrs[a.target] + static_cast<uint64_t>(a.addend);
        memory.write(addrs[i] + a.offset, &v, 8);
      }
    symbolAddrs_ = addrs;
    program_ = std::make_unique<Program>(Program::link(module_, addrs));
  }

  const Program& program() const { return *program_; }
  const ir::Module& module() const { return module_; }
  uint64_t symbolAddress(const std::string& name) const {
    int i = module_.findSymbol(name);
    return i < 0 ? 0 : symbolAddrs_[static_cast<size_t>(i)];
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

  // Arguments in declaration order; each is copied with the size of the declared parameter.
  struct Arg {
    uint64_t bits;
    template <class T>
    Arg(T v) : bits(0) {  // NOLINT: implicit on purpose
      static_assert(sizeof(T) <= 8);
      std::memcpy(&bits, &v, sizeof(T));
    }
  };
  LaunchResult launch(const std::string& kernel, Dim3 grid, Dim3 block, std::vector<Arg> args = {},
                      uint32_t dynamicShared = 0) {
    int k = program_->findKernel(kernel);
    EXPECT_GE(k, 0) << "no kernel " << kernel;
    if (k < 0) return {};
    const ir::Function& f = module_.functions[static_cast<size_t>(k)];
    LaunchConfig cfg;
    cfg.grid = grid;
    cfg.block = block;
    cfg.dynamicSharedBytes = dynamicShared;
    cfg.cooperative = cooperative;
    cfg.hints = hints;
    cfg.params.assign(f.kernelParamBytes, 0);
    EXPECT_EQ(args.size(), f.params.size()) << "argument count for " << kernel;
    for (size_t i = 0; i < args.size() && i < f.params.size(); ++i)
      std::memcpy(cfg.params.data() + f.params[i].offset, &args[i].bits, std::min<uint32_t>(f.params[i].size, 8));
    options.printfOut = &printed;
    return runKernel(*program_, static_cast<uint32_t>(k), cfg, memory, options);
  }

  DeviceMemory memory;
  RunOptions options;
  bool cooperative = false;  // LaunchConfig::cooperative of every launch
  std::shared_ptr<const hints::LaunchHints> hints;  // LaunchConfig::hints of every launch
  std::ostringstream printed;

 private:
  ir::Module module_;
  std::vector<uint64_t> symbolAddrs_;
  std::unique_ptr<Program> program_;
};

// A minimal module header for hand-written kernels.
inline std::string ptxModule(const std::string& body) {
  return ".version 8.0\n.target sm_80\n.address_size 64\n\n" + body;
}

}  // namespace warpsim::func::testing
