// Kernel launches: checked, then run now (the legacy stream, cooperative launches, functional
// mode) or added to the concurrent batch, which runBatch() runs on the timing model.
#include <algorithm>
#include <cstdio>
#include <cstring>

#include <fmt/format.h>

#include "cudart/context.h"
#include "func/functional_gpu.h"

namespace warpsim::cudart {

cudaError_t Context::launch(KernelRecord& k, dim3 grid, dim3 block, void** args, size_t shared,
                            bool cooperative, StreamRecord* stream) {
  const ir::Function& fn = k.kernel->function();
  const char* call = cooperative ? "cudaLaunchCooperativeKernel" : "cudaLaunchKernel";
  func::LaunchConfig config;
  config.cooperative = cooperative;
  config.grid = {grid.x, grid.y, grid.z};
  config.block = {block.x, block.y, block.z};
  config.dynamicSharedBytes = static_cast<uint32_t>(shared);
  config.preferredCarveoutPercent = k.preferredCarveout;
  config.params.assign(fn.kernelParamBytes, 0);
  for (size_t i = 0; i < fn.params.size(); ++i) {
    const ir::Param& p = fn.params[i];
    if (args == nullptr || args[i] == nullptr) {
      return fail(call, cudaErrorInvalidValue,
                  fmt::format("kernel '{}': argument {} is missing", k.name, i));
    }
    std::memcpy(config.params.data() + p.offset, args[i], p.size);
  }
  const runtime::GpuProperties& gpu = device_->properties();
  if (uint64_t threads = uint64_t{block.x} * block.y * block.z; threads > gpu.maxThreadsPerBlock) {
    return fail(call, cudaErrorInvalidConfiguration,
                fmt::format("kernel '{}': block of {} threads exceeds the device's limit of {}",
                            k.name, threads, gpu.maxThreadsPerBlock));
  }
  func::RunOptions run;
  run.numSms = gpu.numSms;
  run.maxSharedBytesPerCta = std::min(run.maxSharedBytesPerCta, gpu.sharedBytesPerBlock);
  if (std::string why = func::validateLaunch(k.kernel->program(), k.kernel->index(), config, run);
      !why.empty()) {
    return fail(call, cudaErrorInvalidConfiguration, why);
  }
  if (cooperative) {
    if (std::string why = device_->cooperativeLimit(*k.kernel, config); !why.empty()) {
      return fail(call, cudaErrorCooperativeLaunchTooLarge, why);
    }
  }
  // The descriptors given for this kernel or for the next launch go with it (warpsim/locality.h).
  config.hints = device_->takeLaunchHints(k.kernel->name());
  if (stream != nullptr && !stream->legacy && !cooperative && device_->gpu() != nullptr) {
    batch_.add(*k.kernel, std::move(config), *stream);
    return cudaSuccess;
  }
  if (cudaError_t e = runBatch(); e != cudaSuccess) return e;
  pushManaged();
  runtime::LaunchReport report = device_->run(*k.kernel, config);
  std::fflush(stdout);
  pullManaged();
  clockNs_ += launchNs(report);
  return afterLaunch(std::move(report));
}

cudaError_t Context::runBatch() {
  if (batch_.empty()) return cudaSuccess;
  const std::vector<runtime::Device::ConcurrentLaunch> launches = batch_.take();
  pushManaged();
  std::vector<runtime::LaunchReport> reports = device_->runConcurrent(launches);
  std::fflush(stdout);
  pullManaged();
  // Each launch's end, in ns from the batch's start; the batch lasts until the last one ends.
  std::vector<uint64_t> endNs(reports.size());
  uint64_t span = 0;
  for (size_t i = 0; i < reports.size(); ++i) {
    endNs[i] = static_cast<uint64_t>((reports[i].startSeconds + reports[i].simulatedSeconds) * 1e9 + 0.5);
    span = std::max(span, endNs[i]);
  }
  const uint64_t start = clockNs_;
  for (const auto& e : events_) {
    if (e->batchAfter.empty()) continue;
    uint64_t end = 0;
    for (uint32_t i : e->batchAfter) end = std::max(end, endNs[i]);
    e->timeNs = start + end;
    e->batchAfter.clear();
  }
  clockNs_ = start + span;
  cudaError_t first = cudaSuccess;
  for (runtime::LaunchReport& r : reports) {
    const cudaError_t e = afterLaunch(std::move(r));
    if (first == cudaSuccess) first = e;
  }
  return first;
}

}  // namespace warpsim::cudart
