// histogram: 256-bin byte histogram with per-block shared-memory histograms (shared atomics),
// merged by a second kernel. XMem atoms written by hand describe every device structure
// (xmem_atoms.h).
#include <algorithm>

#include "check.h"
#include "locality_hints.h"
#include "workload.h"
#include "xmem_atoms.h"

namespace warpsim::workloads {

namespace histogram {

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

  // Locality descriptors (the thesis's Table 4 gives histogram INTER_THREAD (COACCESSED,
  // REGULAR), for Parboil's histo, whose bin mappings the CTAs of a grid column share; this
  // histogram keeps its bins in shared memory, so its global structures are these):
  // - the words, in histogram_blocks: read once, the CTAs interleaved by the grid-stride loop
  //   (tiles must be contiguous, so one tile for the whole grid): NO_REUSE.
  // - the partial table, written once by histogram_blocks (a row per CTA: NO_REUSE) and read
  //   whole by histogram_merge's one CTA, its threads walking down the rows together (a warp
  //   reads 32 neighbouring bins of a row per step, stride kBins): INTER_THREAD (COACCESSED,
  //   REGULAR), one tile.
  const Structure partial{dPartial, {uint32_t(kBins), blocks, 1}, 4};
  setLocalityDescriptors(ctx, "histogram_blocks",
                         {noReuse({dData, {uint32_t(words), 1, 1}, 4},
                                  {{uint32_t(words), 1, 1}, {blocks, 1, 1}, {0, 0, 0}}),
                          noReuse(partial, {{uint32_t(kBins), 1, 1}, {1, 1, 1}, {1, 0, 0}})});
  setLocalityDescriptors(ctx, "histogram_merge",
                         {interThread(partial, {{uint32_t(kBins), blocks, 1}, {1, 1, 1}, {0, 0, 0}},
                                      WARPSIM_COACCESSED, WARPSIM_REGULAR, kBins)});
  // XMem atoms (xmem_atoms.h), one per structure, before the first launch. Bytes moved: the
  // words 4 per word (2^23 at the default size), the partial table 2 KB per CTA (written, read;
  // at most 128 KB), the histogram 1 KB.
  // words: streamed once by the grid-stride loop (a word per lane, 4 byte values each); the hottest.
  describeStructure(gpu, "histogram:words", dData, uint64_t{4} * words, WARPSIM_ATOM_CHAR8, regularAccess(4, 255), 0,
                    WARPSIM_ATOM_READ_ONLY);
  // partial: a row of 256 bins per CTA, written once, read once by the merge (a warp 32 bins of a row).
  const uint8_t partialIntensity = static_cast<uint8_t>(
      std::clamp<uint64_t>(255 * uint64_t{2} * blocks * kBins / static_cast<uint64_t>(words), 1, 255));
  describeStructure(gpu, "histogram:partial", dPartial, uint64_t{blocks} * kBins * sizeof(unsigned),
                    WARPSIM_ATOM_INT32, regularAccess(4, partialIntensity), 1, WARPSIM_ATOM_READ_WRITE);
  // histogram: 256 counts written once, read by the host.
  describeStructure(gpu, "histogram:bins", dHist, kBins * sizeof(unsigned), WARPSIM_ATOM_INT32, regularAccess(4, 0),
                    0, WARPSIM_ATOM_WRITE_ONLY);
  launch(ctx, mod.kernel("histogram_blocks"), {blocks}, {kThreads}, 0, dData, words, dPartial);
  launch(ctx, mod.kernel("histogram_merge"), {1}, {kBins}, 0, dPartial, static_cast<int>(blocks),
         dHist);

  std::string bad = exactMismatch("bin", gpu.download<unsigned>(dHist, kBins), expect);
  if (!bad.empty()) return fail(bad);
  return {true, fmt::format("{} bytes, {} private histograms, exact", 4ull * words, blocks)};
}

}  // namespace histogram

Workload histogramWorkload() {
  return {"histogram",
          "reduction",
          "256-bin byte histogram: shared-memory atomics per block, then a merge kernel",
          "4-byte words",
          1u << 18,
          1u << 21,
          1u << 23,
          1u << 28,
          histogram::run};
}

}  // namespace warpsim::workloads
