#include "runtime/module.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "func/device_memory.h"
#include "func/program.h"
#include "runtime/device.h"
#include "runtime/error.h"
#include "runtime/module_state.h"

namespace warpsim::runtime {

const std::string& Kernel::name() const { return function().name; }
const ir::Function& Kernel::function() const { return state_->ir.functions[function_]; }
const func::Program& Kernel::program() const { return *state_->program; }
const ResourceUsage& Kernel::resources() const { return state_->resources(function_); }
const compiler::FunctionAllocation* Kernel::allocation() const {
  return state_->allocated(function_) ? &state_->registerAllocation.functions[function_] : nullptr;
}
std::string Kernel::allocationBudget() const {
  return allocation() ? compiler::toString(state_->registerAllocation.budget) : "off";
}

Module::Module(std::unique_ptr<ModuleState> state) : state_(std::move(state)) {}
Module::Module(Module&&) noexcept = default;
Module& Module::operator=(Module&&) noexcept = default;
Module::~Module() = default;

const std::string& Module::sourceName() const { return state_->ir.sourceName; }
const ir::Module& Module::ir() const { return state_->ir; }
const func::Program& Module::program() const { return *state_->program; }

Kernel Module::kernel(const std::string& name) const {
  int index = state_->ir.findFunction(name);
  if (index >= 0 && state_->ir.functions[static_cast<size_t>(index)].isEntry) {
    return Kernel(state_.get(), static_cast<uint32_t>(index));
  }
  std::vector<std::string> names = kernelNames();
  throw Error(fmt::format("{}: no kernel '{}' (kernels: {})", sourceName(), name,
                          names.empty() ? "none" : fmt::format("{}", fmt::join(names, ", "))));
}

std::vector<std::string> Module::kernelNames() const {
  std::vector<std::string> names;
  for (const ir::Function& f : state_->ir.functions) {
    if (f.isEntry) names.push_back(f.name);
  }
  return names;
}

namespace {

const ir::Symbol& dataSymbol(const ir::Module& m, const std::string& name) {
  int index = m.findSymbol(name);
  if (index < 0) throw Error(fmt::format("{}: no module variable '{}'", m.sourceName, name));
  const ir::Symbol& s = m.symbols[static_cast<size_t>(index)];
  if (s.space != ir::Space::Global && s.space != ir::Space::Const) {
    throw Error(fmt::format("{}: '{}' is a .shared variable; it has no device address",
                            m.sourceName, name));
  }
  return s;
}

}  // namespace

uint64_t Module::symbolAddress(const std::string& name) const {
  const ir::Symbol& s = dataSymbol(state_->ir, name);
  return state_->symbolAddress[static_cast<size_t>(&s - state_->ir.symbols.data())];
}

uint64_t Module::symbolSize(const std::string& name) const {
  return dataSymbol(state_->ir, name).size;
}

const compiler::FunctionAllocation* Module::allocation(uint32_t function) const {
  return state_->allocated(function) ? &state_->registerAllocation.functions[function] : nullptr;
}

uint32_t Module::staticSharedBytes(const Kernel& k) const {
  return state_->program->staticSharedBytes(k.index());
}

ModuleState::~ModuleState() {
  for (uint64_t a : allocations) device->memory().release(a);
}

void ModuleState::placeConstBank(func::DeviceMemory& memory) {
  std::vector<uint64_t> offset(ir.symbols.size(), 0);
  uint64_t bytes = 0, align = 8;
  for (size_t i = 0; i < ir.symbols.size(); ++i) {
    const ir::Symbol& s = ir.symbols[i];
    if (s.space != ir::Space::Const) continue;
    const uint64_t a = std::max<uint64_t>(s.align, 8);
    align = std::max(align, a);
    bytes = (bytes + a - 1) / a * a;
    offset[i] = bytes;
    bytes += std::max<uint64_t>(s.size, 1);
  }
  if (bytes == 0) return;
  const uint64_t base = memory.allocate(bytes, align);
  if (base == 0) {
    throw Error(fmt::format("{}: error: out of device memory for the module's .const variables "
                            "({} bytes)", ir.sourceName, bytes));
  }
  allocations.push_back(base);
  memory.markWritten(base, bytes);  // loading initialises (zeros by default)
  for (size_t i = 0; i < ir.symbols.size(); ++i)
    if (ir.symbols[i].space == ir::Space::Const) symbolAddress[i] = base + offset[i];
}

const PtxasRun& ModuleState::runPtxasOnce() {
  if (!ptxas) {
    ptxas.emplace();
    if (estimateOnly) {
      ptxas->error = "estimate requested";
    } else if (std::optional<std::string> path = findPtxas()) {
      ptxas = runPtxas(*path, text, ir.smTarget);
    } else {
      ptxas->error = "ptxas not found";
    }
  }
  return *ptxas;
}

std::vector<uint32_t> ModuleState::unallocatedRegisters() {
  const PtxasRun& run = runPtxasOnce();
  std::vector<uint32_t> regs(ir.functions.size(), 0);
  for (size_t f = 0; f < ir.functions.size(); ++f) {
    const ir::Function& fn = ir.functions[f];
    if (!fn.isEntry) continue;
    regs[f] = estimateResources(fn, 0, run.error).registers;
    for (const auto& [name, u] : run.kernels)
      if (name == fn.name) regs[f] = u.registers;
  }
  return regs;
}

const ResourceUsage& ModuleState::resources(uint32_t function) {
  if (!resourceCache) {
    const PtxasRun& run = runPtxasOnce();
    std::vector<ResourceUsage> usage(ir.functions.size());
    for (size_t f = 0; f < ir.functions.size(); ++f) {
      const ir::Function& fn = ir.functions[f];
      if (!fn.isEntry) continue;
      usage[f] = estimateResources(fn, program->staticSharedBytes(static_cast<uint32_t>(f)),
                                   run.error);
      if (run.ok) {
        for (const auto& [name, u] : run.kernels) {
          if (name == fn.name) usage[f] = u;
        }
      }
      if (allocated(static_cast<uint32_t>(f))) {
        ResourceUsage& u = usage[f];
        const compiler::FunctionAllocation& a = registerAllocation.functions[f];
        const std::string before =
            u.source == ResourceUsage::Source::Ptxas
                ? fmt::format("; ptxas: {} registers, {} B spill stores", u.registers,
                              u.spillStoreBytes)
                : "";
        u.source = ResourceUsage::Source::Allocator;
        u.registers = registerAllocation.kernelRegisters(ir, static_cast<uint32_t>(f));
        u.localBytes = fn.localBytes;
        u.spillStoreBytes = a.spillStoreBytes;
        u.spillLoadBytes = a.spillLoadBytes;
        u.note = fmt::format("budget {}{}", compiler::toString(registerAllocation.budget), before);
      }
    }
    resourceCache = std::move(usage);
  }
  return (*resourceCache)[function];
}

}  // namespace warpsim::runtime
