#include "func/functional_gpu.h"

#include <iostream>

#include <fmt/format.h>

#include "func/cta.h"
#include "func/grid_context.h"

namespace warpsim::func {

std::string validateLaunch(const Program& program, uint32_t function, const LaunchConfig& config,
                           const RunOptions& options) {
  const ir::Module& m = program.module();
  if (function >= m.functions.size()) return fmt::format("no function #{} in module {}", function, m.sourceName);
  const ir::Function& f = m.functions[function];
  if (!f.isEntry) return fmt::format("'{}' is not a kernel (.entry)", f.name);
  const std::string k = fmt::format("kernel '{}'", f.name);
  const Dim3& b = config.block;
  const Dim3& g = config.grid;
  const uint32_t bd[3] = {b.x, b.y, b.z}, gd[3] = {g.x, g.y, g.z};
  const char* axis = "xyz";
  for (int i = 0; i < 3; ++i) {
    if (bd[i] == 0 || gd[i] == 0)
      return fmt::format("{}: launch with a zero dimension (grid ({},{},{}), block ({},{},{}))", k, g.x, g.y, g.z,
                         b.x, b.y, b.z);
    if (bd[i] > kMaxBlockDim[i])
      return fmt::format("{}: block dimension {} = {} exceeds the limit of {}", k, axis[i], bd[i], kMaxBlockDim[i]);
    if (gd[i] > kMaxGridDim[i])
      return fmt::format("{}: grid dimension {} = {} exceeds the limit of {}", k, axis[i], gd[i], kMaxGridDim[i]);
  }
  if (b.count() > kMaxThreadsPerCta)
    return fmt::format("{}: block of {} threads exceeds the limit of {}", k, b.count(), kMaxThreadsPerCta);
  if (f.reqntid[0] != 0) {
    const uint32_t r[3] = {f.reqntid[0], std::max(f.reqntid[1], 1u), std::max(f.reqntid[2], 1u)};
    if (b.x != r[0] || b.y != r[1] || b.z != r[2])
      return fmt::format("{}: block ({},{},{}) differs from the required .reqntid {},{},{}", k, b.x, b.y, b.z, r[0],
                         r[1], r[2]);
  }
  if (f.maxntid[0] != 0) {
    const uint64_t mx = uint64_t{f.maxntid[0]} * std::max(f.maxntid[1], 1u) * std::max(f.maxntid[2], 1u);
    if (b.count() > mx) return fmt::format("{}: block of {} threads exceeds .maxntid ({} threads)", k, b.count(), mx);
  }
  const uint64_t shared = uint64_t{program.dynamicSharedBase(function)} + config.dynamicSharedBytes;
  const uint64_t total = config.dynamicSharedBytes == 0 ? program.staticSharedBytes(function) : shared;
  if (total > options.maxSharedBytesPerCta)
    return fmt::format("{}: {} bytes of static and {} bytes of dynamic shared memory exceed the per-CTA limit of {}",
                       k, program.staticSharedBytes(function), config.dynamicSharedBytes,
                       options.maxSharedBytesPerCta);
  if (config.params.size() != f.kernelParamBytes)
    return fmt::format("{}: argument buffer of {} bytes, expected {}", k, config.params.size(), f.kernelParamBytes);
  if (options.numSms == 0) return fmt::format("{}: RunOptions::numSms is 0", k);
  if (g.count() > UINT32_MAX) return fmt::format("{}: grid of {} CTAs exceeds the simulator's limit of 2^32 - 1", k, g.count());
  return {};
}

GridContext prepareGrid(const Program& program, uint32_t function, const LaunchConfig& config,
                        DeviceMemory& memory, const RunOptions& options) {
  const ir::Function& f = program.module().functions[function];
  GridContext grid;
  grid.program = &program;
  grid.kernel = function;
  grid.layout = &program.sharedLayout(function);
  grid.config = &config;
  grid.memory = &memory;
  grid.options = &options;
  grid.printfOut = options.printfOut ? options.printfOut : &std::cout;
  grid.threadsPerCta = static_cast<uint32_t>(config.block.count());
  grid.sharedBytes = config.dynamicSharedBytes == 0
                         ? program.staticSharedBytes(function)
                         : program.dynamicSharedBase(function) + config.dynamicSharedBytes;
  grid.localBytesPerThread = f.localBytes + options.localStackBytes;
  return grid;
}

LaunchResult runKernel(const Program& program, uint32_t function, const LaunchConfig& config,
                       DeviceMemory& memory, const RunOptions& options) {
  LaunchResult result;
  result.error = validateLaunch(program, function, config, options);
  if (!result.error.empty()) {
    result.ok = false;
    return result;
  }
  GridContext grid = prepareGrid(program, function, config, memory, options);
  const uint64_t ctas = config.grid.count();
  Cta cta(grid, 0);  // one CTA's storage serves every CTA in turn
  for (uint64_t c = 0; c < ctas; ++c) {
    if (c != 0) cta.reset(static_cast<uint32_t>(c));
    std::string error;
    const bool ok = cta.runToCompletion(&error);
    ++result.ctasExecuted;
    if (!ok) {
      result.ok = false;
      result.error = std::move(error);
      break;
    }
  }
  result.warpInstructions = grid.warpInstructions;
  result.threadInstructions = grid.threadInstructions;
  return result;
}

}  // namespace warpsim::func
