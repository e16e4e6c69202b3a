// sgemm-tiled: C = alpha * A * B + beta * C with 16 x 16 shared-memory tiles.
#include "check.h"
#include "workload.h"

namespace warpsim::workloads {

namespace {

Outcome run(WorkloadContext& ctx) {
  const int n = static_cast<int>(ctx.size);
  const size_t elems = static_cast<size_t>(n) * n;
  InputGenerator gen(ctx.seed);
  std::vector<float> a(elems), b(elems), c(elems);
  for (float& v : a) v = gen.dyadic(-16, 16, 4);
  for (float& v : b) v = gen.dyadic(-16, 16, 4);
  for (float& v : c) v = gen.dyadic(-16, 16, 4);
  const float alpha = 0.5f, beta = -2.0f;

  // Verification is exact: entries are multiples of 2^-4 with |x| <= 1, so every partial dot
  // product is a multiple of 2^-8 below n <= 2^13 (at most 21 significant bits) and the final
  // alpha * sum + beta * c a multiple of 2^-9 below 2^13: no operation rounds, whatever the
  // summation order or fma contraction.
  std::vector<float> expect(elems);
  std::vector<float> row(n);
  for (int i = 0; i < n; ++i) {
    std::fill(row.begin(), row.end(), 0.0f);
    for (int k = 0; k < n; ++k) {
      for (int j = 0; j < n; ++j) row[j] += a[i * n + k] * b[k * n + j];
    }
    for (int j = 0; j < n; ++j) expect[i * n + j] = alpha * row[j] + beta * c[i * n + j];
  }

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("sgemm-tiled"), "sgemm-tiled.ptx");
  uint64_t dA = gpu.upload(a), dB = gpu.upload(b), dC = gpu.upload(c);
  uint32_t tiles = ceilDiv(n, 16);
  launch(ctx, mod.kernel("sgemm_tiled"), {tiles, tiles}, {16, 16}, 0, n, alpha, dA, dB, beta, dC);

  std::string bad = exactMismatch("C", gpu.download<float>(dC, elems), expect);
  if (!bad.empty()) return fail(bad);
  return {true, fmt::format("{0} x {0} matrices, exact", n)};
}

}  // namespace

Workload sgemmTiledWorkload() {
  return {"sgemm-tiled", "dense", "single-precision GEMM with 16x16 shared-memory tiles",
          "matrix edge", 128,     256,
          512,           4096,    run};
}

}  // namespace warpsim::workloads
