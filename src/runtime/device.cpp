#include "runtime/device.h"

#include <fmt/format.h>

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "config/config.h"
#include "func/device_memory.h"
#include "func/functional_gpu.h"
#include "func/program.h"
#include "profile/value_similarity_profiler.h"
#include "ptx/parser.h"
#include "runtime/gpu_properties.h"
#include "runtime/module_state.h"
#include "runtime/profile_options.h"
#include "timing/gpu.h"
#include "timing/plugin_registry.h"

namespace warpsim::runtime {

namespace {

// Runs `op`, turning the engine's memory errors into runtime::Error.
template <class Op>
auto guarded(Op&& op) -> decltype(op()) {
  try {
    return op();
  } catch (const func::MemoryError& e) {
    throw Error(e.what());
  }
}

// Hands every record to two observers, in order.
class BothObservers final : public func::ExecObserver {
 public:
  BothObservers(func::ExecObserver& first, func::ExecObserver& second)
      : first_(first), second_(second) {}
  void onExec(const func::ExecRecord& record) override {
    first_.onExec(record);
    second_.onExec(record);
  }

 private:
  func::ExecObserver& first_;
  func::ExecObserver& second_;
};

}  // namespace

Device::Device(DeviceOptions options) : options_(options) {
  if (options_.mode != "functional" && options_.mode != "timing") {
    throw Error(fmt::format("device: mode '{}' is unknown (modes: timing, functional)",
                            options_.mode));
  }
  if (options_.mode == "timing" || !options_.config.empty()) {
    buildTimingModel();
    return;
  }
  try {
    profileValues_ = profileOptionsFromSets(options_.sets, kDefaultConfig).valueSimilarity;
    compilerOptions_ = compilerOptionsFromSets(options_.sets, kDefaultConfig);
  } catch (const config::Error& e) {
    throw Error(e.what());
  }
  memory_ = options_.memoryBytes != 0 ? std::make_unique<func::DeviceMemory>(options_.memoryBytes)
                                      : std::make_unique<func::DeviceMemory>();
  properties_.memoryBytes = memory_->capacity();
  if (options_.numSms != 0) properties_.numSms = options_.numSms;
}

void Device::buildTimingModel() {
  try {
    std::vector<std::string> sets = options_.sets;
    if (options_.numSms != 0) sets.push_back(fmt::format("gpu.num_sms={}", options_.numSms));
    tree_ = std::make_unique<config::Tree>(config::Tree::load(
        options_.config.empty() ? kDefaultConfig : options_.config, options_.overlays, sets));
    const uint64_t configured = tree_->section("gpu").u64(
        "memory_bytes", uint64_t{1536} << 20, "device memory capacity in bytes", 1 << 20,
        uint64_t{1} << 42);
    memory_ = std::make_unique<func::DeviceMemory>(
        options_.memoryBytes != 0 ? options_.memoryBytes : configured);
    registry_ = std::make_unique<timing::PluginRegistry>();
    timing::registerBaselines(*registry_);
    timing::registerMechanisms(*registry_);
    timing::GpuOptions gpuOptions;
    if (options_.progress && isatty(fileno(stderr))) gpuOptions.progress = stderr;
    gpu_ = std::make_unique<timing::Gpu>(*tree_, *registry_, *memory_, gpuOptions);
    properties_ = gpuProperties(*tree_, memory_->capacity());
    profileValues_ = readProfileOptions(*tree_).valueSimilarity;
    compilerOptions_ = readCompilerOptions(*tree_);
    maxRegistersPerThread_ = tree_->section("resources").u32(
        "max_registers_per_thread", 63, "the most registers one thread may use", 1, 1024);
    tree_->checkAllUsed();
  } catch (const config::Error& e) {
    throw Error(e.what());
  }
}

Device::~Device() = default;

uint64_t Device::malloc(uint64_t bytes) {
  uint64_t address = memory_->allocate(bytes);
  if (address == 0) {
    throw Error(fmt::format("malloc: out of device memory: {} bytes requested, {} of {} in use",
                            bytes, memory_->used(), memory_->capacity()));
  }
  return address;
}

void Device::free(uint64_t address) {
  if (!memory_->release(address)) {
    throw Error(fmt::format("free: 0x{:x} is not the start of an allocation", address));
  }
}

void Device::memcpyHtoD(uint64_t dst, const void* src, uint64_t bytes) {
  guarded([&] { memory_->write(dst, src, bytes); });
}

void Device::memcpyDtoH(void* dst, uint64_t src, uint64_t bytes) const {
  guarded([&] { memory_->read(src, dst, bytes); });
}

void Device::memcpyDtoD(uint64_t dst, uint64_t src, uint64_t bytes) {
  std::vector<uint8_t> staging(bytes);
  guarded([&] {
    memory_->read(src, staging.data(), bytes);
    memory_->write(dst, staging.data(), bytes);
  });
}

void Device::memset(uint64_t dst, uint8_t value, uint64_t bytes) {
  guarded([&] { memory_->fill(dst, value, bytes); });
}

Module Device::loadModuleFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(fmt::format("{}: error: cannot open file", path));
  std::ostringstream text;
  text << in.rdbuf();
  return loadModule(text.str(), path);
}

Module Device::loadModule(std::string_view ptxText, std::string sourceName) {
  auto state = std::make_unique<ModuleState>();
  state->device = this;
  state->text.assign(ptxText);
  state->estimateOnly = options_.resources == DeviceOptions::Resources::Estimate;
  try {
    state->ir = ptx::parseModule(state->text, std::move(sourceName));
  } catch (const ptx::ParseError& e) {
    throw Error(e.what());
  }
  allocateRegisters(*state);
  const ir::Module& m = state->ir;

  // Module-scope .global and .const variables live in device memory; .shared ones are laid out
  // per CTA by the program.
  state->symbolAddress.assign(m.symbols.size(), 0);
  for (size_t i = 0; i < m.symbols.size(); ++i) {
    const ir::Symbol& s = m.symbols[i];
    if (s.space != ir::Space::Global && s.space != ir::Space::Const) continue;
    uint64_t align = std::max<uint64_t>(s.align, 8);
    uint64_t address = memory_->allocate(std::max<uint64_t>(s.size, 1), align);
    if (address == 0) {
      throw Error(fmt::format("{}:{}: error: out of device memory for '{}' ({} bytes)",
                              m.sourceName, s.line, s.name, s.size));
    }
    state->allocations.push_back(address);
    state->symbolAddress[i] = address;
  }
  for (size_t i = 0; i < m.symbols.size(); ++i) {
    const ir::Symbol& s = m.symbols[i];
    uint64_t address = state->symbolAddress[i];
    if (address == 0) continue;
    guarded([&] {
      if (!s.init.empty()) memory_->write(address, s.init.data(), std::min<uint64_t>(s.init.size(), s.size));
      for (const ir::Symbol::AddrInit& a : s.addrInits) {
        if (a.target >= m.symbols.size() || a.offset + 8 > s.size) {
          throw Error(fmt::format("{}:{}: error: bad address initialiser in '{}'", m.sourceName,
                                  s.line, s.name));
        }
        uint64_t value = state->symbolAddress[a.target] + static_cast<uint64_t>(a.addend);
        memory_->write(address + a.offset, &value, 8);
      }
    });
  }
  try {
    state->program = std::make_unique<func::Program>(func::Program::link(m, state->symbolAddress));
  } catch (const func::LinkError& e) {
    throw Error(e.what());
  }
  return Module(std::move(state));
}

void Device::allocateRegisters(ModuleState& state) {
  try {
    const compiler::RegisterBudget& budget = compilerOptions_.registers;
    if (budget.on()) {
      state.registerAllocation = compiler::allocateRegisters(state.ir, budget);
      return;
    }
    if (maxRegistersPerThread_ == 0) return;
    const std::vector<uint32_t> regs = state.unallocatedRegisters();
    std::vector<bool> only(state.ir.functions.size(), false);
    std::vector<uint32_t> over;
    for (uint32_t f = 0; f < regs.size(); ++f) {
      if (regs[f] <= maxRegistersPerThread_) continue;
      over.push_back(f);
      const std::vector<bool> reach = compiler::reachableFunctions(state.ir, f);
      for (size_t g = 0; g < reach.size(); ++g) only[g] = only[g] || reach[g];
    }
    if (over.empty()) return;
    state.registerAllocation = compiler::allocateRegisters(
        state.ir, compiler::RegisterBudget::limit(maxRegistersPerThread_), only);
    std::ostream& out = options_.notices ? *options_.notices : std::cerr;
    const char* source = state.ptxas && state.ptxas->ok ? "ptxas" : "estimate";
    for (uint32_t f : over) {
      const compiler::FunctionAllocation& a = state.registerAllocation.functions[f];
      out << fmt::format(
          "warpsim: kernel '{}' uses {} registers ({}) but {} allows {} per thread: allocated "
          "within {} registers, {} bytes of spill per thread\n",
          state.ir.functions[f].name, regs[f], source, tree_ ? tree_->name() : "the GPU",
          maxRegistersPerThread_, state.registerAllocation.kernelRegisters(state.ir, f),
          a.spillBytes);
    }
  } catch (const compiler::AllocationError& e) {
    throw Error(e.what());
  }
}

LaunchReport Device::run(const Kernel& kernel, const func::LaunchConfig& config) {
  LaunchReport report;
  report.kernel = kernel.name();
  report.grid = config.grid;
  report.block = config.block;
  report.dynamicSharedBytes = config.dynamicSharedBytes;
  report.resources = kernel.resources();
  if (const compiler::FunctionAllocation* a = kernel.allocation()) {
    report.allocation = *a;
    report.allocationBudget = kernel.allocationBudget();
  }

  // Observers: the instruction statistics, the value profiler, both or none (an observer that
  // is not installed costs nothing).
  KernelStatsObserver observer;
  profile::ValueSimilarityProfiler profiler;
  BothObservers both(observer, profiler);
  func::RunOptions run;
  if (options_.collectStats && profileValues_) {
    run.observer = &both;
  } else if (options_.collectStats) {
    run.observer = &observer;
  } else if (profileValues_) {
    run.observer = &profiler;
  }
  run.printfOut = options_.printfOutput;
  if (options_.numSms != 0) run.numSms = options_.numSms;
  if (options_.maxWarpInstructions != 0) run.maxWarpInstructions = options_.maxWarpInstructions;
  if (options_.localStackBytes != 0) run.localStackBytes = options_.localStackBytes;

  if (gpu_) run.numSms = gpu_->numSms();  // %nsmid as the configured GPU has it

  auto start = std::chrono::steady_clock::now();
  if (gpu_ && options_.mode == "timing") {
    timing::KernelResources resources;
    resources.registersPerThread = report.resources.registers;  // shared, threads: the launch's
    timing::KernelTiming t =
        gpu_->run(kernel.program(), kernel.index(), config, run, resources);
    report.result = std::move(t.result);
    report.cycles = t.cycles;
    report.simulatedSeconds = t.simulatedNs * 1e-9;
    report.timing = std::make_shared<const nlohmann::json>(std::move(t.stats));
  } else {
    report.result = func::runKernel(kernel.program(), kernel.index(), config, *memory_, run);
  }
  report.wallSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  report.stats = observer.stats();
  if (profileValues_) report.valueSimilarity = profiler.stats();
  return report;
}

}  // namespace warpsim::runtime
