// Simulation speed of the functional engine through the host API, in thread-instructions per
// second (the counter thread_inst_per_s):
//  * ComputeLoop: FMA and integer-hash loop, every lane active, no memory traffic in the loop;
//  * StreamCopy:  grid-stride copy of 16-byte elements over tens of MB (memory-bound);
//  * Suite:       every workload of the suite (workloads/) at its small size, as `warpsim run
//                 --all --size small --mode functional` runs them; thread_inst_per_s counts the
//                 whole pass (input generation, module loading and CPU references included, so
//                 it understates the engine), launch_thread_inst_per_s only the launches' wall
//                 time (the engine alone, but sensitive to other load on the machine);
// each without and with the statistics observer attached (the cost of KernelStats), and the first
// two also without warp interleaving (*_whole_turns: the cost of interleaving).
// Kernels: tests/cuda/bench_kernels.ptx and the workloads' committed PTX.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>

#include "runtime/device.h"
#include "workloads/workload.h"

namespace {

using warpsim::runtime::Device;
using warpsim::runtime::DeviceOptions;

std::string ptxPath() {
  const char* dir = std::getenv("WARPSIM_SOURCE_DIR");
  return std::string(dir != nullptr ? dir : WARPSIM_SOURCE_DIR_DEFAULT) +
         "/tests/cuda/bench_kernels.ptx";
}

// quantum: warp-instructions per turn as the warps of a CTA take turns ([functional].warp_quantum;
// 1 is the default, 0 runs each warp until it waits: the cost of interleaving is the difference).
DeviceOptions benchOptions(bool stats, int quantum = 1) {
  DeviceOptions o;
  o.mode = "functional";
  o.collectStats = stats;
  o.resources = DeviceOptions::Resources::Estimate;  // no ptxas in the timed region
  o.sets.push_back("functional.warp_quantum=" + std::to_string(quantum));
  return o;
}

void reportRate(benchmark::State& state, uint64_t threadInstructions) {
  state.counters["thread_inst_per_s"] =
      benchmark::Counter(static_cast<double>(threadInstructions), benchmark::Counter::kIsRate);
  state.counters["thread_inst_per_launch"] =
      static_cast<double>(threadInstructions) / static_cast<double>(state.iterations());
}

// range(0): CTAs of 256 threads; range(1): loop iterations.
void ComputeLoop(benchmark::State& state, bool stats, int quantum = 1) {
  Device gpu(benchOptions(stats, quantum));
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
void StreamCopy(benchmark::State& state, bool stats, int quantum = 1) {
  Device gpu(benchOptions(stats, quantum));
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

// One pass over the suite per iteration, each workload on a fresh device (as `run --all` does).
void Suite(benchmark::State& state, bool stats) {
  const std::vector<warpsim::workloads::Workload> all = warpsim::workloads::allWorkloads();
  uint64_t threadInstructions = 0;
  double launchSeconds = 0;
  for (auto _ : state) {
    for (const warpsim::workloads::Workload& w : all) {
      Device gpu(benchOptions(stats));
      std::vector<warpsim::runtime::LaunchReport> reports;
      warpsim::workloads::WorkloadContext ctx{gpu, w.smallSize, 1, reports};
      const warpsim::workloads::Outcome outcome = w.run(ctx);
      if (!outcome.passed) {
        state.SkipWithError((w.name + " failed: " + outcome.detail).c_str());
        return;
      }
      for (const warpsim::runtime::LaunchReport& r : reports) {
        threadInstructions += r.threadInstructions();
        launchSeconds += r.wallSeconds;
      }
    }
  }
  reportRate(state, threadInstructions);
  state.counters["launch_thread_inst_per_s"] =
      launchSeconds > 0 ? static_cast<double>(threadInstructions) / launchSeconds : 0.0;
}

BENCHMARK_CAPTURE(ComputeLoop, no_stats, false)->Args({64, 512})->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(ComputeLoop, with_stats, true)->Args({64, 512})->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(StreamCopy, no_stats, false)->Arg(1 << 21)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(StreamCopy, with_stats, true)->Arg(1 << 21)->Unit(benchmark::kMillisecond);
// The same without interleaving (each warp runs until it waits at a barrier or exits).
BENCHMARK_CAPTURE(ComputeLoop, no_stats_whole_turns, false, 0)->Args({64, 512})->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(StreamCopy, no_stats_whole_turns, false, 0)->Arg(1 << 21)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Suite, no_stats, false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Suite, with_stats, true)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
