// State shared by every CTA of one kernel launch: what runs, with which configuration, on which
// memory, and the launch-wide counters.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <string>

#include "func/device_memory.h"
#include "func/launch.h"
#include "func/program.h"

namespace warpsim::func {

class SpeculativeMemory;

struct GridContext {
  const Program* program = nullptr;
  uint32_t kernel = 0;                 // Module::functions index of the entry
  const SharedLayout* layout = nullptr;
  const LaunchConfig* config = nullptr;
  DeviceMemory* memory = nullptr;
  const RunOptions* options = nullptr;
  std::ostream* printfOut = nullptr;
  uint32_t threadsPerCta = 0;
  uint32_t sharedBytes = 0;            // per CTA: static + dynamic
  uint32_t localBytesPerThread = 0;    // kernel depot + call stack
  // Timing mode: the current core cycle, read by %clock/%clock64 (nullptr: functional mode,
  // where they count the warp's instructions).
  const uint64_t* coreCycle = nullptr;
  // Parallel functional mode: the CTA runs ahead of the ones before it, its global accesses go
  // through this view (func/speculative_memory.h) instead of `memory` (nullptr: directly).
  SpeculativeMemory* speculation = nullptr;
  uint64_t warpInstructions = 0;       // launch-wide counters
  uint64_t threadInstructions = 0;
  uint64_t deviceAtomOps = 0;          // atom operations of atom_hint instructions (one per lane)

  const ir::Module& module() const { return program->module(); }
  const std::string& kernelName() const { return module().functions[kernel].name; }
};

}  // namespace warpsim::func
