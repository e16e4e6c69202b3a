#include "timing/gpu.h"

#include <fmt/format.h>

#include "func/functional_gpu.h"
#include "timing/gpu_impl.h"

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
  const std::string ctaPolicy = t.section("cta_scheduler")
                                    .str("impl", "round-robin",
                                         "CTA scheduler: which CTA starts on which SM, and when");
  resourcePolicy =
      t.section("resources").str("impl", "static",
                                 "per-SM resource manager: registers, shared memory, warp and "
                                 "CTA slots");
  passNames = splitList(t.section("compiler").str(
      "passes", "liveness", "IR passes run on every kernel before it launches, comma-separated"));

  buildHardware();
  ctaScheduler = registry->make<ICtaScheduler>(ctaPolicy, {tree, numSms});
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
  MemorySystemContext mc;
  mc.tree = tree;
  mc.registry = registry;
  mc.memory = memory;
  mc.numSms = numSms;
  mc.coreClockMhz = core.mhz();
  memorySystem = makeMemorySystem(mc);

  sms.reserve(numSms);
  resourceManagers.reserve(numSms);
  for (uint32_t i = 0; i < numSms; ++i) {
    SmContext sc;
    sc.id = i;
    sc.tree = tree;
    sc.registry = registry;
    sc.memory = &memorySystem->sm(i);
    sms.push_back(std::make_unique<Sm>(sc));
    resourceManagers.push_back(registry->make<IResourceManager>(resourcePolicy, {tree, i}));
  }
}

Gpu::Gpu(config::Tree& tree, const PluginRegistry& registry, func::DeviceMemory& memory,
         GpuOptions options)
    : impl_(std::make_unique<Impl>(tree, registry, memory, options)) {}

Gpu::~Gpu() = default;

uint32_t Gpu::numSms() const { return impl_->numSms; }
const ClockDomain& Gpu::coreClock() const { return impl_->core; }
uint64_t Gpu::nowPs() const { return impl_->core.timeOf(impl_->now); }

Occupancy Gpu::occupancyOf(const KernelResources& resources) {
  IResourceManager& rm = *impl_->resourceManagers[0];
  if (!rm.beginKernel(resources).empty()) return Occupancy{};
  return rm.occupancy();
}

KernelTiming Gpu::run(const func::Program& program, uint32_t function,
                      const func::LaunchConfig& launch, const func::RunOptions& options,
                      const KernelResources& resources) {
  KernelTiming out;
  out.result.error = func::validateLaunch(program, function, launch, options);
  if (!out.result.error.empty()) {
    out.result.ok = false;
    return out;
  }
  func::GridContext grid = func::prepareGrid(program, function, launch, *impl_->memory, options);
  KernelResources need = resources;
  if (need.threadsPerCta == 0) need.threadsPerCta = grid.threadsPerCta;
  if (need.sharedBytesPerCta == 0) need.sharedBytesPerCta = grid.sharedBytes;
  for (auto& rm : impl_->resourceManagers) {
    std::string why = rm->beginKernel(need);
    if (!why.empty()) {
      out.result.ok = false;
      out.result.error = fmt::format("kernel '{}' cannot run on {}: {}", grid.kernelName(),
                                     impl_->tree->name(), why);
      return out;
    }
  }
  if (launch.cooperative) {  // grid.sync() needs every CTA resident at once
    uint64_t resident = 0;
    for (auto& rm : impl_->resourceManagers) resident += rm->occupancy().ctasPerSm;
    if (launch.grid.count() > resident) {
      out.result.ok = false;
      out.result.error = func::cooperativeTooLarge(grid.kernelName(), launch.grid.count(), resident,
                                                   impl_->tree->name());
      return out;
    }
  }
  nlohmann::json compiler = nlohmann::json::object();
  for (size_t i = 0; i < impl_->passes.size(); ++i) {
    nlohmann::json found = nlohmann::json::object();
    impl_->passes[i]->run(program.module(), function, found);
    compiler[impl_->passNames[i]] = std::move(found);
  }
  out = impl_->simulate(grid, need);
  out.stats["compiler"] = std::move(compiler);
  return out;
}

}  // namespace warpsim::timing
