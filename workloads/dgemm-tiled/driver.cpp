// dgemm-tiled: C = alpha * A * B + beta * C in double precision with 16 x 16 shared-memory
// tiles, two outputs per thread.
#include <cmath>

#include "check.h"
#include "workload.h"

namespace warpsim::workloads {

namespace {

Outcome run(WorkloadContext& ctx) {
  const int n = static_cast<int>(ctx.size);
  const size_t elems = static_cast<size_t>(n) * n;
  InputGenerator gen(ctx.seed);
  std::vector<double> a(elems), b(elems), c(elems);
  for (double& v : a) v = uniformReal(gen, -1.0, 1.0);
  for (double& v : b) v = uniformReal(gen, -1.0, 1.0);
  for (double& v : c) v = uniformReal(gen, -1.0, 1.0);
  const double alpha = 1.25, beta = -0.75;

  // Tolerance: any summation order of n products has error at most about n * u * sum|a*b|
  // (u = 2^-53); the final scaling adds two roundings. The reference is summed in long double,
  // whose own error is negligible next to that, and the bound is doubled for slack:
  //   |got - ref| <= 2 (n + 2) u (|alpha| sum_k |a_ik b_kj| + |beta c_ij|).
  std::vector<double> expect(elems), bound(elems);
  std::vector<long double> sum(n), mag(n);
  for (int i = 0; i < n; ++i) {
    std::fill(sum.begin(), sum.end(), 0.0L);
    std::fill(mag.begin(), mag.end(), 0.0L);
    for (int k = 0; k < n; ++k) {
      long double aik = a[i * n + k];
      for (int j = 0; j < n; ++j) {
        long double p = aik * b[k * n + j];
        sum[j] += p;
        mag[j] += std::fabs(p);
      }
    }
    for (int j = 0; j < n; ++j) {
      double cij = c[i * n + j];
      expect[i * n + j] = static_cast<double>(alpha * sum[j] + beta * cij);
      bound[i * n + j] = 2.0 * (n + 2) * kDoubleUnit *
                         static_cast<double>(std::fabs(alpha) * mag[j] + std::fabs(beta * cij));
    }
  }

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("dgemm-tiled"), "dgemm-tiled.ptx");
  uint64_t dA = gpu.upload(a), dB = gpu.upload(b), dC = gpu.upload(c);
  uint32_t tiles = ceilDiv(n, 16);
  launch(ctx, mod.kernel("dgemm_tiled"), {tiles, tiles}, {16, 8}, 0, n, alpha, dA, dB, beta, dC);

  double worst = 0;
  std::string bad = boundedMismatch("C", gpu.download<double>(dC, elems), expect, bound, &worst);
  if (!bad.empty()) return fail(bad);
  return {true, fmt::format("{0} x {0} matrices, worst error {1:.2g} of the bound", n, worst)};
}

}  // namespace

Workload dgemmTiledWorkload() {
  return {"dgemm-tiled", "dense", "double-precision GEMM with 16x16 shared-memory tiles",
          "matrix edge", 96,      256,
          512,           4096,    run};
}

}  // namespace warpsim::workloads
