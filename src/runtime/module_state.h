// Internal: what a Module owns. Shared by module.cpp and device.cpp only.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "func/program.h"
#include "ir/module.h"
#include "runtime/module.h"
#include "runtime/resource_usage.h"

namespace warpsim::runtime {

struct ModuleState {
  Device* device = nullptr;
  std::string text;                      // the PTX, kept for ptxas
  ir::Module ir;
  std::unique_ptr<func::Program> program;
  std::vector<uint64_t> symbolAddress;   // per ir::Module::symbols (0 for .shared)
  std::vector<uint64_t> allocations;     // released when the module is destroyed
  bool estimateOnly = false;
  std::optional<std::vector<ResourceUsage>> resourceCache;  // per function, on first use

  ~ModuleState();

  // Resource usage of every function, computed on the first call (ptxas or estimate).
  const ResourceUsage& resources(uint32_t function);
};

}  // namespace warpsim::runtime
