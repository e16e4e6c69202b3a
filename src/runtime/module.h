// A loaded PTX module: its IR, the linked program, the device addresses of its module-scope
// variables and the resource usage of its kernels. Created by Device::loadModule*; releases
// its variables' device memory when destroyed.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compiler/register_allocation.h"
#include "ir/module.h"
#include "runtime/resource_usage.h"

namespace warpsim::func {
class Program;
}

namespace warpsim::runtime {

class Device;
struct ModuleState;  // module_state.h

// A kernel of a loaded module: a cheap handle, valid while its Module lives (moving the Module
// keeps it valid).
class Kernel {
 public:
  const std::string& name() const;
  uint32_t index() const { return function_; }  // ir::Module::functions index
  const ir::Function& function() const;
  const func::Program& program() const;
  // Registers, shared and local memory (see Module::resources).
  const ResourceUsage& resources() const;
  // What the register allocator did to this kernel, or nullptr when its module runs on
  // virtual registers (compiler.registers = off and the kernel fits the GPU's limit).
  const compiler::FunctionAllocation* allocation() const;
  // The budget it was allocated with ("minimal", "32"; "off" when not allocated).
  std::string allocationBudget() const;

 private:
  friend class Module;
  Kernel(ModuleState* state, uint32_t function) : state_(state), function_(function) {}
  ModuleState* state_;
  uint32_t function_;
};

class Module {
 public:
  Module(Module&&) noexcept;
  Module& operator=(Module&&) noexcept;
  ~Module();

  const std::string& sourceName() const;
  const ir::Module& ir() const;
  const func::Program& program() const;

  // The kernel (.entry) called `name`; throws Error listing the module's kernels when absent.
  Kernel kernel(const std::string& name) const;
  std::vector<std::string> kernelNames() const;

  // Device address and size in bytes of a module-scope .global or .const variable (the
  // cudaMemcpyToSymbol / cudaGetSymbolAddress of this API); throws Error when absent.
  uint64_t symbolAddress(const std::string& name) const;
  uint64_t symbolSize(const std::string& name) const;

  // What the register allocator did to function `function` (ir::Module::functions index), or
  // nullptr when it runs on virtual registers.
  const compiler::FunctionAllocation* allocation(uint32_t function) const;

  // Static shared bytes the kernel uses (module- and function-scope .shared variables).
  uint32_t staticSharedBytes(const Kernel& k) const;
  // Registers, shared and local memory of a kernel (see resource_usage.h); ptxas runs once per
  // module, on the first call, unless the Device was told to estimate.
  const ResourceUsage& resources(const Kernel& k) const { return k.resources(); }

 private:
  friend class Device;
  explicit Module(std::unique_ptr<ModuleState> state);
  std::unique_ptr<ModuleState> state_;
};

}  // namespace warpsim::runtime
