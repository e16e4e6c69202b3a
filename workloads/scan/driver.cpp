// scan: multi-block exclusive prefix sum (block scans, a recursive scan of the block totals,
// then the offsets added back).
#include "check.h"
#include "workload.h"

namespace warpsim::workloads {

namespace scan {

constexpr uint32_t kThreads = 256, kPerBlock = 2 * kThreads;

struct ScanKernels {
  runtime::Kernel blocks, addOffsets;
};

// Exclusive scan of `n` values at `in` into `out`.
void scan(WorkloadContext& ctx, const ScanKernels& k, uint64_t in, uint64_t out, int n) {
  runtime::Device& gpu = ctx.device;
  uint32_t blocks = ceilDiv(n, kPerBlock);
  uint64_t sums = gpu.malloc(blocks * sizeof(unsigned));
  launch(ctx, k.blocks, {blocks}, {kThreads}, 0, in, out, sums, n);
  if (blocks > 1) {
    uint64_t offsets = gpu.malloc(blocks * sizeof(unsigned));
    scan(ctx, k, sums, offsets, static_cast<int>(blocks));
    launch(ctx, k.addOffsets, {blocks}, {kThreads}, 0, out, offsets, n);
    gpu.free(offsets);
  }
  gpu.free(sums);
}

Outcome run(WorkloadContext& ctx) {
  const int n = static_cast<int>(ctx.size);
  InputGenerator gen(ctx.seed);
  std::vector<unsigned> data(n);
  for (unsigned& v : data) v = static_cast<unsigned>(gen.next());
  // Verification is exact: sums modulo 2^32 do not depend on the order of the additions.
  std::vector<unsigned> expect(n);
  unsigned running = 0;
  for (int i = 0; i < n; ++i) {
    expect[i] = running;
    running += data[i];
  }

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("scan"), "scan.ptx");
  ScanKernels kernels{mod.kernel("scan_blocks"), mod.kernel("scan_add_offsets")};
  uint64_t dIn = gpu.upload(data), dOut = gpu.malloc(n * sizeof(unsigned));
  scan(ctx, kernels, dIn, dOut, n);

  std::string bad = exactMismatch("prefix", gpu.download<unsigned>(dOut, n), expect);
  if (!bad.empty()) return fail(bad);
  return {true, fmt::format("{} values, exclusive prefix sums exact ({} launches)", n,
                            ctx.reports.size())};
}

}  // namespace scan

Workload scanWorkload() {
  return {"scan",
          "reduction",
          "multi-block exclusive scan: block scans, recursive scan of block sums, add back",
          "elements",
          1u << 18,
          1u << 22,
          1u << 24,
          1u << 27,
          scan::run};
}

}  // namespace warpsim::workloads
