// Simulation speed of the functional engine through the host API, in thread-instructions per
// second (the counter thread_inst_per_s):
//  * ComputeLoop: FMA and integer-hash loop, every lane active, no memory traffic in the loop;
//  * StreamCopy:  grid-stride copy of 16-byte elements over tens of MB (memory-bound);
// each without and with the statistics observer attached (the cost of KernelStats).
// Kernels: tests/cuda/bench_kernels.ptx.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>

#include "runtime/device.h"

namespace {

using warpsim::runtime::Device;
using warpsim::runtime::DeviceOptions;

std::string ptxPath() {
  const char* dir = std::getenv("WARPSIM_SOURCE_DIR");
  return std::string(dir != nullptr ? dir : WARPSIM_SOURCE_DIR_DEFAULT) +
         "/tests/cuda/bench_kernels.ptx";
}

DeviceOptions benchOptions(bool stats) {
  DeviceOptions o;
  o.mode = "functional";
  o.collectStats = stats;
  o.resources = DeviceOptions::Resources::Estimate;  // no ptxas in the timed region
  return o;
}

void reportRate(benchmark::State& state, uint64_t threadInstructions) {
  state.counters["thread_inst_per_s"] =
      benchmark::Counter(static_cast<double>(threadInstructions), benchmark::Counter::kIsRate);
  state.counters["thread_inst_per_launch"] =
      static_cast<double>(threadInstructions) / static_cast<double>(state.iterations());
}

// range(0): CTAs of 256 threads; range(1): loop iterations.
void ComputeLoop(benchmark::State& state, bool stats) {
  Device gpu(benchOptions(stats));
  warpsim::runtime::Module module = gpu.loadModuleFile(ptxPath());
  warpsim::runtime::Kernel kernel = module.kernel("compute_loop");
  uint32_t blocks = static_cast<uint32_t>(state.range(0));
  int iterations = static_cast<int>(state.range(1));
  uint64_t out = gpu.malloc(uint64_t{blocks} * 256 * sizeof(float));
  uint64_t total = 0;
  for (auto _ : state) {
    total += gpu.launch(kernel, {blocks}, {256}, 0, out, iterations).threadInstructions();
  }
  reportRate(state, total);
}

// range(0): elements of 16 bytes copied.
void StreamCopy(benchmark::State& state, bool stats) {
  Device gpu(benchOptions(stats));
  warpsim::runtime::Module module = gpu.loadModuleFile(ptxPath());
  warpsim::runtime::Kernel kernel = module.kernel("stream_copy");
  int n = static_cast<int>(state.range(0));
  uint64_t in = gpu.malloc(uint64_t(n) * 16), out = gpu.malloc(uint64_t(n) * 16);
  gpu.memset(in, 0x3c, uint64_t(n) * 16);
  uint64_t total = 0;
  for (auto _ : state) {
    total += gpu.launch(kernel, {1024}, {256}, 0, in, out, n).threadInstructions();
  }
  reportRate(state, total);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * n * 32);
}

BENCHMARK_CAPTURE(ComputeLoop, no_stats, false)->Args({64, 512})->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(ComputeLoop, with_stats, true)->Args({64, 512})->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(StreamCopy, no_stats, false)->Arg(1 << 21)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(StreamCopy, with_stats, true)->Arg(1 << 21)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
