// atax: y = A^T (A x) in two kernels, a thread per row (tmp = A x, row-wise walks of A) then a
// thread per column (y = A^T tmp, column-wise walks); see atax.cu. Each kernel is checked on
// the inputs the GPU gave it, against a double-precision reference within a derived bound.
#include <algorithm>
#include <cmath>

#include "check.h"
#include "locality_hints.h"
#include "smooth_matrix.h"
#include "workload.h"

namespace warpsim::workloads {

namespace atax {

constexpr uint32_t kThreads = 256;  // a thread per row, then per column

Outcome run(WorkloadContext& ctx) {
  const int rows = static_cast<int>(ctx.size), cols = rows;  // square, as in PolyBench
  InputGenerator gen(ctx.seed);
  // A: a smooth field plus noise (smooth_matrix.h); x: uniform in [-1, 1).
  const std::vector<float> a = smoothMatrix(gen, rows, cols);
  const std::vector<float> x = uniformVector(gen, cols);

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("atax"), "atax.ptx");
  uint64_t dA = gpu.upload(a), dX = gpu.upload(x);
  uint64_t dTmp = gpu.malloc(static_cast<size_t>(rows) * sizeof(float));
  uint64_t dY = gpu.malloc(static_cast<size_t>(cols) * sizeof(float));
  const uint32_t rowCtas = ceilDiv(rows, kThreads), colCtas = ceilDiv(cols, kThreads);

  // Locality descriptors (the thesis's Table 4 gives atax NO_REUSE and INTER_THREAD
  // (COACCESSED, REGULAR)):
  // - x in atax_rows and tmp in atax_cols: every thread of every CTA reads the whole vector, at
  //   the same index at each step (stride 1): INTER_THREAD, one D-Tile shared by one C-Tile of
  //   the whole grid.
  // - A in atax_cols: each element read once, a warp reading 32 neighbouring floats of a row
  //   (coalesced): NO_REUSE, the D-Tile of a CTA its 256 columns of every row. A in atax_rows
  //   gets no descriptor: each thread streams its own row and reuses each line for 32 steps
  //   (spatial reuse within a thread, which bypassing the L1 would lose), a kind Table 4 does
  //   not give atax.
  setLocalityDescriptors(ctx, "atax_rows",
                         {interThread({dX, {uint32_t(cols), 1, 1}, 4},
                                      {{uint32_t(cols), 1, 1}, {rowCtas, 1, 1}, {0, 0, 0}},
                                      WARPSIM_COACCESSED, WARPSIM_REGULAR, 1)});
  setLocalityDescriptors(
      ctx, "atax_cols",
      {interThread({dTmp, {uint32_t(rows), 1, 1}, 4}, {{uint32_t(rows), 1, 1}, {colCtas, 1, 1}, {0, 0, 0}},
                   WARPSIM_COACCESSED, WARPSIM_REGULAR, 1),
       noReuse({dA, {uint32_t(cols), uint32_t(rows), 1}, 4},
               {{std::min<uint32_t>(kThreads, cols), uint32_t(rows), 1}, {1, 1, 1}, {1, 0, 0}})});
  launch(ctx, mod.kernel("atax_rows"), {ceilDiv(rows, kThreads)}, {kThreads}, 0, rows, cols, dA,
         dX, dTmp);
  launch(ctx, mod.kernel("atax_cols"), {ceilDiv(cols, kThreads)}, {kThreads}, 0, rows, cols, dA,
         dTmp, dY);
  const std::vector<float> tmp = gpu.download<float>(dTmp, rows);
  const std::vector<float> y = gpu.download<float>(dY, cols);

  // Tolerance (u = 2^-24). Each output is a chain of k FMAs from zero (k = cols for tmp, rows
  // for y), each rounding once, so it is within k u sum |terms| of the exact sum (first order),
  // doubled for slack and second-order terms. The reference's products are exact in double and
  // its own rounding is about 2^-29 times the bound. y is checked against A^T times the GPU's
  // tmp, so an error in the first kernel cannot pass for one in the second.
  std::vector<double> tmpRef(rows), tmpBound(rows);
  for (int i = 0; i < rows; ++i) {
    const float* row = &a[static_cast<size_t>(i) * cols];
    double sum = 0, magnitude = 0;
    for (int j = 0; j < cols; ++j) {
      double term = static_cast<double>(row[j]) * x[j];
      sum += term;
      magnitude += std::fabs(term);
    }
    tmpRef[i] = sum;
    tmpBound[i] = 2 * cols * kFloatUnit * magnitude;
  }
  std::vector<double> yRef(cols, 0.0), yBound(cols, 0.0);
  for (int i = 0; i < rows; ++i) {  // row by row: the reference walks A in memory order
    const float* row = &a[static_cast<size_t>(i) * cols];
    for (int j = 0; j < cols; ++j) {
      double term = static_cast<double>(row[j]) * tmp[i];
      yRef[j] += term;
      yBound[j] += std::fabs(term);
    }
  }
  for (double& b : yBound) b *= 2 * rows * kFloatUnit;

  double worstTmp = 0, worstY = 0;
  std::string bad = boundedMismatch("tmp = A x", tmp, tmpRef, tmpBound, &worstTmp);
  if (bad.empty()) bad = boundedMismatch("y = A^T tmp", y, yRef, yBound, &worstY);
  if (!bad.empty()) return fail(bad);
  return {true, fmt::format("A {} x {}, worst error of the bound: tmp {:.2g}, y {:.2g}", rows,
                            cols, worstTmp, worstY)};
}

}  // namespace atax

// The preset edges keep the row stride in 128-byte lines (n / 32) odd or twice odd: with a
// power-of-two edge a warp's 32 rows share a few L1 sets and the conflicts decide the run
// (README.md). PolyBench/GPU's own edge, 4096, is --size 4096.
Workload ataxWorkload() {
  return {"atax",
          "dense",
          "y = A^T (A x): a thread per row (row-wise walks of A), then a thread per column",
          "matrix edge (A n x n)",
          672,
          4000,
          8000,
          16384,
          atax::run};
}

}  // namespace warpsim::workloads
