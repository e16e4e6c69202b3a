#include "func/functional_gpu.h"

#include <iostream>
#include <memory>
#include <vector>

#include <fmt/format.h>

#include "func/cta.h"
#include "func/grid_context.h"
#include "func/parallel_ctas.h"

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

std::string cooperativeTooLarge(const std::string& kernel, uint64_t ctas, uint64_t resident,
                                const std::string& gpu) {
  return fmt::format("kernel '{}': cooperative launch too large: {} CTAs, but at most {} can be resident at "
                     "once on {}",
                     kernel, ctas, resident, gpu);
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

namespace {

// A cooperative launch: every CTA resident at once, taking turns round by round (each CTA's
// runnable warps one quantum each), so CTAs that spin on each other in grid.sync() see the others
// progress. A CTA whose live warps all wait at its barriers is deadlocked, as in a normal launch;
// CTAs spinning forever on a grid barrier that never completes stop at the instruction limit.
void runCooperative(GridContext& grid, LaunchResult& result) {
  const auto n = static_cast<uint32_t>(grid.config->grid.count());
  std::vector<std::unique_ptr<Cta>> ctas;
  ctas.reserve(n);
  for (uint32_t c = 0; c < n; ++c) ctas.push_back(std::make_unique<Cta>(grid, c));
  std::vector<Cta*> running;  // not yet done, in linear order
  running.reserve(n);
  for (auto& c : ctas) running.push_back(c.get());
  ExecRecord record;
  std::string error;
  while (!running.empty()) {
    size_t kept = 0;
    for (Cta* cta : running) {
      bool ok = cta->runRound(record, &error);
      if (ok && cta->done()) {
        ++result.ctasExecuted;
        continue;
      }
      if (ok && !cta->runnable()) {
        error = cta->deadlockReport();
        ok = false;
      }
      if (!ok) {
        result.ok = false;
        result.error = std::move(error);
        return;
      }
      running[kept++] = cta;
    }
    running.resize(kept);
  }
}

}  // namespace

void runCtasInOrder(GridContext& grid, uint64_t first, LaunchResult& result) {
  const uint64_t ctas = grid.config->grid.count();
  Cta cta(grid, static_cast<uint32_t>(first));  // one CTA's storage serves every CTA in turn
  for (uint64_t c = first; c < ctas; ++c) {
    if (c != first) cta.reset(static_cast<uint32_t>(c));
    std::string error;
    const bool ok = cta.runToCompletion(&error);
    ++result.ctasExecuted;
    if (!ok) {
      result.ok = false;
      result.error = std::move(error);
      return;
    }
  }
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
  if (config.cooperative) {
    runCooperative(grid, result);
    result.warpInstructions = grid.warpInstructions;
    result.threadInstructions = grid.threadInstructions;
    result.deviceAtomOps = grid.deviceAtomOps;
    return result;
  }
  if (canRunCtasInParallel(grid)) runCtasInParallel(grid, result);
  else runCtasInOrder(grid, 0, result);
  result.warpInstructions = grid.warpInstructions;
  result.threadInstructions = grid.threadInstructions;
  result.deviceAtomOps = grid.deviceAtomOps;
  return result;
}

}  // namespace warpsim::func
