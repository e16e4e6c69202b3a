// mvt: x1 = x1 + A y1 (a thread per row: row-wise walks of A) and x2 = x2 + A^T y2 (a thread per
// column: column-wise walks of the same A); see mvt.cu. Checked against a double-precision
// reference within a derived bound.
#include <algorithm>
#include <cmath>

#include "check.h"
#include "locality_hints.h"
#include "smooth_matrix.h"
#include "workload.h"

namespace warpsim::workloads {

namespace mvt {

constexpr uint32_t kThreads = 256;  // a thread per element of x1, then of x2

Outcome run(WorkloadContext& ctx) {
  const int n = static_cast<int>(ctx.size);
  InputGenerator gen(ctx.seed);
  // A: a smooth field plus noise (smooth_matrix.h); the four vectors uniform in [-1, 1).
  const std::vector<float> a = smoothMatrix(gen, n, n);
  const std::vector<float> x1 = uniformVector(gen, n), x2 = uniformVector(gen, n);
  const std::vector<float> y1 = uniformVector(gen, n), y2 = uniformVector(gen, n);

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("mvt"), "mvt.ptx");
  uint64_t dA = gpu.upload(a), dX1 = gpu.upload(x1), dX2 = gpu.upload(x2);
  uint64_t dY1 = gpu.upload(y1), dY2 = gpu.upload(y2);
  const uint32_t ctas = ceilDiv(n, kThreads);

  // Locality descriptors (the thesis's Table 4 gives mvt NO_REUSE and INTER_THREAD (COACCESSED,
  // REGULAR)), as atax's:
  // - y1 in mvt_rows and y2 in mvt_cols: every thread of every CTA reads the whole vector, at
  //   the same index at each step (stride 1): INTER_THREAD, one D-Tile shared by one C-Tile of
  //   the whole grid.
  // - A in mvt_cols: each element read once, coalesced: NO_REUSE, the D-Tile of a CTA its 256
  //   columns of every row. A in mvt_rows gets no descriptor: each thread streams its own row
  //   and reuses each line for 32 steps (spatial reuse within a thread, which bypassing the L1
  //   would lose), a kind Table 4 does not give mvt.
  setLocalityDescriptors(ctx, "mvt_rows",
                         {interThread({dY1, {uint32_t(n), 1, 1}, 4}, {{uint32_t(n), 1, 1}, {ctas, 1, 1}, {0, 0, 0}},
                                      WARPSIM_COACCESSED, WARPSIM_REGULAR, 1)});
  setLocalityDescriptors(
      ctx, "mvt_cols",
      {interThread({dY2, {uint32_t(n), 1, 1}, 4}, {{uint32_t(n), 1, 1}, {ctas, 1, 1}, {0, 0, 0}},
                   WARPSIM_COACCESSED, WARPSIM_REGULAR, 1),
       noReuse({dA, {uint32_t(n), uint32_t(n), 1}, 4},
               {{std::min<uint32_t>(kThreads, n), uint32_t(n), 1}, {1, 1, 1}, {1, 0, 0}})});
  launch(ctx, mod.kernel("mvt_rows"), {ceilDiv(n, kThreads)}, {kThreads}, 0, n, dA, dY1, dX1);
  launch(ctx, mod.kernel("mvt_cols"), {ceilDiv(n, kThreads)}, {kThreads}, 0, n, dA, dY2, dX2);

  // Tolerance (u = 2^-24). Each output is a chain of n FMAs starting from the old x, each
  // rounding once, so it is within n u (|x| + sum |terms|) of the exact value (first order),
  // doubled for slack and second-order terms. The reference's products are exact in double and
  // its own rounding is about 2^-29 times the bound. The two kernels are independent (neither
  // reads what the other writes), so each is checked against its own reference.
  std::vector<double> x1Ref(n), x1Bound(n), x2Ref(n), x2Bound(n);
  for (int i = 0; i < n; ++i) {
    x1Ref[i] = x1[i];
    x2Ref[i] = x2[i];
    x1Bound[i] = std::fabs(x1[i]);
    x2Bound[i] = std::fabs(x2[i]);
  }
  for (int i = 0; i < n; ++i) {  // row by row: the reference walks A in memory order
    const float* row = &a[static_cast<size_t>(i) * n];
    double sum = 0, magnitude = 0;
    for (int j = 0; j < n; ++j) {
      double term = static_cast<double>(row[j]) * y1[j];
      sum += term;
      magnitude += std::fabs(term);
      double transposed = static_cast<double>(row[j]) * y2[i];  // A[i][j] y2[i] goes to x2[j]
      x2Ref[j] += transposed;
      x2Bound[j] += std::fabs(transposed);
    }
    x1Ref[i] += sum;
    x1Bound[i] += magnitude;
  }
  for (int i = 0; i < n; ++i) {
    x1Bound[i] *= 2 * n * kFloatUnit;
    x2Bound[i] *= 2 * n * kFloatUnit;
  }

  double worst1 = 0, worst2 = 0;
  std::string bad = boundedMismatch("x1 = x1 + A y1", gpu.download<float>(dX1, n), x1Ref,
                                    x1Bound, &worst1);
  if (bad.empty()) {
    bad = boundedMismatch("x2 = x2 + A^T y2", gpu.download<float>(dX2, n), x2Ref, x2Bound,
                          &worst2);
  }
  if (!bad.empty()) return fail(bad);
  return {true, fmt::format("A {0} x {0}, worst error of the bound: x1 {1:.2g}, x2 {2:.2g}", n,
                            worst1, worst2)};
}

}  // namespace mvt

// The preset edges keep the row stride in 128-byte lines (n / 32) odd or twice odd: with a
// power-of-two edge a warp's 32 rows share a few L1 sets and the conflicts decide the run
// (README.md). PolyBench/GPU's own edge, 4096, is --size 4096.
Workload mvtWorkload() {
  return {"mvt",
          "dense",
          "x1 += A y1 (a thread per row: row-wise walks) and x2 += A^T y2 (a thread per column)",
          "matrix edge (A n x n)",
          672,
          4000,
          8000,
          16384,
          mvt::run};
}

}  // namespace warpsim::workloads
