// histogram: 256-bin byte histogram with per-block shared-memory histograms (shared atomics),
// merged by a second kernel.
#include "check.h"
#include "workload.h"

namespace warpsim::workloads {

namespace {

constexpr int kBins = 256;
constexpr uint32_t kThreads = 256;

Outcome run(WorkloadContext& ctx) {
  const int words = static_cast<int>(ctx.size);
  InputGenerator gen(ctx.seed);
  // Skewed bytes, like image data: half fall into 16 bins, so atomics on those bins collide.
  std::vector<unsigned> data(words);
  std::vector<unsigned> expect(kBins, 0);
  for (unsigned& w : data) {
    w = 0;
    for (int b = 0; b < 4; ++b) {
      unsigned byte =
          static_cast<unsigned>(gen.next() % 2 == 0 ? gen.uniform(96, 111) : gen.uniform(0, 255));
      ++expect[byte];
      w |= byte << (8 * b);
    }
  }
  // Verification is exact: integer counts.

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("histogram"), "histogram.ptx");
  // At least eight words per thread, at most 64 private histograms.
  uint32_t blocks = std::min(64u, std::max(1u, ceilDiv(words, kThreads * 8)));
  uint64_t dData = gpu.upload(data);
  uint64_t dPartial = gpu.malloc(blocks * kBins * sizeof(unsigned));
  uint64_t dHist = gpu.malloc(kBins * sizeof(unsigned));
  launch(ctx, mod.kernel("histogram_blocks"), {blocks}, {kThreads}, 0, dData, words, dPartial);
  launch(ctx, mod.kernel("histogram_merge"), {1}, {kBins}, 0, dPartial, static_cast<int>(blocks),
         dHist);

  std::string bad = exactMismatch("bin", gpu.download<unsigned>(dHist, kBins), expect);
  if (!bad.empty()) return fail(bad);
  return {true, fmt::format("{} bytes, {} private histograms, exact", 4ull * words, blocks)};
}

}  // namespace

Workload histogramWorkload() {
  return {"histogram",
          "reduction",
          "256-bin byte histogram: shared-memory atomics per block, then a merge kernel",
          "4-byte words",
          1u << 18,
          1u << 21,
          1u << 23,
          1u << 28,
          run};
}

}  // namespace warpsim::workloads
