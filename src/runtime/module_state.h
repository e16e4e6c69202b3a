// Internal: what a Module owns. Shared by module.cpp and device.cpp only.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compiler/register_allocation.h"
#include "func/program.h"
#include "ir/module.h"
#include "runtime/module.h"
#include "runtime/resource_usage.h"

namespace warpsim::func {
class DeviceMemory;
}

namespace warpsim::runtime {

struct ModuleState {
  Device* device = nullptr;
  std::string text;                      // the PTX, kept for ptxas
  ir::Module ir;                         // as parsed, or as register-allocated
  std::unique_ptr<func::Program> program;
  std::vector<uint64_t> symbolAddress;   // per ir::Module::symbols (0 for .shared)
  std::vector<uint64_t> allocations;     // released when the module is destroyed
  bool estimateOnly = false;
  // Register allocation (empty `functions` when the module runs on virtual registers).
  compiler::ModuleAllocation registerAllocation;
  // ptxas run on the PTX text, once, on first use (nullopt before; !ok when it failed or is
  // absent: then `error` says why).
  std::optional<PtxasRun> ptxas;
  std::optional<std::vector<ResourceUsage>> resourceCache;  // per function, on first use

  ~ModuleState();

  // Gives the module's .const variables device memory in one block, each at its alignment, as a
  // GPU keeps a module's constants in one bank: the block holds nothing else, so a generic
  // address is const data exactly when it falls in it (func::Program::constWindow,
  // isspacep.const). Fills symbolAddress (sized already) and allocations; throws Error when
  // device memory is exhausted.
  void placeConstBank(func::DeviceMemory& memory);

  // Registers of each entry as ptxas reports them for the PTX as written (or the estimate
  // without ptxas), before any allocation; 0 for non-entries. Runs ptxas on first use.
  std::vector<uint32_t> unallocatedRegisters();
  // Resource usage of every function, computed on the first call (ptxas or estimate; the
  // allocator's figures for allocated kernels).
  const ResourceUsage& resources(uint32_t function);
  bool allocated(uint32_t function) const {
    return function < registerAllocation.functions.size() &&
           registerAllocation.functions[function].allocated;
  }

 private:
  const PtxasRun& runPtxasOnce();
};

}  // namespace warpsim::runtime
