#include "timing/gpu.h"

#include <algorithm>

#include <fmt/format.h>

#include "func/functional_gpu.h"
#include "timing/gpu_impl.h"
#include "timing/launch_set.h"
#include "timing/sm/sm_params.h"
#include "timing/sm_resource_limits.h"

namespace warpsim::timing {

namespace {

// "a, b ,c" -> {"a", "b", "c"}; empty items dropped.
std::vector<std::string> splitList(const std::string& text) {
  std::vector<std::string> items;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t comma = text.find(',', pos);
    if (comma == std::string::npos) comma = text.size();
    std::string item = text.substr(pos, comma - pos);
    const size_t b = item.find_first_not_of(" \t");
    const size_t e = item.find_last_not_of(" \t");
    if (b != std::string::npos) items.push_back(item.substr(b, e - b + 1));
    pos = comma + 1;
  }
  return items;
}

}  // namespace

Gpu::Impl::Impl(config::Tree& t, const PluginRegistry& r, func::DeviceMemory& m, GpuOptions o)
    : tree(&t), registry(&r), memory(&m), options(o) {
  config::Section gpu = t.section("gpu");
  numSms = gpu.u32("num_sms", 15, "streaming multiprocessors", 1, 4096);
  modules = gpu.u32("modules", 1,
                    "GPU modules (NUMA zones), each with num_sms / modules SMs and "
                    "dram.channels / modules memory channels, joined by links ([module_link])",
                    1, 256);
  if (numSms % modules != 0)
    throw config::Error(fmt::format("config: error: gpu.num_sms = {} is not a multiple of "
                                    "gpu.modules = {}",
                                    numSms, modules));
  deadlockCycles = gpu.u64("deadlock_cycles", 100000,
                           "core cycles without any progress after which a launch is stopped as "
                           "deadlocked (0: never)");
  sampleInterval = gpu.u64("sample_interval", 0,
                           "core cycles between rows of the statistics time series (0: none)");
  skipIdleCycles = gpu.flag("skip_idle_cycles", true,
                            "jump over cycles in which nothing can happen (false: step every "
                            "core cycle; results and statistics are the same, only slower)");
  core = ClockDomain::fromMhz(
      t.section("clocks").f64("core", 1400.0, "SM (core) clock in MHz", 1.0, 1e6));
  ctaPolicy = t.section("cta_scheduler")
                  .str("impl", "round-robin",
                       "CTA scheduler: which CTA starts on which SM, and when");
  resourcePolicy =
      t.section("resources").str("impl", "static",
                                 "per-SM resource manager: registers, shared memory, warp and "
                                 "CTA slots");
  passNames = splitList(t.section("compiler").str(
      "passes", "liveness", "IR passes run on every kernel before it launches, comma-separated"));

  buildHardware();
  probe = registry->make<IResourceManager>(resourcePolicy, {tree, 0});
  ctaSchedulers.push_back(registry->make<ICtaScheduler>(ctaPolicy, {tree, numSms, modules}));
  // Passes the SMs' models asked for run too, after the configured ones (every SM is built from
  // the same configuration: the first one's requests are every SM's).
  for (const std::string& name : sms.front()->passRequests().names()) {
    if (std::find(passNames.begin(), passNames.end(), name) == passNames.end()) passNames.push_back(name);
  }
  for (const std::string& name : passNames) passes.push_back(registry->make<IIrPass>(name, {tree}));
  // Energy is reported when the configuration describes it; a partial table is an error (the
  // energy model names the missing key).
  config::Section energyTable = t.section("energy");
  if (!energyTable.keys().empty()) energy.emplace(energyTable);
}

void Gpu::Impl::buildHardware() {
  sms.clear();
  resourceManagers.clear();
  memorySystem.reset();
  resourceManagers.reserve(numSms);
  for (uint32_t i = 0; i < numSms; ++i) {
    resourceManagers.push_back(registry->make<IResourceManager>(resourcePolicy, {tree, i}));
  }
  // A warp-granular manager may keep more warps resident than the SM has warp slots.
  uint32_t warpContexts = readSmParams(tree->section("sm")).maxWarps;
  if (resourceManagers.front()->warpGranular() && resourceManagers.front()->warpContexts() != 0) {
    warpContexts = resourceManagers.front()->warpContexts();
  }
  MemorySystemContext mc;
  mc.tree = tree;
  mc.registry = registry;
  mc.memory = memory;
  mc.numSms = numSms;
  mc.modules = modules;
  mc.warpSlotsPerSm = warpContexts;
  mc.coreClockMhz = core.mhz();
  memorySystem = makeMemorySystem(mc);

  const SmResourceLimits limits = SmResourceLimits::read(*tree);
  fixedStorageBytes = uint64_t{limits.registers} * 4 + limits.sharedBytes + memorySystem->sm(0).l1Capacity();

  sms.reserve(numSms);
  for (uint32_t i = 0; i < numSms; ++i) {
    SmContext sc;
    sc.id = i;
    sc.tree = tree;
    sc.registry = registry;
    sc.memory = &memorySystem->sm(i);
    sc.system = memorySystem.get();
    sc.resources = resourceManagers[i].get();
    sms.push_back(std::make_unique<Sm>(sc));
  }
}

Gpu::Gpu(config::Tree& tree, const PluginRegistry& registry, func::DeviceMemory& memory,
         GpuOptions options)
    : impl_(std::make_unique<Impl>(tree, registry, memory, options)) {}

Gpu::~Gpu() = default;

uint32_t Gpu::numSms() const { return impl_->numSms; }
const ClockDomain& Gpu::coreClock() const { return impl_->core; }
uint64_t Gpu::nowPs() const { return impl_->core.timeOf(impl_->now); }

void Gpu::warm(uint64_t address, uint32_t bytes, bool write) {
  impl_->memorySystem->warm(address, bytes, write);
}

Occupancy Gpu::occupancyOf(const KernelResources& resources) {
  IResourceManager& rm = *impl_->probe;
  KernelResources need = resources;
  need.assistRegistersPerThread = impl_->assistRegistersPerThread();
  if (!rm.beginKernel(need).empty()) return Occupancy{};
  return rm.occupancy();
}

void Gpu::Impl::prepare(LaunchRun& run) {
  const BatchLaunch& l = *run.spec;
  func::LaunchResult& result = run.out.result;
  run.state = LaunchRun::State::Failed;
  result.ok = false;
  if (l.program == nullptr) {
    result.error = fmt::format("launch {} of the batch has no program", run.index);
    return;
  }
  result.error = func::validateLaunch(*l.program, l.function, l.launch, l.options);
  if (!result.error.empty()) return;
  const std::string& name = l.program->module().functions[l.function].name;
  for (uint32_t a : l.after) {
    if (a >= run.index) {
      result.error = fmt::format(
          "kernel '{}': launch {} of the batch waits for launch {}, which is not an earlier "
          "launch of the batch",
          name, run.index, a);
      return;
    }
  }
  run.grid = func::prepareGrid(*l.program, l.function, l.launch, *memory, l.options);
  run.grid.coreCycle = &now;  // %clock and %clock64 read the core cycle
  KernelResources& need = run.need;
  need = l.resources;
  if (need.threadsPerCta == 0) need.threadsPerCta = run.grid.threadsPerCta;
  if (need.sharedBytesPerCta == 0) need.sharedBytesPerCta = run.grid.sharedBytes;
  need.preferredCarveoutPercent = l.launch.preferredCarveoutPercent;
  // The registers the assist-warp routines need come on top of every thread's (CABA B.2). A
  // kernel whose CTA cannot fit with them runs without the reservation (the compiler would
  // have to spill around the routines; not modelled): resources.assist_registers_per_thread
  // says which.
  need.assistRegistersPerThread = assistRegistersPerThread();
  if (need.assistRegistersPerThread != 0 && !probe->beginKernel(need).empty()) {
    KernelResources plain = need;
    plain.assistRegistersPerThread = 0;
    if (probe->beginKernel(plain).empty()) need = plain;
  }
  const std::string why = probe->beginKernel(need);
  if (!why.empty()) {
    result.error = fmt::format("kernel '{}' cannot run on {}: {}", name, tree->name(), why);
    return;
  }
  run.occupancy = probe->occupancy();
  run.total = l.launch.grid.count();
  if (l.launch.cooperative) {  // grid.sync() needs every CTA resident at once
    const uint64_t resident = uint64_t{run.occupancy.ctasPerSm} * numSms;
    if (run.total > resident) {
      result.error = func::cooperativeTooLarge(name, run.total, resident, tree->name());
      return;
    }
  }
  std::vector<uint32_t> codeSizes;
  for (size_t f = 0; f < l.program->module().functions.size(); ++f) {
    codeSizes.push_back(static_cast<uint32_t>(l.program->function(static_cast<uint32_t>(f)).code.size()));
  }
  run.annotations.setCodeSizes(std::move(codeSizes));
  for (size_t i = 0; i < passes.size(); ++i) {
    nlohmann::json found = nlohmann::json::object();
    passes[i]->run(*l.program, l.function, found, run.annotations);
    run.compiler[passNames[i]] = std::move(found);
  }
  while (ctaSchedulers.size() <= run.index) {
    ctaSchedulers.push_back(registry->make<ICtaScheduler>(ctaPolicy, {tree, numSms, modules}));
  }
  run.scheduler = ctaSchedulers[run.index].get();
  run.pool.emplace(run.grid);
  if (l.options.observer != nullptr) run.trace.emplace(*l.options.observer);
  run.state = LaunchRun::State::Waiting;
  result.ok = true;
}

KernelTiming Gpu::run(const func::Program& program, uint32_t function,
                      const func::LaunchConfig& launch, const func::RunOptions& options,
                      const KernelResources& resources) {
  std::vector<BatchLaunch> one(1);
  one[0].program = &program;
  one[0].function = function;
  one[0].launch = launch;
  one[0].options = options;
  one[0].resources = resources;
  return std::move(runConcurrent(one)[0]);
}

std::vector<KernelTiming> Gpu::runConcurrent(const std::vector<BatchLaunch>& launches) {
  LaunchSet set(*impl_, launches);
  for (size_t i = 0; i < set.size(); ++i) impl_->prepare(set[i]);
  impl_->simulate(set);
  std::vector<KernelTiming> out;
  out.reserve(set.size());
  for (size_t i = 0; i < set.size(); ++i) out.push_back(std::move(set[i].out));
  return out;
}

}  // namespace warpsim::timing
