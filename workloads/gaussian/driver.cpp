// gaussian: Gaussian elimination of [A | b], two kernels per step, then back substitution on
// the host.
#include <cmath>

#include "check.h"
#include "lu_check.h"
#include "workload.h"

namespace warpsim::workloads {

namespace gaussian {

Outcome run(WorkloadContext& ctx) {
  const int n = static_cast<int>(ctx.size);
  const int stride = n + 1;
  InputGenerator gen(ctx.seed);
  // Diagonally dominant A (no pivoting needed) and b = A x for a known x.
  std::vector<float> m(static_cast<size_t>(n) * stride);
  std::vector<double> x(n);
  for (double& v : x) v = uniformReal(gen, -1.0, 1.0);
  for (int i = 0; i < n; ++i) {
    double b = 0;
    for (int j = 0; j < n; ++j) {
      double v = uniformReal(gen, -1.0, 1.0);
      float a = static_cast<float>(i == j ? v + n / 2.0 : v);
      m[static_cast<size_t>(i) * stride + j] = a;
      b += a * x[j];
    }
    m[static_cast<size_t>(i) * stride + n] = static_cast<float>(b);
  }

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("gaussian"), "gaussian.ptx");
  runtime::Kernel multipliers = mod.kernel("gauss_multipliers");
  runtime::Kernel eliminate = mod.kernel("gauss_eliminate");
  uint64_t dM = gpu.upload(m);
  for (int k = 0; k < n - 1; ++k) {
    int below = n - k - 1;
    launch(ctx, multipliers, {ceilDiv(below, 256)}, {256}, 0, dM, n, k);
    launch(ctx, eliminate, {ceilDiv(below + 1, 16), ceilDiv(below, 16)}, {16, 16}, 0, dM, n, k);
  }
  std::vector<float> reduced = gpu.download<float>(dM, m.size());

  // The elimination is checked as an LU factorisation of A with b as an extra column (see
  // lu_check.h); the solution is then only reported.
  double worst = 0;
  std::string bad = luReconstructionMismatch(m, reduced, n, stride, stride, &worst);
  if (!bad.empty()) return fail(bad);
  std::vector<double> solution(n);
  double maxError = 0;
  for (int i = n - 1; i >= 0; --i) {
    double v = reduced[static_cast<size_t>(i) * stride + n];
    for (int j = i + 1; j < n; ++j) v -= reduced[static_cast<size_t>(i) * stride + j] * solution[j];
    solution[i] = v / reduced[static_cast<size_t>(i) * stride + i];
    maxError = std::max(maxError, std::fabs(solution[i] - x[i]));
  }
  return {true, fmt::format("{0} x {0} system, L [U|c] = [A|b] within {1:.2g} of the "
                            "backward-error bound, max |x - x_true| = {2:.2g}",
                            n, worst, maxError)};
}

}  // namespace gaussian

Workload gaussianWorkload() {
  return {
      "gaussian", "science", "Gaussian elimination, multiplier and elimination kernels per step",
      "unknowns", 64,        256,
      512,        4096,      gaussian::run};
}

}  // namespace warpsim::workloads
