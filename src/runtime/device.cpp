#include "runtime/device.h"

#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "config/config.h"
#include "func/device_memory.h"
#include "func/functional_gpu.h"
#include "func/memory_findings.h"
#include "func/program.h"
#include "profile/value_similarity_profiler.h"
#include "ptx/link.h"
#include "ptx/parser.h"
#include "runtime/cache_warmer.h"
#include "runtime/gpu_properties.h"
#include "runtime/launch_setup.h"
#include "runtime/module_state.h"
#include "runtime/occupancy.h"
#include "runtime/profile_options.h"
#include "timing/gpu.h"
#include "timing/plugin_registry.h"

namespace warpsim::runtime {

namespace {

// Bytes of the workspace a cooperative launch's grid.sync() counts arrivals in (nvcc's code uses
// the 32-bit word at offset 4).
constexpr uint64_t kGridSyncWorkspaceBytes = 16;

// Runs `op`, turning the engine's memory errors into runtime::Error.
template <class Op>
auto guarded(Op&& op) -> decltype(op()) {
  try {
    return op();
  } catch (const func::MemoryError& e) {
    throw Error(e.what());
  }
}

// The configuration of `options` (DeviceOptions::numSms as an override of gpu.num_sms).
std::unique_ptr<config::Tree> loadConfiguration(const DeviceOptions& options) {
  std::vector<std::string> sets = options.sets;
  if (options.numSms != 0) sets.push_back(fmt::format("gpu.num_sms={}", options.numSms));
  return std::make_unique<config::Tree>(config::Tree::load(
      options.config.empty() ? kDefaultConfig : options.config, options.overlays, sets));
}

std::unique_ptr<func::DeviceMemory> makeMemory(config::Tree& tree, const DeviceOptions& options) {
  const uint64_t configured = tree.section("gpu").u64(
      "memory_bytes", uint64_t{1536} << 20, "device memory capacity in bytes", 1 << 20,
      uint64_t{1} << 42);
  auto memory = std::make_unique<func::DeviceMemory>(options.memoryBytes != 0 ? options.memoryBytes : configured);
  if (options.initcheck) memory->trackInitialisation();
  return memory;
}

// The alignment of Device::malloc's allocations (cudaMalloc's). A multi-module GPU's
// placement of a structure by address bits needs it aligned to the largest interleave granule
// (the stand-in for a driver that places pages in chosen zones, i_zone_placement.h).
uint64_t readAllocationAlignment(config::Tree& tree) {
  const uint64_t align = tree.section("gpu").u64(
      "allocation_alignment", 256, "alignment of device allocations (cudaMalloc) in bytes, a power of two",
      256, uint64_t{1} << 30);
  if ((align & (align - 1)) != 0) {
    throw config::Error(fmt::format("config: error: gpu.allocation_alignment ({}) is not a power of two", align));
  }
  return align;
}

// Read in both modes, so that a configuration setting it is valid for either; only the
// functional engine interleaves by it (the timing model's warp schedulers decide the order).
uint32_t readWarpQuantum(config::Tree& tree) {
  return tree.section("functional").u32(
      "warp_quantum", 1,
      "functional mode: instructions per turn of a CTA's warps, which take turns round robin "
      "(0: each warp runs until it waits or exits)");
}

// Read in both modes; functional mode runs a launch's CTAs on them (func/parallel_ctas.h), the
// timing model does not use them yet.
uint32_t readHostThreads(config::Tree& tree) {
  const uint32_t threads = tree.section("host").u32(
      "threads", 0,
      "host threads the simulation may use (0: the machine's cores); functional mode runs a "
      "launch's CTAs on them with the result of running them one after another",
      0, 1024);
  return threads != 0 ? threads : std::max(1u, std::thread::hardware_concurrency());
}

uint32_t readMaxRegistersPerThread(config::Tree& tree) {
  return tree.section("resources").u32("max_registers_per_thread", 63,
                                       "the most registers one thread may use", 1, 1024);
}

// The key of a "key=value" override, trimmed ("" without '=').
std::string keyOf(const std::string& set) {
  const size_t eq = set.find('=');
  if (eq == std::string::npos) return "";
  const size_t start = set.find_first_not_of(' ');
  const size_t end = set.find_last_not_of(' ', eq - 1);
  return start < eq && end != std::string::npos ? set.substr(start, end - start + 1) : "";
}

// Functional mode reads a few keys of the configuration, so Tree::checkAllUsed would report
// every key of the timing model: instead, the tables it reads whole may hold no other key.
void checkFunctionalTables(config::Tree& tree, const std::vector<std::string>& sets) {
  const std::vector<config::ResolvedKey> reads = tree.resolved();
  for (const char* table : {"functional", "host", "profile", "sampling"}) {
    for (const std::string& name : tree.section(table).keys()) {
      const std::string key = fmt::format("{}.{}", table, name);
      if (std::any_of(reads.begin(), reads.end(), [&](const config::ResolvedKey& r) { return r.key == key; })) {
        continue;
      }
      for (const std::string& set : sets) {
        if (keyOf(set) == key) throw config::Error(fmt::format("config: error: --set '{}': unknown key '{}'", set, key));
      }
      throw config::Error(fmt::format("config: error: unknown key '{}' in configuration '{}'", key, tree.name()));
    }
  }
}

}  // namespace

Device::Device(DeviceOptions options) : options_(options) {
  if (options_.mode != "functional" && options_.mode != "timing") {
    throw Error(fmt::format("device: mode '{}' is unknown (modes: timing, functional)",
                            options_.mode));
  }
  if (options_.mode == "timing") {
    buildTimingModel();
  } else {
    readFunctionalConfiguration();
  }
}

void Device::readFunctionalConfiguration() {
  try {
    tree_ = loadConfiguration(options_);
    memory_ = makeMemory(*tree_, options_);
    allocationAlignment_ = readAllocationAlignment(*tree_);
    warpQuantum_ = readWarpQuantum(*tree_);
    hostThreads_ = readHostThreads(*tree_);
    readSamplingOptions(*tree_);  // valid in either mode, used in timing mode
    properties_ = gpuPropertiesWithoutModel(*tree_, memory_->capacity());
    profileValues_ = readProfileOptions(*tree_).valueSimilarity;
    compilerOptions_ = readCompilerOptions(*tree_);
    maxRegistersPerThread_ = readMaxRegistersPerThread(*tree_);
    checkFunctionalTables(*tree_, options_.sets);
  } catch (const config::Error& e) {
    throw Error(e.what());
  }
}

void Device::buildTimingModel() {
  try {
    tree_ = loadConfiguration(options_);
    memory_ = makeMemory(*tree_, options_);
    allocationAlignment_ = readAllocationAlignment(*tree_);
    warpQuantum_ = readWarpQuantum(*tree_);
    hostThreads_ = readHostThreads(*tree_);
    registry_ = std::make_unique<timing::PluginRegistry>();
    timing::registerBaselines(*registry_);
    timing::registerMechanisms(*registry_);
    timing::GpuOptions gpuOptions;
    if (options_.progress && isatty(fileno(stderr))) gpuOptions.progress = stderr;
    gpu_ = std::make_unique<timing::Gpu>(*tree_, *registry_, *memory_, gpuOptions);
    sampler_ = KernelSampler(readSamplingOptions(*tree_));
    properties_ = gpuProperties(*tree_, memory_->capacity());
    profileValues_ = readProfileOptions(*tree_).valueSimilarity;
    compilerOptions_ = readCompilerOptions(*tree_);
    maxRegistersPerThread_ = readMaxRegistersPerThread(*tree_);
    tree_->checkAllUsed();
  } catch (const config::Error& e) {
    throw Error(e.what());
  }
}

Device::~Device() = default;

uint64_t Device::malloc(uint64_t bytes) {
  uint64_t address = memory_->allocate(bytes, allocationAlignment_);
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
  state->text.assign(ptxText);
  try {
    state->ir = ptx::parseModule(state->text, std::move(sourceName));
  } catch (const ptx::ParseError& e) {
    throw Error(e.what());
  }
  return finishLoading(std::move(state));
}

Module Device::loadLinkedModule(const std::vector<ptx::Unit>& units, std::string name) {
  auto state = std::make_unique<ModuleState>();
  state->text = ptx::joinUnits(units);
  try {
    state->ir = ptx::parseLinked(units, std::move(name));
  } catch (const ptx::ParseError& e) {
    throw Error(e.what());
  }
  return finishLoading(std::move(state));
}

Module Device::finishLoading(std::unique_ptr<ModuleState> state) {
  state->device = this;
  state->estimateOnly = options_.resources == DeviceOptions::Resources::Estimate;
  allocateRegisters(*state);
  const ir::Module& m = state->ir;

  // Module-scope .global and .const variables live in device memory (the .const ones in one
  // block, see ModuleState::placeConstBank); .shared ones are laid out per CTA by the program.
  state->symbolAddress.assign(m.symbols.size(), 0);
  state->placeConstBank(*memory_);
  for (size_t i = 0; i < m.symbols.size(); ++i) {
    const ir::Symbol& s = m.symbols[i];
    if (s.space != ir::Space::Global) continue;
    uint64_t align = std::max<uint64_t>(s.align, 8);
    uint64_t address = memory_->allocate(std::max<uint64_t>(s.size, 1), align);
    if (address == 0) {
      throw Error(fmt::format("{}:{}: error: out of device memory for '{}' ({} bytes)",
                              m.sourceName, s.line, s.name, s.size));
    }
    state->allocations.push_back(address);
    state->symbolAddress[i] = address;
    memory_->markWritten(address, std::max<uint64_t>(s.size, 1));  // loading initialises (zeros by default)
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

uint64_t Device::residentCtas(const Kernel& kernel, const func::LaunchConfig& config) {
  const auto threads = static_cast<uint32_t>(config.block.count());
  if (gpu_) {
    const func::Program& program = kernel.program();
    timing::KernelResources need;  // as timing::Gpu::run sizes the launch's CTAs
    need.registersPerThread = kernel.resources().registers;
    need.threadsPerCta = threads;
    need.preferredCarveoutPercent = config.preferredCarveoutPercent;
    need.sharedBytesPerCta = config.dynamicSharedBytes == 0
                                 ? program.staticSharedBytes(kernel.index())
                                 : program.dynamicSharedBase(kernel.index()) + config.dynamicSharedBytes;
    return uint64_t{gpu_->occupancyOf(need).ctasPerSm} * gpu_->numSms();
  }
  const ResourceUsage& r = kernel.resources();
  return uint64_t{ctasPerSm(properties_, threads, r.registers, r.sharedBytes + config.dynamicSharedBytes)} *
         properties_.numSms;
}

std::string Device::cooperativeLimit(const Kernel& kernel, const func::LaunchConfig& config) {
  const uint64_t resident = residentCtas(kernel, config);
  if (config.grid.count() <= resident) return {};
  return func::cooperativeTooLarge(kernel.name(), config.grid.count(), resident,
                                   tree_ ? tree_->name() : properties_.name);
}

LaunchDefaults Device::launchDefaults() {
  return {&options_, profileValues_, properties_.numSms, warpQuantum_, hostThreads_, &ctaDependence_};
}

std::string Device::hintProblem(const Kernel& kernel, const func::LaunchConfig& config) {
  if (!config.hints) return "";
  const uint32_t grid[3] = {config.grid.x, config.grid.y, config.grid.z};
  for (size_t i = 0; i < config.hints->locality.size(); ++i) {
    if (std::string why = hints::checkForGrid(config.hints->locality[i], grid); !why.empty()) {
      return fmt::format("kernel '{}': {} (descriptor {} of the launch)", kernel.name(), why, i + 1);
    }
  }
  return "";
}

const func::LaunchConfig& Device::withHints(const Kernel& kernel, const func::LaunchConfig& given,
                                            func::LaunchConfig& copy) {
  if (given.hints) return given;
  auto hints = hints_.take(kernel.name());
  if (!hints) return given;
  copy = given;
  copy.hints = std::move(hints);
  return copy;
}

LaunchReport Device::run(const Kernel& kernel, const func::LaunchConfig& given) {
  func::LaunchConfig hinted;
  const func::LaunchConfig& config = withHints(kernel, given, hinted);
  LaunchSetup setup(kernel, config, launchDefaults());
  LaunchReport& report = setup.report;
  if (std::string why = hintProblem(kernel, config); !why.empty()) {
    report.result.ok = false;
    report.result.error = std::move(why);
    return report;
  }
  func::RunOptions& run = setup.run;
  // A cooperative launch: every CTA resident at once, and a zeroed workspace for grid.sync()
  // (%envreg1:%envreg2), freed after the launch.
  uint64_t workspace = 0;
  if (config.cooperative) {
    report.result.error = cooperativeLimit(kernel, config);
    if (report.result.error.empty()) {
      workspace = memory_->allocate(kGridSyncWorkspaceBytes);
      if (workspace == 0) {
        report.result.error = fmt::format("kernel '{}': out of device memory for the {}-byte grid-sync workspace",
                                          kernel.name(), kGridSyncWorkspaceBytes);
      }
    }
    if (!report.result.error.empty()) {
      report.result.ok = false;
      return report;
    }
    memory_->fill(workspace, 0, kGridSyncWorkspaceBytes);
    run.gridSyncWorkspace = workspace;
  }

  auto start = std::chrono::steady_clock::now();
  const KernelSampler::Shape shape{kernel.name(), config.grid, config.block, config.dynamicSharedBytes};
  if (gpu_ && sampler_.canEstimate(shape)) {
    CacheWarmer warmer(*gpu_, run.observer);
    run.observer = &warmer;
    report.result = func::runKernel(kernel.program(), kernel.index(), config, *memory_, run);
    run.observer = warmer.next();
    if (report.result.ok) {
      CycleEstimate basis;
      report.cycles = sampler_.estimateCycles(shape, report.result.threadInstructions, basis);
      report.simulatedSeconds = static_cast<double>(report.cycles) / (gpu_->coreClock().mhz() * 1e6);
      report.cycleEstimate = basis;
    }
  } else if (gpu_) {
    timing::KernelResources resources;
    resources.registersPerThread = report.resources.registers;  // shared, threads: the launch's
    setup.takeTiming(gpu_->run(kernel.program(), kernel.index(), config, run, resources));
    if (report.result.ok) sampler_.recordTimed(shape, report.result.threadInstructions, report.cycles);
  } else {
    report.result = func::runKernel(kernel.program(), kernel.index(), config, *memory_, run);
  }
  if (workspace != 0) memory_->release(workspace);
  report.wallSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  setup.finish();
  reportFindings(report.memory);
  return std::move(report);
}

void Device::reportFindings(const func::MemoryFindings& findings) const {
  std::ostream& out = options_.notices ? *options_.notices : std::cerr;
  for (const std::string& line : {func::outsideAllocationsLine(findings.outsideAllocations),
                                  func::uninitialisedReadsLine(findings.uninitialisedReads)}) {
    if (!line.empty()) out << line << std::endl;
  }
}

}  // namespace warpsim::runtime
