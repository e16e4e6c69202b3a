// gemv-l2tiled: Y = A X for a batch of vectors (single precision, row-major) tiled for the
// last-level cache, the L2, with XMem atoms written by hand: the memory-bandwidth-bound companion
// of gemm-l2tiled (which is compute-bound on gtx480: each element of A feeds 32 FMAs a launch).
// See gemv-l2tiled.cu. Checked against a double-precision reference within a derived bound.
//
// A (n x n) is cut into panels of rowsPerTile rows, a panel being the tile's working set:
// rowsPerTile n 4 bytes, about the tile size asked for (WorkloadContext::tileBytes; by default
// 256 KB, a third of gtx480's 768 KB L2, at most a quarter of A). For each panel the host walks
// the m = 8 vectors of X, one launch per (panel, vector) computing Y at the panel's rows and that
// vector, a warp per row: each launch streams the whole panel once, one FMA per 4-byte element.
// So each panel is read again by every vector's launch: its reuse distance is the panel itself
// (plus the vector, n floats), and when the panel does not fit the L2 an LRU L2 thrashes on it
// and every launch reads it from DRAM; when it fits, only the first launch does.
//
// Sizes: n is the size, A n x n, X n x m with m = 8 (stored as X^T, m rows of n, so that a
// vector is contiguous), Y n x m.
#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

#include "check.h"
#include "runtime/error.h"
#include "smooth_matrix.h"
#include "l2_tiling.h"
#include "workload.h"

namespace warpsim::workloads {

namespace gemv_l2tiled {

constexpr int kRowsPerCta = 8;  // CTAs of 32 x 8 = 256 threads: a warp per row
constexpr int kVectors = 8;     // m: every panel is read by 8 launches
constexpr uint64_t kMaxEdge = 8192;

Outcome run(WorkloadContext& ctx) {
  if (ctx.size < 1 || ctx.size > kMaxEdge) {
    throw runtime::Error(fmt::format("gemv-l2tiled: matrix edge 1 to {}, not {}", kMaxEdge, ctx.size));
  }
  const int n = static_cast<int>(ctx.size), m = kVectors;
  const int rowsPerPanel = panelRows(ctx, "gemv-l2tiled", uint64_t{4} * n, n);
  InputGenerator gen(ctx.seed);
  // A: a smooth field plus noise (smooth_matrix.h), like sampled physical data; X uniform in
  // [-1, 1), generated as X^T (vector v is xt[v n .. v n + n)).
  const std::vector<float> a = smoothMatrix(gen, n, n);
  const std::vector<float> xt = uniformVector(gen, m * n);

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("gemv-l2tiled"), "gemv-l2tiled.ptx");
  const runtime::Kernel kernel = mod.kernel("gemv_l2tiled");
  const uint64_t dA = gpu.upload(a), dX = gpu.upload(xt);
  const uint64_t dY = gpu.upload(std::vector<float>(static_cast<size_t>(n) * m, 0.0f));
  const uint64_t rowBytesA = uint64_t{4} * n, rowBytesY = uint64_t{4} * m;

  // XMem atoms (include/warpsim/xmem.h), one per structure, created once per call site:
  // - the A panel: walked along its rows (stride 4 bytes), read again by every vector's launch
  //   while it is current: the most reuse and the most intensity, the working set to keep in
  //   the L2;
  // - X: tiny (8 n floats) and read by every warp of every launch (a launch reads one vector,
  //   walked along: stride 4 bytes); its reuse is short and the L1 mostly serves it;
  // - Y: written once per element (a launch writes one column, a row of Y apart), never read:
  //   reuse 0 (streamed out, bypassing the L2 under the policy).
  // They are hints for the timing model: they never change the result, and configurations
  // without the policy ignore them.
  const uint32_t atomA = floatAtom(gpu, "gemv-l2tiled:A panel", 4, 200, 8, WARPSIM_ATOM_READ_ONLY);
  const uint32_t atomX = floatAtom(gpu, "gemv-l2tiled:X", 4, 100, 4, WARPSIM_ATOM_READ_ONLY);
  const uint32_t atomY =
      floatAtom(gpu, "gemv-l2tiled:Y", static_cast<int64_t>(rowBytesY), 20, 0, WARPSIM_ATOM_WRITE_ONLY);
  // All of X and Y once; the panels one at a time, below. The operations go with the next launch.
  mapAtom(gpu, hints::AtomOp::Kind::Map, atomX, dX, rowBytesA * m);
  mapAtom(gpu, hints::AtomOp::Kind::Map, atomY, dY, rowBytesY * n);
  activateAtoms(gpu, {atomA, atomX, atomY});
  PanelAtom panel(gpu, atomA);
  for (int row0 = 0; row0 < n; row0 += rowsPerPanel) {
    const int rows = std::min(rowsPerPanel, n - row0);
    const uint64_t base = dA + rowBytesA * row0;
    panel.moveTo(base, rowBytesA * rows);  // its rows are contiguous: a 1-D map
    for (int v = 0; v < m; ++v) {
      launch(ctx, kernel, {ceilDiv(rows, kRowsPerCta), 1}, {32, kRowsPerCta}, 0, n, m, rows, base,
             dX + rowBytesA * v, dY + rowBytesY * row0 + uint64_t{4} * v);
    }
  }

  // Tolerance (u = 2^-24). y[i][v] is a sum of the n terms a[i][q] x[q][v], formed by the warp
  // in another order than the reference: lane l adds the terms q = l, l + 32, ... in a chain of
  // L = ceil(n / 32) FMAs from zero (the products exact, each step rounding the partial sum
  // once), then five shfl.down additions of partial sums, each rounding once. A term passes
  // through at most L + 5 roundings on its way to the result, each a relative error of at most
  // u of a partial sum whose magnitude is at most sum |terms|, so y is within (L + 5) u
  // sum |a[i][q] x[q][v]| of the exact value (first order). As L <= n, the bound takes n + 5
  // roundings (n roundings of partial sums in the worst order, plus the shuffles), doubled for
  // slack and second-order terms: 2 (n + 5) u sum |terms|.
  // The reference's products are exact in double and its own rounding is about 2^-29 times the
  // bound. The tiling changes which launch computes an element, never its order: every tile
  // size gives the same Y to the bit.
  std::vector<double> ref(static_cast<size_t>(n) * m, 0.0), bound(ref.size(), 0.0);
  for (int i = 0; i < n; ++i) {
    const float* aRow = &a[static_cast<size_t>(i) * n];
    for (int v = 0; v < m; ++v) {
      const float* x = &xt[static_cast<size_t>(v) * n];
      double sum = 0, magnitude = 0;
      for (int q = 0; q < n; ++q) {
        const double term = static_cast<double>(aRow[q]) * x[q];
        sum += term;
        magnitude += std::fabs(term);
      }
      ref[static_cast<size_t>(i) * m + v] = sum;
      bound[static_cast<size_t>(i) * m + v] = 2 * (n + 5) * kFloatUnit * magnitude;
    }
  }

  double worst = 0;
  std::string bad = boundedMismatch("Y = A X", gpu.download<float>(dY, static_cast<size_t>(n) * m),
                                    ref, bound, &worst);
  if (!bad.empty()) return fail(bad);
  const int panels = (n + rowsPerPanel - 1) / rowsPerPanel;
  return {true, fmt::format("A {0} x {0}, X {0} x {1}: {2} panel(s) of {3} rows ({4} KB), {5} "
                            "launches; worst error of the bound {6:.2g}",
                            n, m, panels, rowsPerPanel, rowBytesA * rowsPerPanel / 1024, panels * m,
                            worst)};
}

}  // namespace gemv_l2tiled

Workload gemvL2tiledWorkload() {
  SpecSpace spec;
  spec.tileBytes = l2TileChoices();
  spec.meaning =
      "tile bytes: the rows of A per panel (tile / (4 n), at least 1, at most n), the working set "
      "every vector's launch rereads; by default 256 KB, at most a quarter of A";
  return {"gemv-l2tiled",
          "dense",
          "batched GEMV tiled for the L2: a launch per (A row panel, vector), a warp per row, XMem atoms",
          "matrix edge (A n x n, X n x 8)",
          128,
          512,
          2048,
          gemv_l2tiled::kMaxEdge,
          gemv_l2tiled::run,
          std::move(spec)};
}

}  // namespace warpsim::workloads
