// sgemm-naive: C = alpha * A * B + beta * C, one thread per element, operands from global
// memory only.
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
  const float alpha = 1.5f, beta = 0.25f;

  // Verification is exact: entries are multiples of 2^-4 with |x| <= 1, so every partial dot
  // product is a multiple of 2^-8 below n <= 2^13 and alpha * sum + beta * c a multiple of
  // 2^-9 below 2^14 (at most 23 significant bits): no operation rounds, whatever the order of
  // the sum or the fma contraction.
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
  runtime::Module mod = gpu.loadModule(workloadPtx("sgemm-naive"), "sgemm-naive.ptx");
  uint64_t dA = gpu.upload(a), dB = gpu.upload(b), dC = gpu.upload(c);
  launch(ctx, mod.kernel("sgemm_naive"), {ceilDiv(n, 16), ceilDiv(n, 16)}, {16, 16}, 0, n, alpha,
         dA, dB, beta, dC);

  std::string bad = exactMismatch("C", gpu.download<float>(dC, elems), expect);
  if (!bad.empty()) return fail(bad);
  return {true, fmt::format("{0} x {0} matrices, exact", n)};
}

}  // namespace

Workload sgemmNaiveWorkload() {
  return {"sgemm-naive", "dense", "single-precision GEMM, one thread per element, no data reuse",
          "matrix edge", 128,     256,
          512,           4096,    run};
}

}  // namespace warpsim::workloads
