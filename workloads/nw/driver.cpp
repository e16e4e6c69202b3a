// nw: Needleman-Wunsch alignment scores, one kernel per anti-diagonal of 32 x 32 tiles.
#include "check.h"
#include "workload.h"

namespace warpsim::workloads {

namespace {

constexpr int kTile = 32, kSymbols = 24, kGap = 4;

Outcome run(WorkloadContext& ctx) {
  const int n = static_cast<int>(ctx.size);
  if (n % kTile != 0) {
    throw runtime::Error(
        fmt::format("nw: the sequence length must be a multiple of {}, not {}", kTile, n));
  }
  const int stride = n + 1;
  InputGenerator gen(ctx.seed);
  std::vector<int> a(n), b(n), substitution(kSymbols * kSymbols);
  for (int& s : a) s = static_cast<int>(gen.uniform(0, kSymbols - 1));
  // The second sequence is a mutated copy of the first, so the best alignment is not trivial.
  for (int i = 0; i < n; ++i)
    b[i] = gen.next() % 4 == 0 ? static_cast<int>(gen.uniform(0, kSymbols - 1)) : a[i];
  for (int x = 0; x < kSymbols; ++x) {
    for (int y = 0; y <= x; ++y) {
      int v = x == y ? static_cast<int>(gen.uniform(4, 11)) : static_cast<int>(gen.uniform(-4, 2));
      substitution[x * kSymbols + y] = substitution[y * kSymbols + x] = v;
    }
  }
  std::vector<int> score(static_cast<size_t>(stride) * stride, 0);
  for (int i = 0; i <= n; ++i) {
    score[static_cast<size_t>(i) * stride] = -kGap * i;
    score[i] = -kGap * i;
  }
  // Verification is exact: integer scores.
  std::vector<int> expect = score;
  for (int i = 1; i <= n; ++i) {
    for (int j = 1; j <= n; ++j) {
      size_t at = static_cast<size_t>(i) * stride + j;
      int match = expect[at - stride - 1] + substitution[a[i - 1] * kSymbols + b[j - 1]];
      expect[at] = std::max(match, std::max(expect[at - stride], expect[at - 1]) - kGap);
    }
  }

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("nw"), "nw.ptx");
  gpu.memcpyHtoD(mod.symbolAddress("c_substitution"), substitution.data(),
                 substitution.size() * sizeof(int));
  runtime::Kernel diagonalKernel = mod.kernel("nw_tile_diagonal");
  uint64_t dScore = gpu.upload(score), dA = gpu.upload(a), dB = gpu.upload(b);
  const int tiles = n / kTile;
  for (int d = 0; d < 2 * tiles - 1; ++d) {
    int first = std::max(0, d - tiles + 1), last = std::min(d, tiles - 1);
    launch(ctx, diagonalKernel, {static_cast<uint32_t>(last - first + 1)}, {kTile}, 0, dScore, dA,
           dB, n, d, first, kGap);
  }

  std::string bad = exactMismatch("score", gpu.download<int>(dScore, score.size()), expect);
  if (!bad.empty()) return fail(bad);
  return {true, fmt::format("two sequences of {} symbols, {} tile diagonals, score {} exact", n,
                            2 * tiles - 1, expect.back())};
}

}  // namespace

Workload nwWorkload() {
  return {"nw",
          "dp",
          "Needleman-Wunsch scores, wavefront of 32x32 tiles, table in constant memory",
          "sequence length (multiple of 32)",
          512,
          2048,
          4096,
          1u << 14,
          run};
}

}  // namespace warpsim::workloads
