// stencil2d-l2tiled: Jacobi 2-D 5-point stencil (PolyBench's jacobi-2d) time-tiled for the
// last-level cache, the L2, with XMem atoms written by hand (the XMem cache-management study: a
// tile tuned for one L2 size, run on smaller ones). See stencil2d-l2tiled.cu. Checked against a
// double-precision reference within a derived bound.
//
// Time tiling by skewed row bands, from the public description of time skewing (Wolfe; Song &
// Li; PLUTO's tiles for stencils). The T sweeps ping-pong between two buffers of the n x n grid,
// sweep t (1..T) reading buffer (t - 1) % 2 and writing buffer t % 2. The grid is cut into bands
// of R rows, R about the tile size asked for (WorkloadContext::tileBytes / (8 n): a row of both
// buffers; by default 256 KB, a third of gtx480's 768 KB L2, at most a quarter of the two
// buffers). The host walks the bands in order and, for each, the T sweeps, one launch per
// (band, sweep): band b's sweep t computes the rows [b R - (t - 1), b R + R - (t - 1)) of the
// interior [1, n - 1), a band sliding down a row a sweep (a parallelogram in the (row, time)
// plane, the slope of the stencil's dependences). Why this is the same Jacobi iteration, every
// (row, sweep) computed once from the values of the sweep before:
//   - what band b's sweep t reads, rows b R - t to b R + R - t + 1 of sweep t - 1, has been
//     computed: below b R - t + 2 by the bands before b (at every sweep s their rows cover all
//     below b R - (s - 1)), the rest by band b's own sweep t - 1;
//   - and not overwritten since: a band b' < b writes that buffer again (sweeps t + 1, t + 3,
//     ...) only below (b' + 1) R - t <= b R - t, the lowest row band b reads; band b writes it
//     next at sweep t + 1, after this launch; the bands after b have not run.
// This holds for any R, a band of one row included.
// So each band's rows are read and written by its T sweeps at a reuse distance of the band
// itself (a sweep touches R + 2 rows of each buffer), and when the band does not fit the L2 an
// LRU L2 thrashes on it and every sweep goes to DRAM; when it fits, only the first sweep reads
// its R new rows (the T rows below were the previous band's, just touched). Every tile size does
// the same work, (n - 2)^2 T updates; small bands make small launches (a band of R rows is
// ceil(R / 8) rows of CTAs) and more of them (ceil((n - 1 + T - 1) / R) bands of T sweeps).
//
// Sizes: n is the size (the grid n x n, two buffers: 2 n^2 floats; 1 MB a buffer at n = 512);
// T = 8 sweeps (four of PolyBench's time steps, each A -> B then B -> A).
#include <algorithm>
#include <cmath>
#include <utility>

#include "check.h"
#include "l2_tiling.h"
#include "runtime/error.h"
#include "smooth_matrix.h"
#include "workload.h"

namespace warpsim::workloads {

namespace stencil2d_l2tiled {

constexpr int kBlockX = 32, kBlockY = 8;  // CTAs of 32 x 8 = 256 threads
constexpr int kSweeps = 8;                // T (even: the result is back in buffer 0)
constexpr float kWeight = 0.2f;           // PolyBench's SCALAR_VAL(0.2)
constexpr uint64_t kMinEdge = 3, kMaxEdge = 4096;

// The current band as one 2-D block (its rows in buffer 0 and the same rows in buffer 1, a grid
// apart: Atom2DMap) and the rest of the grid: moving the band hands its old rows back to the
// rest's atom, so that every row of both buffers always belongs to one of the two. (PanelAtom in
// l2_tiling.h follows a 1-D panel and unmaps the old one; this workload's tile spans both
// buffers and the grid keeps an atom of its own.)
class BandAtoms {
 public:
  BandAtoms(runtime::Device& gpu, uint32_t band, uint32_t rest, uint64_t grids, uint64_t gridBytes)
      : gpu_(gpu), band_(band), rest_(rest), grids_(grids), gridBytes_(gridBytes) {
    mapAtom(gpu_, hints::AtomOp::Kind::Map, rest_, grids_, 2 * gridBytes_);
  }
  // The band is [offset, offset + bytes) of each buffer.
  void moveTo(uint64_t offset, uint64_t bytes) {
    if (bytes_ != 0) map(rest_, offset_, bytes_);
    map(band_, offset, bytes);
    offset_ = offset;
    bytes_ = bytes;
  }

 private:
  void map(uint32_t atom, uint64_t offset, uint64_t bytes) {
    gpu_.issueAtomOp(hints::AtomOp{hints::AtomOp::Kind::Map, atom, grids_ + offset, gridBytes_, 2, bytes, 2, 1});
  }
  runtime::Device& gpu_;
  uint32_t band_, rest_;
  uint64_t grids_, gridBytes_;
  uint64_t offset_ = 0, bytes_ = 0;
};

Outcome run(WorkloadContext& ctx) {
  if (ctx.size < kMinEdge || ctx.size > kMaxEdge) {
    throw runtime::Error(
        fmt::format("stencil2d-l2tiled: grid edge {} to {}, not {}", kMinEdge, kMaxEdge, ctx.size));
  }
  const int n = static_cast<int>(ctx.size);
  const size_t cells = static_cast<size_t>(n) * n;
  const uint64_t rowBytes = uint64_t{4} * n, gridBytes = rowBytes * n;
  const int rowsPerBand = panelRows(ctx, "stencil2d-l2tiled", 2 * rowBytes, n);
  InputGenerator gen(ctx.seed);
  // A plate's temperatures in degrees Celsius, as a relaxation toward steady state starts from:
  // a measured field, smooth with sensor noise (smooth_matrix.h), 50 +- 20 times entries below
  // 2.05, so about 9 to 91; its border is held fixed (Dirichlet), the same in both buffers.
  std::vector<float> grid = smoothMatrix(gen, n, n);
  for (float& x : grid) x = 50.0f + 20.0f * x;

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("stencil2d-l2tiled"), "stencil2d-l2tiled.ptx");
  const runtime::Kernel kernel = mod.kernel("stencil2d_l2tiled");
  std::vector<float> both(2 * cells);
  std::copy(grid.begin(), grid.end(), both.begin());
  std::copy(grid.begin(), grid.end(), both.begin() + static_cast<std::ptrdiff_t>(cells));
  const uint64_t dGrids = gpu.upload(both);  // buffer 0, then buffer 1
  const auto buffer = [&](int t) { return dGrids + gridBytes * static_cast<uint64_t>(t % 2); };

  // XMem atoms (include/warpsim/xmem.h), one per structure, created once per call site:
  // - the band: its rows in both buffers, walked along (stride 4 bytes), read and written by
  //   every sweep of the band while it is current (T = 8): the most reuse and the most
  //   intensity, the working set to keep in the L2;
  // - the rest of the grid: rows no launch of the current band touches; each is read again only
  //   once a later band takes it in (and those behind are done): little reuse.
  // Both buffers are read and written. They are hints for the timing model: they never change
  // the result, and configurations without the policy ignore them.
  const uint32_t atomBand =
      floatAtom(gpu, "stencil2d-l2tiled:band", 4, 200, kSweeps, WARPSIM_ATOM_READ_WRITE);
  const uint32_t atomRest =
      floatAtom(gpu, "stencil2d-l2tiled:rest of the grid", 4, 20, 1, WARPSIM_ATOM_READ_WRITE);
  BandAtoms atoms(gpu, atomBand, atomRest, dGrids, gridBytes);  // all of the grid to the rest
  activateAtoms(gpu, {atomBand, atomRest});

  const int bands = ceilDiv(n - 1 + kSweeps - 1, rowsPerBand);
  int launches = 0;
  for (int b = 0; b < bands; ++b) {
    const int top = b * rowsPerBand;  // the band's rows at sweep t start at top - (t - 1)
    // The rows the band's sweeps read or write: from sweep T's first row less one to sweep 1's
    // last row plus one.
    const int touched0 = std::max(0, top - kSweeps);
    const int touched1 = std::min(n, top + rowsPerBand + 1);
    bool moved = false;
    for (int t = 1; t <= kSweeps; ++t) {
      const int lo = std::max(1, top - (t - 1)), hi = std::min(n - 1, top + rowsPerBand - (t - 1));
      if (lo >= hi) continue;
      if (!moved) {  // the operations go with the next launch
        atoms.moveTo(rowBytes * touched0, rowBytes * (touched1 - touched0));
        moved = true;
      }
      launch(ctx, kernel, {ceilDiv(n, kBlockX), ceilDiv(hi - lo, kBlockY)}, {kBlockX, kBlockY}, 0, n, lo,
             hi - lo, buffer(t - 1), buffer(t));
      ++launches;
    }
  }

  // Tolerance (u = 2^-24), by a bound carried along the sweeps. The kernel's update is
  // fl(w fl(s)), s the sum of the five neighbours of the previous sweep (four additions, in
  // any order within 4 u sum |terms|) and one product, w = 0.2f: so a result is within
  // 5 u w sum |terms| of w s (first order), and w s is within w sum e of the reference's value
  // if each neighbour is within e of its reference. The bound is e_t = w sum e_(t-1) +
  // 2 * 5 u w sum |ref_(t-1)| (doubled for slack and second-order terms), e_0 = 0, the border
  // exact; the weights' sum, 5 w, is 1 + 1.5e-8, so the bound grows about linearly in T. The
  // reference runs the same sweeps in double with w the float 0.2f. The tiling changes which
  // launch computes a value, never its operands or order: every tile size gives the same grid
  // to the bit.
  const double w = kWeight;
  std::vector<double> ref(grid.begin(), grid.end()), bound(cells, 0.0);
  std::vector<double> nextRef(ref), nextBound(bound);
  for (int t = 1; t <= kSweeps; ++t) {
    for (int i = 1; i < n - 1; ++i) {
      for (int j = 1; j < n - 1; ++j) {
        const size_t at = static_cast<size_t>(i) * n + j;
        const size_t nb[5] = {at, at - 1, at + 1, at + n, at - n};
        double sum = 0, magnitude = 0, carried = 0;
        for (size_t k : nb) {
          sum += ref[k];
          magnitude += std::fabs(ref[k]);
          carried += bound[k];
        }
        nextRef[at] = w * sum;
        nextBound[at] = w * carried + 2 * 5 * kFloatUnit * w * magnitude;
      }
    }
    std::swap(ref, nextRef);
    std::swap(bound, nextBound);
  }

  double worst = 0;
  std::string bad = boundedMismatch("grid after the sweeps", gpu.download<float>(buffer(kSweeps), cells), ref,
                                    bound, &worst);
  if (!bad.empty()) return fail(bad);
  return {true, fmt::format("grid {0} x {0}, {1} sweeps: {2} band(s) of {3} rows ({4} KB in both buffers), {5} "
                            "launches; worst error of the bound {6:.2g}",
                            n, kSweeps, bands, rowsPerBand, 2 * rowBytes * rowsPerBand / 1024, launches, worst)};
}

}  // namespace stencil2d_l2tiled

Workload stencil2dL2tiledWorkload() {
  SpecSpace spec;
  spec.tileBytes = l2TileChoices();
  spec.meaning =
      "tile bytes: the rows per band (tile / (8 n): a row of both buffers, at least 1, at most n), the working "
      "set every sweep of the band rereads; by default 256 KB, at most a quarter of the two buffers";
  return {"stencil2d-l2tiled",
          "stencil",
          "Jacobi 2-D 5-point stencil time-tiled for the L2: a launch per (skewed row band, sweep), XMem atoms",
          "grid edge (n x n, two buffers, 8 sweeps)",
          128,
          512,
          2048,
          stencil2d_l2tiled::kMaxEdge,
          stencil2d_l2tiled::run,
          std::move(spec)};
}

}  // namespace warpsim::workloads
