// syr2k-l2tiled: symmetric rank-2k update C = alpha (A B^T + B A^T) + beta C (PolyBench's syr2k,
// single precision, row-major, the lower triangle of C) tiled for the last-level cache, the L2,
// with XMem atoms written by hand (the XMem cache-management study: a tile tuned for one L2 size,
// run on smaller ones). See syr2k-l2tiled.cu. Checked against a double-precision reference within
// a derived bound.
//
// Blocked as gemm-l2tiled is, from the public description of the update. The rank-2k update is one
// product of 2m steps: row i of W = [A B] (n x 2m, row i of A then row i of B) against column j
// of Vt = [B A]^T (2m x n, packed by the host so that a warp reads it along rows). W is cut into
// panels of rowsPerTile rows, a panel being the tile's working set: rowsPerTile 2m 4 bytes, about
// the tile size asked for (WorkloadContext::tileBytes; by default 256 KB, a third of gtx480's
// 768 KB L2, at most a quarter of W). For each panel the host walks the column blocks of C (32
// columns each) from the left up to the diagonal, one launch per (panel, column block) computing
// C at the panel's rows on or below the block's first column (the block's part of the lower
// triangle). So each panel is read again by every column block: row i of the panel by i / 32 + 1
// launches (16 for the last rows at n = 512, 8 on average), at a reuse distance of the panel
// itself (plus the column block of Vt the launch reads, 2m 128-byte lines), and when the panel
// does not fit the L2 an LRU L2 thrashes on it. Every tile size does the same work.
//
// Sizes: n is the size (a multiple of 4), m = n / 2, so that W, Vt and C are all n x n (1 MB each
// at n = 512) and the chain is k2 = 2m = n steps long.
#include <algorithm>
#include <cmath>
#include <utility>

#include "check.h"
#include "l2_tiling.h"
#include "runtime/error.h"
#include "smooth_matrix.h"
#include "workload.h"

namespace warpsim::workloads {

namespace syr2k_l2tiled {

constexpr int kColsPerLaunch = 32;  // a column block: a warp's 32 lanes
constexpr int kRowsPerCta = 8;      // CTAs of 32 x 8 = 256 threads
constexpr uint64_t kMinEdge = 4, kMaxEdge = 4096;
constexpr double kTwoPi = 2 * 3.14159265358979323846;

// A and B: n windows of m samples from two sensors recording the same two sources, as when C
// accumulates the symmetrised cross-covariance of the two (C += (A B^T + B A^T) / 2m). Window i
// holds two sinusoids of its own frequencies (1 to 12 cycles a window), phases and amplitudes
// (0.2 to 0.7); the second sensor hears them delayed (0 to a twentieth of a window) and with its
// own gains (0.5 to 1.5); each sample carries uniform noise in [-0.2, 0.2). Entries are below
// 2.3 in magnitude, of both signs; rows of A and B are correlated, different rows partly.
void sensorWindows(InputGenerator& gen, int n, int m, std::vector<float>& a, std::vector<float>& b) {
  a.resize(static_cast<size_t>(n) * m);
  b.resize(a.size());
  for (int i = 0; i < n; ++i) {
    const double f1 = uniformReal(gen, 1, 12), f2 = uniformReal(gen, 1, 12);
    const double p1 = uniformReal(gen, 0, kTwoPi), p2 = uniformReal(gen, 0, kTwoPi);
    const double a1 = uniformReal(gen, 0.2, 0.7), a2 = uniformReal(gen, 0.2, 0.7);
    const double delay = uniformReal(gen, 0, 0.05), g1 = uniformReal(gen, 0.5, 1.5), g2 = uniformReal(gen, 0.5, 1.5);
    for (int k = 0; k < m; ++k) {
      const double t = static_cast<double>(k) / m, s = t - delay;
      a[static_cast<size_t>(i) * m + k] = static_cast<float>(a1 * std::sin(kTwoPi * f1 * t + p1) +
                                                             a2 * std::sin(kTwoPi * f2 * t + p2) +
                                                             uniformReal(gen, -0.2, 0.2));
      b[static_cast<size_t>(i) * m + k] = static_cast<float>(g1 * a1 * std::sin(kTwoPi * f1 * s + p1) +
                                                             g2 * a2 * std::sin(kTwoPi * f2 * s + p2) +
                                                             uniformReal(gen, -0.2, 0.2));
    }
  }
}

Outcome run(WorkloadContext& ctx) {
  if (ctx.size < kMinEdge || ctx.size > kMaxEdge || ctx.size % 4 != 0) {
    throw runtime::Error(
        fmt::format("syr2k-l2tiled: matrix edge a multiple of 4 from {} to {}, not {}", kMinEdge, kMaxEdge, ctx.size));
  }
  const int n = static_cast<int>(ctx.size), m = n / 2, k2 = 2 * m;
  const size_t elems = static_cast<size_t>(n) * n;
  const int rowsPerPanel = panelRows(ctx, "syr2k-l2tiled", uint64_t{4} * k2, n);
  InputGenerator gen(ctx.seed);
  std::vector<float> a, b;
  sensorWindows(gen, n, m, a, b);
  // C starts as the previous estimate: symmetric, a smooth field plus noise (smooth_matrix.h)
  // halved and symmetrised, entries below about 1 in magnitude. The update is a running average:
  // alpha = 1 / 2m normalises the new sums of products, beta = 0.9 decays the old C.
  const std::vector<float> s = smoothMatrix(gen, n, n);
  std::vector<float> c(elems);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      c[static_cast<size_t>(i) * n + j] =
          0.25f * (s[static_cast<size_t>(i) * n + j] + s[static_cast<size_t>(j) * n + i]);
    }
  }
  const float alpha = 1.0f / static_cast<float>(k2), beta = 0.9f;
  // W = [A B] and Vt = [B A]^T.
  std::vector<float> w(static_cast<size_t>(n) * k2), vt(static_cast<size_t>(k2) * n);
  for (int i = 0; i < n; ++i) {
    for (int q = 0; q < m; ++q) {
      const float aiq = a[static_cast<size_t>(i) * m + q], biq = b[static_cast<size_t>(i) * m + q];
      w[static_cast<size_t>(i) * k2 + q] = aiq;
      w[static_cast<size_t>(i) * k2 + m + q] = biq;
      vt[static_cast<size_t>(q) * n + i] = biq;
      vt[static_cast<size_t>(m + q) * n + i] = aiq;
    }
  }

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("syr2k-l2tiled"), "syr2k-l2tiled.ptx");
  const runtime::Kernel kernel = mod.kernel("syr2k_l2tiled");
  const uint64_t dW = gpu.upload(w), dVt = gpu.upload(vt), dC = gpu.upload(c);
  const uint64_t rowBytesW = uint64_t{4} * k2, rowBytesVt = uint64_t{4} * n;

  // XMem atoms (include/warpsim/xmem.h), one per structure, created once per call site:
  // - the W panel: walked along its rows (stride 4 bytes), read again by every column block up
  //   to the diagonal while it is current: the most reuse and the most intensity, the working
  //   set to keep in the L2;
  // - Vt: each launch walks one column block down (stride: a row of Vt) and the panel's rows
  //   read it again within the launch, at a short distance any cache keeps; across launches it
  //   is read again only by the next panel, after all the blocks before: little reuse;
  // - C: each element of the lower triangle read once and written once: reuse 0 (streamed,
  //   bypassing the L2 under the policy).
  // They are hints for the timing model: they never change the result, and configurations
  // without the policy ignore them.
  const uint32_t atomW = floatAtom(gpu, "syr2k-l2tiled:W panel", 4, 200, 8, WARPSIM_ATOM_READ_ONLY);
  const uint32_t atomVt =
      floatAtom(gpu, "syr2k-l2tiled:Vt", static_cast<int64_t>(rowBytesVt), 100, 1, WARPSIM_ATOM_READ_ONLY);
  const uint32_t atomC = floatAtom(gpu, "syr2k-l2tiled:C", 4, 20, 0, WARPSIM_ATOM_READ_WRITE);
  // All of Vt and C once; the panels one at a time, below. The operations go with the next launch.
  mapAtom(gpu, hints::AtomOp::Kind::Map, atomVt, dVt, rowBytesVt * k2);
  mapAtom(gpu, hints::AtomOp::Kind::Map, atomC, dC, rowBytesVt * n);
  activateAtoms(gpu, {atomW, atomVt, atomC});
  PanelAtom panel(gpu, atomW);
  int launches = 0;
  for (int row0 = 0; row0 < n; row0 += rowsPerPanel) {
    const int end = std::min(n, row0 + rowsPerPanel);
    panel.moveTo(dW + rowBytesW * row0, rowBytesW * (end - row0));  // its rows are contiguous: a 1-D map
    for (int col0 = 0; col0 < end; col0 += kColsPerLaunch) {
      const int first = std::max(row0, col0);  // rows above the block's first column: upper triangle
      launch(ctx, kernel, {1, ceilDiv(end - first, kRowsPerCta)}, {kColsPerLaunch, kRowsPerCta}, 0, n, k2, first,
             end - first, col0, alpha, beta, dW, dVt + uint64_t{4} * col0, dC);
      ++launches;
    }
  }

  // Tolerance (u = 2^-24). Each element's sum is a chain of k2 FMAs from zero, each rounding
  // once, so it is within k2 u sum |w[i][q] vt[q][j]| of the exact sum (first order); then
  // beta c and fma(alpha, sum, beta c) round once each. So |C - exact| <= (k2 + 2) u
  // (alpha sum_q |w[i][q] vt[q][j]| + |beta c|), doubled for slack and second-order terms. The
  // reference's products are exact in double and its own rounding is about 2^-29 times the
  // bound. The upper triangle must keep its values exactly (bound 0). The tiling changes which
  // launch computes an element, never its chain: every tile size gives the same C to the bit.
  std::vector<double> expect(elems), bound(elems, 0.0);
  for (int i = 0; i < n; ++i) {
    const float* wRow = &w[static_cast<size_t>(i) * k2];
    for (int j = 0; j < n; ++j) {
      const size_t at = static_cast<size_t>(i) * n + j;
      if (j > i) {
        expect[at] = c[at];
        continue;
      }
      const float* aj = &a[static_cast<size_t>(j) * m];
      const float* bj = &b[static_cast<size_t>(j) * m];
      double sum = 0, magnitude = 0;
      for (int q = 0; q < k2; ++q) {  // vt[q][j] is b[j][q] for q < m, a[j][q - m] after
        const double term = static_cast<double>(wRow[q]) * (q < m ? bj[q] : aj[q - m]);
        sum += term;
        magnitude += std::fabs(term);
      }
      const double old = static_cast<double>(beta) * c[at];
      expect[at] = static_cast<double>(alpha) * sum + old;
      bound[at] = 2 * (k2 + 2) * kFloatUnit * (alpha * magnitude + std::fabs(old));
    }
  }

  double worst = 0;
  std::string bad = boundedMismatch("C", gpu.download<float>(dC, elems), expect, bound, &worst);
  if (!bad.empty()) return fail(bad);
  const int panels = (n + rowsPerPanel - 1) / rowsPerPanel;
  return {true, fmt::format("C {0} x {0}, A and B {0} x {1}: {2} panel(s) of {3} rows ({4} KB), {5} launches; "
                            "worst error of the bound {6:.2g}",
                            n, m, panels, rowsPerPanel, rowBytesW * rowsPerPanel / 1024, launches, worst)};
}

}  // namespace syr2k_l2tiled

Workload syr2kL2tiledWorkload() {
  SpecSpace spec;
  spec.tileBytes = l2TileChoices();
  spec.meaning =
      "tile bytes: the rows of W = [A B] per panel (tile / (4 n), at least 1, at most n), the working set "
      "every column block up to the diagonal rereads; by default 256 KB, at most a quarter of W";
  return {"syr2k-l2tiled",
          "dense",
          "SYR2K tiled for the L2: a launch per (row panel of [A B], 32-column block up to the diagonal), XMem atoms",
          "matrix edge (C n x n, A and B n x n/2; a multiple of 4)",
          128,
          512,
          1024,
          syr2k_l2tiled::kMaxEdge,
          syr2k_l2tiled::run,
          std::move(spec)};
}

}  // namespace warpsim::workloads
