// dwt2d: forward 2-D CDF 5/3 wavelet transform (JPEG 2000's reversible one) of a
// photograph-like image, a row pass and a column pass per level (see dwt2d.cu), checked exactly
// against the same integer lifting on the CPU.
#include <cstdlib>

#include "check.h"
#include "locality_hints.h"
#include "photo_image.h"
#include "workload.h"

namespace warpsim::workloads {

namespace dwt2d {

constexpr uint32_t kBlockX = 32, kBlockY = 8;
constexpr int kLevels = 3;  // decomposition levels (the image edge is a multiple of 2^kLevels)

// The lifting of dwt2d.cu on one line of n elements `step` apart, from `in` to `out`.
void liftLine(const int* in, int* out, int n, size_t step) {
  auto x = [&](int k) { return in[static_cast<size_t>(k) * step]; };
  auto high = [&](int i) { return x(2 * i + 1) - ((x(2 * i) + (2 * i + 2 < n ? x(2 * i + 2) : x(2 * i))) >> 1); };
  for (int i = 0; i < n / 2; ++i) {
    const int d = high(i), before = i > 0 ? high(i - 1) : d;
    out[static_cast<size_t>(i) * step] = x(2 * i) + ((before + d + 2) >> 2);
    out[static_cast<size_t>(n / 2 + i) * step] = d;
  }
}

Outcome run(WorkloadContext& ctx) {
  const int edge = static_cast<int>(ctx.size);
  if (edge % (1 << kLevels) != 0) {
    return fail(fmt::format("dwt2d: the image edge {} is not a multiple of {}", edge, 1 << kLevels));
  }
  const size_t elems = static_cast<size_t>(edge) * edge;
  InputGenerator gen(ctx.seed);
  // The image's samples level-shifted to signed values (x - 128), as JPEG 2000 codes them.
  const std::vector<float> photo = photoImage(gen, edge, edge);
  std::vector<int> image(elems);
  for (size_t k = 0; k < elems; ++k) image[k] = static_cast<int>(photo[k]) - 128;

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("dwt2d"), "dwt2d.ptx");
  uint64_t dImage = gpu.upload(image), dTmp = gpu.upload(image);  // tmp: outside the region, as image
  for (int level = 0, w = edge; level < kLevels; ++level, w /= 2) {
    const uint32_t uw = static_cast<uint32_t>(w), pitch = static_cast<uint32_t>(edge);
    const func::Dim3 rowGrid{ceilDiv(w / 2, kBlockX), ceilDiv(w, kBlockY)};
    const func::Dim3 colGrid{ceilDiv(w, kBlockX), ceilDiv(w / 2, kBlockY)};
    // Locality descriptors (the thesis's Table 4 gives dwt2d INTER_THREAD (NEARBY, REGULAR)),
    // for each launch (the region shrinks with the level). The structure is the rows the
    // level's region spans, whole (pitch ints wide; the region is their first w ints).
    // - Row pass, the image: neighbouring threads read overlapping neighbouring ints of a row
    //   (five each, two shared with each neighbour), and a CTA's 66 ints straddle the line of
    //   the CTA to its left: NEARBY, walked along the row (stride 1). The D-Tile is the band
    //   of 8 rows a grid row of CTAs reads (C-Tile: the grid row, traversed along y).
    // - Column pass, the row pass's output: each thread reads five rows of its column, the
    //   two at either end also read by the threads above and below (and across the CTA edge
    //   by the CTA below): NEARBY, walked down the column (stride pitch). The D-Tile is the
    //   32-column strip a grid column of CTAs reads (C-Tile: the grid column, along x).
    gpu.addLocalityDescriptor(interThread({dImage, {pitch, uw, 1}, 4},
                                          {{pitch, std::min<uint32_t>(kBlockY, uw), 1}, {rowGrid.x, 1, 1}, {0, 1, 0}},
                                          WARPSIM_NEARBY, WARPSIM_REGULAR, 1));
    launch(ctx, mod.kernel("dwt53_rows"), rowGrid, {kBlockX, kBlockY}, 0, dImage, dTmp, w, w, edge);
    gpu.addLocalityDescriptor(interThread({dTmp, {pitch, uw, 1}, 4},
                                          {{std::min<uint32_t>(kBlockX, pitch), uw, 1}, {1, colGrid.y, 1}, {1, 0, 0}},
                                          WARPSIM_NEARBY, WARPSIM_REGULAR, pitch));
    launch(ctx, mod.kernel("dwt53_cols"), colGrid, {kBlockX, kBlockY}, 0, dTmp, dImage, w, w, edge);
  }
  const std::vector<int> got = gpu.download<int>(dImage, elems);

  // The reference: the same integer lifting, level by level, rows then columns. Integer
  // arithmetic (the shifts are floors, as on the GPU): the result must match exactly.
  std::vector<int> ref = image, tmp = image;
  for (int level = 0, w = edge; level < kLevels; ++level, w /= 2) {
    for (int y = 0; y < w; ++y) {
      liftLine(&ref[static_cast<size_t>(y) * edge], &tmp[static_cast<size_t>(y) * edge], w, 1);
    }
    for (int x = 0; x < w; ++x) liftLine(&tmp[x], &ref[x], w, edge);
  }
  std::string bad = exactMismatch("coefficients", got, ref);
  if (!bad.empty()) return fail(bad);
  // What makes the transform worth coding: most high-pass coefficients are small.
  size_t highCount = 0, small = 0;
  for (int y = 0; y < edge; ++y) {
    for (int x = 0; x < edge; ++x) {
      if (x < (edge >> kLevels) && y < (edge >> kLevels)) continue;  // the last LL band
      ++highCount;
      small += std::abs(ref[static_cast<size_t>(y) * edge + x]) <= 2;
    }
  }
  return {true, fmt::format("{0} x {0} image, {1} levels, exact; {2:.1f}% of the high-pass "
                            "coefficients within +-2",
                            edge, kLevels, 100.0 * small / highCount)};
}

}  // namespace dwt2d

// The default is Rodinia's dwt2d input size, 1024 x 1024.
Workload dwt2dWorkload() {
  return {"dwt2d",
          "stencil",
          "forward 2-D CDF 5/3 wavelet transform (JPEG 2000's reversible one) by lifting, 3 "
          "levels of a row then a column pass, a thread per coefficient pair",
          "image edge (a multiple of 8)",
          256,
          1024,
          4096,
          16384,
          dwt2d::run};
}

}  // namespace warpsim::workloads
