// syrk: symmetric rank-k update C = alpha * A * A^T + beta * C, one thread per element of C
// (see syrk.cu), checked against a double-precision reference within a derived bound.
#include <cmath>

#include "check.h"
#include "locality_hints.h"
#include "workload.h"

namespace warpsim::workloads {

namespace syrk {

constexpr uint32_t kBlockX = 32, kBlockY = 8;  // a warp is 32 columns of one row of C

// A is n windows of m samples of measured signals, as when C accumulates their Gram
// (covariance-like) matrix: each row is two sinusoids of the row's own frequencies (1 to 12
// cycles per window), phases and amplitudes (0.2 to 0.7) plus uniform noise in [-0.2, 0.2),
// so entries are below 1.6 in magnitude, of both signs, and rows are partly correlated.
std::vector<float> signalWindows(InputGenerator& gen, int n, int m) {
  const double twoPi = 2 * 3.14159265358979323846;
  std::vector<float> a(static_cast<size_t>(n) * m);
  for (int i = 0; i < n; ++i) {
    double f1 = uniformReal(gen, 1.0, 12.0), f2 = uniformReal(gen, 1.0, 12.0);
    double p1 = uniformReal(gen, 0.0, twoPi), p2 = uniformReal(gen, 0.0, twoPi);
    double a1 = uniformReal(gen, 0.2, 0.7), a2 = uniformReal(gen, 0.2, 0.7);
    for (int k = 0; k < m; ++k) {
      double t = static_cast<double>(k) / m;
      a[static_cast<size_t>(i) * m + k] =
          static_cast<float>(a1 * std::sin(twoPi * f1 * t + p1) +
                             a2 * std::sin(twoPi * f2 * t + p2) + uniformReal(gen, -0.2, 0.2));
    }
  }
  return a;
}

Outcome run(WorkloadContext& ctx) {
  const int n = static_cast<int>(ctx.size), m = n;  // A is n x m, square as in PolyBench
  const size_t elems = static_cast<size_t>(n) * n;
  InputGenerator gen(ctx.seed);
  const std::vector<float> a = signalWindows(gen, n, m);
  // C starts as an earlier estimate: symmetric, uniform in [-1, 1). The update is a running
  // average: alpha = 1 / m normalises the new sums of products, beta = 0.9 decays the old C.
  std::vector<float> c(elems);
  for (int i = 0; i < n; ++i) {
    for (int j = i; j < n; ++j) {
      float v = static_cast<float>(uniformReal(gen, -1.0, 1.0));
      c[static_cast<size_t>(i) * n + j] = v;
      c[static_cast<size_t>(j) * n + i] = v;
    }
  }
  const float alpha = 1.0f / static_cast<float>(m), beta = 0.9f;

  // Tolerance (u = 2^-24). Each thread's sum is a chain of m FMAs from zero, each rounding
  // once, so it is within m u sum_k |a_ik a_jk| of the exact sum (first order); then beta * c
  // and the final alpha * sum + beta * c round at most twice more (or three times, were the
  // final operation not fused). So |C - exact| <= (m + 3) u (alpha sum_k |a_ik a_jk| +
  // |beta c_ij|), doubled for slack and second-order terms. The reference's products are exact
  // in double and its own rounding is about 2^-29 times the bound. C is symmetric: the reference
  // computes each pair once (the same products in the same order for (i, j) and (j, i)).
  std::vector<double> expect(elems), bound(elems);
  for (int i = 0; i < n; ++i) {
    const float* rowI = &a[static_cast<size_t>(i) * m];
    for (int j = i; j < n; ++j) {
      const float* rowJ = &a[static_cast<size_t>(j) * m];
      double sum = 0, magnitude = 0;
      for (int k = 0; k < m; ++k) {
        double product = static_cast<double>(rowI[k]) * rowJ[k];
        sum += product;
        magnitude += std::fabs(product);
      }
      for (size_t at : {static_cast<size_t>(i) * n + j, static_cast<size_t>(j) * n + i}) {
        double old = static_cast<double>(beta) * c[at];
        expect[at] = static_cast<double>(alpha) * sum + old;
        bound[at] = 2 * (m + 3) * kFloatUnit * (alpha * magnitude + std::fabs(old));
      }
    }
  }

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("syrk"), "syrk.ptx");
  uint64_t dA = gpu.upload(a), dC = gpu.upload(c);
  const func::Dim3 grid{ceilDiv(n, kBlockX), ceilDiv(n, kBlockY)};

  // Locality descriptors (the thesis's Table 4 gives syrk INTER_THREAD (COACCESSED, REGULAR) and
  // NO_REUSE). A (n x m) has two kinds of inter-CTA sharing, one descriptor each:
  // - the rows j: the CTAs of a grid column (x fixed) all read the same 32 rows j of A, whole
  //   and along k (stride 1): D-Tile m x 32, C-Tile the grid column, traversed along x. These
  //   are the 32 lines of every warp load, the larger working set: priority 2.
  // - the rows i: the CTAs of a grid row (y fixed) all read the same 8 rows i (one broadcast
  //   line per warp load): D-Tile m x 8, C-Tile the grid row, traversed along y; priority 1.
  // C: each element read and written once by its thread: NO_REUSE, a 32 x 8 tile per CTA.
  const Structure as{dA, {uint32_t(m), uint32_t(n), 1}, 4};
  setLocalityDescriptors(
      ctx, "syrk",
      {interThread(as, {{uint32_t(m), kBlockX, 1}, {1, grid.y, 1}, {1, 0, 0}}, WARPSIM_COACCESSED,
                   WARPSIM_REGULAR, 1, 2),
       interThread(as, {{uint32_t(m), kBlockY, 1}, {grid.x, 1, 1}, {0, 1, 0}}, WARPSIM_COACCESSED,
                   WARPSIM_REGULAR, 1, 1),
       noReuse({dC, {uint32_t(n), uint32_t(n), 1}, 4}, {{kBlockX, kBlockY, 1}, {1, 1, 1}, {1, 2, 0}})});
  launch(ctx, mod.kernel("syrk"), grid, {kBlockX, kBlockY}, 0, n, m, alpha, beta, dA, dC);

  double worst = 0;
  std::string bad = boundedMismatch("C", gpu.download<float>(dC, elems), expect, bound, &worst);
  if (!bad.empty()) return fail(bad);
  return {true, fmt::format("C {0} x {0}, A {0} x {1}, worst error {2:.2g} of the bound", n, m,
                            worst)};
}

}  // namespace syrk

// The preset edges are multiples of 32 whose row stride in 128-byte lines (n / 32) is odd: with a
// power-of-two edge a warp's 32 rows j share a few L1 sets and the conflicts decide the run
// (README.md). PolyBench/GPU's own edge, 1024, is --size 1024.
Workload syrkWorkload() {
  return {"syrk",
          "dense",
          "symmetric rank-k update C = alpha A A^T + beta C, one thread per element of C",
          "matrix edge (A and C n x n)",
          96,
          288,
          544,
          4096,
          syrk::run};
}

}  // namespace warpsim::workloads
