// gemm-l2tiled: C = A B (single precision, row-major) tiled for the last-level cache, the L2,
// with XMem atoms written by hand (the XMem cache-management study: a tile tuned for one L2 size,
// run on smaller ones). See gemm-l2tiled.cu. Checked against a double-precision reference within
// a derived bound.
//
// Blocked GEMM from its public description. A (n x k) is cut into panels of rowsPerTile rows, a
// panel being the tile's working set: rowsPerTile k 4 bytes, about the tile size asked for
// (WorkloadContext::tileBytes; by default 256 KB, a third of gtx480's 768 KB L2, at most a quarter
// of A). For each panel the host walks the column blocks of B (32 columns each), one launch per
// (panel, column block) computing C at the panel's rows and the block's columns. So each panel is
// read again by every column block: its reuse distance is the panel itself (plus the block of B
// the launch reads), and when the panel does not fit the L2 an LRU L2 thrashes on it.
//
// Sizes: n is the size, k = n, m = 128 (four column blocks: every panel is read four times).
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

namespace gemm_l2tiled {

constexpr int kColsPerLaunch = 32;     // a column block: a warp's 32 lanes
constexpr int kRowsPerCta = 8;         // CTAs of 32 x 8 = 256 threads
constexpr int kCols = 4 * kColsPerLaunch;  // m
constexpr uint64_t kMaxEdge = 8192;

Outcome run(WorkloadContext& ctx) {
  if (ctx.size < 1 || ctx.size > kMaxEdge) {
    throw runtime::Error(fmt::format("gemm-l2tiled: matrix edge 1 to {}, not {}", kMaxEdge, ctx.size));
  }
  const int n = static_cast<int>(ctx.size), k = n, m = kCols;
  const int rowsPerPanel = panelRows(ctx, "gemm-l2tiled", uint64_t{4} * k, n);
  InputGenerator gen(ctx.seed);
  // A: a smooth field plus noise (smooth_matrix.h), like sampled physical data; B uniform in
  // [-1, 1) (weights).
  const std::vector<float> a = smoothMatrix(gen, n, k);
  const std::vector<float> b = uniformVector(gen, k * m);

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("gemm-l2tiled"), "gemm-l2tiled.ptx");
  const runtime::Kernel kernel = mod.kernel("gemm_l2tiled");
  const uint64_t dA = gpu.upload(a), dB = gpu.upload(b);
  const uint64_t dC = gpu.upload(std::vector<float>(static_cast<size_t>(n) * m, 0.0f));
  const uint64_t rowBytesA = uint64_t{4} * k, rowBytesB = uint64_t{4} * m;

  // XMem atoms (include/warpsim/xmem.h), one per structure, created once per call site:
  // - the A panel: walked along its rows (stride 4 bytes), read again by every column block
  //   while it is current: the most reuse and the most intensity, the working set to keep in
  //   the L2;
  // - B: each launch walks one column block down (stride: a row of B) and the panel's rows
  //   read it again within the launch, at a short distance any cache keeps; across launches
  //   it is read again only by the next panel, after all of B: little reuse;
  // - C: written once per element, never read: reuse 0 (streamed out, bypassing the L2 under
  //   the policy).
  // They are hints for the timing model: they never change the result, and configurations
  // without the policy ignore them.
  const uint32_t atomA = floatAtom(gpu, "gemm-l2tiled:A panel", 4, 200, 8, WARPSIM_ATOM_READ_ONLY);
  const uint32_t atomB =
      floatAtom(gpu, "gemm-l2tiled:B", static_cast<int64_t>(rowBytesB), 100, 1, WARPSIM_ATOM_READ_ONLY);
  const uint32_t atomC = floatAtom(gpu, "gemm-l2tiled:C", 4, 20, 0, WARPSIM_ATOM_WRITE_ONLY);
  // All of B and C once; the panels one at a time, below. The operations go with the next launch.
  mapAtom(gpu, hints::AtomOp::Kind::Map, atomB, dB, rowBytesB * k);
  mapAtom(gpu, hints::AtomOp::Kind::Map, atomC, dC, rowBytesB * n);
  activateAtoms(gpu, {atomA, atomB, atomC});
  PanelAtom panel(gpu, atomA);
  for (int row0 = 0; row0 < n; row0 += rowsPerPanel) {
    const int rows = std::min(rowsPerPanel, n - row0);
    const uint64_t base = dA + rowBytesA * row0;
    panel.moveTo(base, rowBytesA * rows);  // its rows are contiguous: a 1-D map
    for (int col0 = 0; col0 < m; col0 += kColsPerLaunch) {
      launch(ctx, kernel, {1, ceilDiv(rows, kRowsPerCta)}, {kColsPerLaunch, kRowsPerCta}, 0, k, m,
             rows, base, dB + uint64_t{4} * col0, dC + rowBytesB * row0 + uint64_t{4} * col0);
    }
  }

  // Tolerance (u = 2^-24). Each element of C is a chain of k FMAs from zero, each rounding once,
  // so it is within k u sum |a[i][q] b[q][j]| of the exact value (first order), doubled for slack
  // and second-order terms. The reference's products are exact in double and its own rounding is
  // about 2^-29 times the bound. The tiling changes which launch computes an element, never its
  // chain: every tile size gives the same C to the bit.
  std::vector<double> ref(static_cast<size_t>(n) * m, 0.0), bound(ref.size(), 0.0);
  for (int i = 0; i < n; ++i) {  // i-q-j order: A and B walked in memory order
    double* refRow = &ref[static_cast<size_t>(i) * m];
    double* boundRow = &bound[static_cast<size_t>(i) * m];
    for (int q = 0; q < k; ++q) {
      const double aiq = a[static_cast<size_t>(i) * k + q];
      const float* bRow = &b[static_cast<size_t>(q) * m];
      for (int j = 0; j < m; ++j) {
        const double term = aiq * bRow[j];
        refRow[j] += term;
        boundRow[j] += std::fabs(term);
      }
    }
  }
  for (double& x : bound) x *= 2 * k * kFloatUnit;

  double worst = 0;
  std::string bad = boundedMismatch("C = A B", gpu.download<float>(dC, static_cast<size_t>(n) * m),
                                    ref, bound, &worst);
  if (!bad.empty()) return fail(bad);
  const int panels = (n + rowsPerPanel - 1) / rowsPerPanel;
  return {true, fmt::format("A {0} x {0}, B {0} x {1}: {2} panel(s) of {3} rows ({4} KB), {5} "
                            "launches; worst error of the bound {6:.2g}",
                            n, m, panels, rowsPerPanel, rowBytesA * rowsPerPanel / 1024,
                            panels * (m / kColsPerLaunch), worst)};
}

}  // namespace gemm_l2tiled

Workload gemmL2tiledWorkload() {
  SpecSpace spec;
  spec.tileBytes = l2TileChoices();
  spec.meaning =
      "tile bytes: the rows of A per panel (tile / (4 n), at least 1, at most n), the working set "
      "every column block rereads; by default 256 KB, at most a quarter of A";
  return {"gemm-l2tiled",
          "dense",
          "GEMM tiled for the L2: a launch per (A row panel, 32-column block), XMem atoms",
          "matrix edge (A n x n, B n x 128)",
          128,
          512,
          1024,
          gemm_l2tiled::kMaxEdge,
          gemm_l2tiled::run,
          std::move(spec)};
}

}  // namespace warpsim::workloads
