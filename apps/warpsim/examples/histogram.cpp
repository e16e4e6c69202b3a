// 64-bin byte histogram, privatised in shared memory and directly in global memory.
#include <fmt/format.h>

#include "bundled_ptx.h"
#include "examples/example.h"
#include "examples/input.h"

namespace warpsim::app {

namespace {

ExampleOutcome run(ExampleContext& ctx) {
  runtime::Device& gpu = ctx.device;
  const int n = static_cast<int>(ctx.size);
  InputGenerator gen(ctx.seed);
  // Skewed data: most bytes fall into a few bins, so atomics contend.
  std::vector<uint8_t> data(n);
  for (uint8_t& d : data) d = static_cast<uint8_t>(gen.next() % 4 == 0 ? gen.uniform(0, 255) : gen.uniform(0, 3));
  std::vector<unsigned> expect(64, 0);
  for (uint8_t d : data) ++expect[d % 64];

  runtime::Module mod = gpu.loadModule(bundledPtx("histogram"), "histogram.ptx");
  uint64_t dData = gpu.upload(data);
  uint64_t dShared = gpu.malloc(64 * sizeof(unsigned)), dGlobal = gpu.malloc(64 * sizeof(unsigned));
  gpu.memset(dShared, 0, 64 * sizeof(unsigned));
  gpu.memset(dGlobal, 0, 64 * sizeof(unsigned));
  ctx.reports.push_back(gpu.launch(mod.kernel("histogram_shared"), {64}, {256}, 0, dData, n, dShared));
  uint32_t blocks = static_cast<uint32_t>((n + 255) / 256);
  ctx.reports.push_back(gpu.launch(mod.kernel("histogram_global"), {blocks}, {256}, 0, dData, n, dGlobal));

  std::vector<unsigned> viaShared = gpu.download<unsigned>(dShared, 64);
  std::vector<unsigned> viaGlobal = gpu.download<unsigned>(dGlobal, 64);
  for (int b = 0; b < 64; ++b) {
    if (viaShared[b] != expect[b]) {
      return {false, fmt::format("histogram_shared: bin {} = {} expected {}", b, viaShared[b], expect[b])};
    }
    if (viaGlobal[b] != expect[b]) {
      return {false, fmt::format("histogram_global: bin {} = {} expected {}", b, viaGlobal[b], expect[b])};
    }
  }
  return {true, fmt::format("{} bytes, 64 bins, both kernels exact", n)};
}

}  // namespace

void registerHistogram(ExampleRegistry& r) {
  r.add({"histogram", "64-bin histogram with shared and global atomics (histogram.ptx)", 1u << 18,
         1u << 28, "bytes", run});
}

}  // namespace warpsim::app
