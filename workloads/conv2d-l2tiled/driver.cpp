// conv2d-l2tiled: a bank of F = 8 image filters (3 x 3 convolutions) over one image, tiled for the
// last-level cache, the L2, with XMem atoms written by hand (the XMem cache-management study: a
// tile tuned for one L2 size, run on smaller ones). See conv2d-l2tiled.cu. Checked exactly
// against a CPU reference (every product and sum is exact in float: see the tolerance below).
//
// The image (n x n) is cut into bands of rowsPerBand rows, a band being the tile's working set:
// rowsPerBand n 4 bytes (plus a row above and below), about the tile size asked for
// (WorkloadContext::tileBytes; by default 256 KB, a third of gtx480's 768 KB L2, at most a quarter
// of the image). For each band the host walks the filters, one launch per (band, filter) writing
// that filter's output at the band's rows: each launch streams the whole band once (nine FMAs and
// one 4-byte output per 4-byte pixel), as gemv-l2tiled streams a panel per vector. So each band
// is read again by every filter's launch: its reuse distance is the band itself (plus the output
// rows the launch writes, which an LRU L2 allocates too), and when the band does not fit the L2
// an LRU L2 thrashes on it and every launch reads it from DRAM; when it fits, only the first
// launch does. Every tile size does the same work.
//
// The filters, an edge and texture bank of the kind image-processing and the first layer of
// feature extractors apply (3 x 3, as VGG-style networks use): Gaussian blur, Sobel gradients
// along x, y and both diagonals, the 4-neighbour Laplacian, a sharpening filter and an
// 8-neighbour high-pass.
//
// Sizes: n is the size (the image n x n; 1 MB at n = 512), F = 8 outputs n x n (only their
// interior written; the border keeps its zeros).
#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

#include "check.h"
#include "l2_tiling.h"
#include "photo_image.h"
#include "runtime/error.h"
#include "workload.h"

namespace warpsim::workloads {

namespace conv2d_l2tiled {

constexpr int kBlockX = 32, kBlockY = 8;  // CTAs of 32 x 8 = 256 threads
constexpr int kFilters = 8;               // F: every band is read by 8 launches
constexpr int kTaps = 9;                  // 3 x 3, row by row
constexpr uint64_t kMinEdge = 8, kMaxEdge = 4096;  // photoImage needs 8

// The bank, weights row by row (row offset -1, 0, +1; column offset -1, 0, +1 within a row).
// Every weight is a multiple of 1/16 (dyadic): exact in float.
constexpr std::array<std::array<float, kTaps>, kFilters> kBank = {{
    {1 / 16.f, 2 / 16.f, 1 / 16.f, 2 / 16.f, 4 / 16.f, 2 / 16.f, 1 / 16.f, 2 / 16.f, 1 / 16.f},  // Gaussian
    {-1 / 8.f, 0, 1 / 8.f, -2 / 8.f, 0, 2 / 8.f, -1 / 8.f, 0, 1 / 8.f},                          // Sobel x
    {-1 / 8.f, -2 / 8.f, -1 / 8.f, 0, 0, 0, 1 / 8.f, 2 / 8.f, 1 / 8.f},                          // Sobel y
    {0, 1 / 8.f, 2 / 8.f, -1 / 8.f, 0, 1 / 8.f, -2 / 8.f, -1 / 8.f, 0},                          // Sobel 45
    {2 / 8.f, 1 / 8.f, 0, 1 / 8.f, 0, -1 / 8.f, 0, -1 / 8.f, -2 / 8.f},                          // Sobel 135
    {0, 1, 0, 1, -4, 1, 0, 1, 0},                                                                // Laplacian
    {0, -1, 0, -1, 5, -1, 0, -1, 0},                                                             // sharpen
    {-1 / 8.f, -1 / 8.f, -1 / 8.f, -1 / 8.f, 1, -1 / 8.f, -1 / 8.f, -1 / 8.f, -1 / 8.f},         // high-pass
}};

Outcome run(WorkloadContext& ctx) {
  if (ctx.size < kMinEdge || ctx.size > kMaxEdge) {
    throw runtime::Error(
        fmt::format("conv2d-l2tiled: image edge {} to {}, not {}", kMinEdge, kMaxEdge, ctx.size));
  }
  const int n = static_cast<int>(ctx.size);
  const size_t pixels = static_cast<size_t>(n) * n;
  const uint64_t rowBytes = uint64_t{4} * n, imageBytes = rowBytes * n;
  const int rowsPerBand = panelRows(ctx, "conv2d-l2tiled", rowBytes, n);
  InputGenerator gen(ctx.seed);
  // A photograph-like grey image (photo_image.h): 8-bit intensities held as floats.
  const std::vector<float> image = photoImage(gen, n, n);
  std::vector<float> weights;
  for (const auto& filter : kBank) weights.insert(weights.end(), filter.begin(), filter.end());

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("conv2d-l2tiled"), "conv2d-l2tiled.ptx");
  const runtime::Kernel kernel = mod.kernel("conv2d_l2tiled");
  const uint64_t dImage = gpu.upload(image), dWeights = gpu.upload(weights);
  const uint64_t dOut = gpu.upload(std::vector<float>(kFilters * pixels, 0.0f));  // output f at f n^2

  // XMem atoms (include/warpsim/xmem.h), one per structure, created once per call site:
  // - the band: its rows and the one above and below, walked along (stride 4 bytes), read
  //   again by every filter's launch while it is current: the most reuse and the most
  //   intensity, the working set to keep in the L2;
  // - the filters: 288 bytes, read by every thread of every launch (broadcast words): tiny,
  //   reused throughout;
  // - the outputs: written once per pixel, never read: reuse 0 (streamed out, bypassing the
  //   L2 under the policy).
  // They are hints for the timing model: they never change the result, and configurations
  // without the policy ignore them.
  const uint32_t atomBand = floatAtom(gpu, "conv2d-l2tiled:image band", 4, 200, kFilters, WARPSIM_ATOM_READ_ONLY);
  const uint32_t atomFilters = floatAtom(gpu, "conv2d-l2tiled:filters", 4, 100, kFilters, WARPSIM_ATOM_READ_ONLY);
  const uint32_t atomOut = floatAtom(gpu, "conv2d-l2tiled:outputs", 4, 200, 0, WARPSIM_ATOM_WRITE_ONLY);
  // The filters and outputs once; the bands one at a time, below. The operations go with the next
  // launch.
  mapAtom(gpu, hints::AtomOp::Kind::Map, atomFilters, dWeights, uint64_t{4} * weights.size());
  mapAtom(gpu, hints::AtomOp::Kind::Map, atomOut, dOut, kFilters * imageBytes);
  activateAtoms(gpu, {atomBand, atomFilters, atomOut});
  PanelAtom band(gpu, atomBand);
  int bands = 0, launches = 0;
  for (int row0 = 0; row0 < n; row0 += rowsPerBand) {
    const int lo = std::max(1, row0), hi = std::min(n - 1, row0 + rowsPerBand);  // interior rows
    if (lo >= hi) continue;  // a band of border rows only: nothing to compute
    const int read0 = lo - 1, read1 = hi + 1;  // the rows its launches read
    band.moveTo(dImage + rowBytes * read0, rowBytes * (read1 - read0));  // contiguous: a 1-D map
    ++bands;
    for (int f = 0; f < kFilters; ++f) {
      launch(ctx, kernel, {ceilDiv(n, kBlockX), ceilDiv(hi - lo, kBlockY)}, {kBlockX, kBlockY}, 0, n, lo, hi - lo,
             dImage, dWeights + uint64_t{4} * kTaps * f, dOut + imageBytes * f);
      ++launches;
    }
  }

  // Tolerance: none; the result must be exact. The pixels are integers 0 to 255 and every
  // weight a multiple of 1/16 of magnitude at most 5, so every product is a multiple of 1/16
  // below 1276 in magnitude and every partial sum of at most nine of them a multiple of 1/16
  // below 2^14: 18 significant bits, exact in float (24), whatever the order. The kernel's FMA
  // chain and the reference (in double) therefore compute the same value, and so does every
  // tile size. The border of every output must keep its zeros.
  std::vector<float> expect(kFilters * pixels, 0.0f);
  for (int f = 0; f < kFilters; ++f) {
    const auto& w = kBank[f];
    for (int i = 1; i < n - 1; ++i) {
      for (int j = 1; j < n - 1; ++j) {
        double sum = 0;
        for (int di = -1; di <= 1; ++di) {
          const float* row = &image[static_cast<size_t>(i + di) * n + j - 1];
          for (int dj = 0; dj < 3; ++dj) sum += static_cast<double>(w[3 * (di + 1) + dj]) * row[dj];
        }
        expect[f * pixels + static_cast<size_t>(i) * n + j] = static_cast<float>(sum);
      }
    }
  }
  const std::vector<float> got = gpu.download<float>(dOut, kFilters * pixels);
  for (size_t k = 0; k < got.size(); ++k) {
    if (!(got[k] == expect[k])) {
      return fail(fmt::format("output of filter {} at ({}, {}) = {} expected {}", k / pixels, k % pixels / n,
                              k % n, got[k], expect[k]));
    }
  }
  return {true, fmt::format("image {0} x {0}, {1} filters: {2} band(s) of {3} rows ({4} KB), {5} launches; exact",
                            n, kFilters, bands, rowsPerBand, rowBytes * rowsPerBand / 1024, launches)};
}

}  // namespace conv2d_l2tiled

Workload conv2dL2tiledWorkload() {
  SpecSpace spec;
  spec.tileBytes = l2TileChoices();
  spec.meaning =
      "tile bytes: the image rows per band (tile / (4 n), at least 1, at most n), the working set every "
      "filter's launch rereads; by default 256 KB, at most a quarter of the image";
  return {"conv2d-l2tiled",
          "stencil",
          "bank of 8 3 x 3 image filters tiled for the L2: a launch per (image row band, filter), XMem atoms",
          "image edge (n x n, 8 filters)",
          128,
          512,
          2048,
          conv2d_l2tiled::kMaxEdge,
          conv2d_l2tiled::run,
          std::move(spec)};
}

}  // namespace warpsim::workloads
