// sgemv-naive: y = A x, one thread per row of A (see sgemv-naive.cu). Checked against a
// double-precision reference within a derived bound.
#include <cmath>

#include "check.h"
#include "smooth_matrix.h"
#include "workload.h"

namespace warpsim::workloads {

namespace sgemv_naive {

constexpr uint32_t kThreads = 256;  // a thread per row

Outcome run(WorkloadContext& ctx) {
  const int n = static_cast<int>(ctx.size);
  InputGenerator gen(ctx.seed);
  // A: a smooth field plus noise (smooth_matrix.h); x uniform in [-1, 1).
  const std::vector<float> a = smoothMatrix(gen, n, n);
  const std::vector<float> x = uniformVector(gen, n);

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("sgemv-naive"), "sgemv-naive.ptx");
  uint64_t dA = gpu.upload(a), dX = gpu.upload(x);
  uint64_t dY = gpu.malloc(static_cast<size_t>(n) * sizeof(float));
  launch(ctx, mod.kernel("sgemv_naive"), {ceilDiv(n, kThreads)}, {kThreads}, 0, n, dA, dX, dY);

  // Tolerance (u = 2^-24): each output is a chain of n multiply-adds in float, each rounding at
  // most twice (the product and the sum, or once when contracted to an FMA), so it is within
  // 2 n u sum |a_ij x_j| of the exact value (first order); doubled for second-order terms. The
  // reference's products are exact in double and its own rounding is negligible beside that.
  std::vector<double> ref(n), bound(n);
  for (int i = 0; i < n; ++i) {
    const float* row = &a[static_cast<size_t>(i) * n];
    double sum = 0, magnitude = 0;
    for (int j = 0; j < n; ++j) {
      const double term = static_cast<double>(row[j]) * x[j];
      sum += term;
      magnitude += std::fabs(term);
    }
    ref[i] = sum;
    bound[i] = 4.0 * n * kFloatUnit * magnitude;
  }
  double worst = 0;
  std::string bad = boundedMismatch("y = A x", gpu.download<float>(dY, n), ref, bound, &worst);
  if (!bad.empty()) return fail(bad);
  return {true, fmt::format("A {0} x {0}, worst error {1:.2g} of the bound", n, worst)};
}

}  // namespace sgemv_naive

// 4096 is the size the kernel is usually measured at (16 CTAs of 256 threads).
Workload sgemvNaiveWorkload() {
  return {"sgemv-naive",
          "dense",
          "y = A x, one thread per row walking it from global memory (uncoalesced)",
          "matrix edge (A n x n)",
          512,
          4096,
          8192,
          16384,
          sgemv_naive::run};
}

}  // namespace warpsim::workloads
