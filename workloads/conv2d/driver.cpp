// conv2d: PolyBench's 2DConvolution, a 3 x 3 filter over a photograph-like image, one thread per
// output pixel (see conv2d.cu), checked against a double-precision reference within a derived
// bound; the border of the output must keep its initial zeros.
#include <cmath>

#include "check.h"
#include "locality_hints.h"
#include "photo_image.h"
#include "workload.h"

namespace warpsim::workloads {

namespace conv2d {

constexpr uint32_t kBlockX = 32, kBlockY = 8;  // as PolyBench/GPU: a warp is 32 pixels of a row
// The filter, by row offset then column offset (conv2d.cu), as the float constants the kernel
// multiplies by.
constexpr float kWeights[3][3] = {{0.2f, 0.5f, -0.8f}, {-0.3f, 0.6f, -0.9f}, {0.4f, 0.7f, 0.10f}};

Outcome run(WorkloadContext& ctx) {
  const int ni = static_cast<int>(ctx.size), nj = ni;  // square, as in PolyBench
  const size_t elems = static_cast<size_t>(ni) * nj;
  InputGenerator gen(ctx.seed);
  const std::vector<float> a = photoImage(gen, ni, nj);

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("conv2d"), "conv2d.ptx");
  uint64_t dA = gpu.upload(a), dB = gpu.upload(std::vector<float>(elems, 0.0f));
  const func::Dim3 grid{ceilDiv(nj, kBlockX), ceilDiv(ni, kBlockY)};

  // Locality descriptor (the thesis's Table 4 gives Convolution-2D INTER_THREAD (NEARBY)): the
  // image A. Neighbouring threads read neighbouring pixels, and each input line is read by
  // several warps and CTAs: along x, a warp's 34-pixel rows straddle the lines of its
  // neighbours (every line of a row is read by three CTAs of the grid row); along y, the CTAs
  // above and below read one row of the band each. The D-Tile is a band of 8 rows across the
  // image, the C-Tile the grid row of CTAs that computes it (traversed along y): the CTAs that
  // share the most lines. NEARBY (next-line prefetch); the pattern is regular, a warp walking
  // neighbouring elements (stride 1). B is written once; Table 4 gives it no descriptor.
  setLocalityDescriptors(ctx, "conv2d",
                         {interThread({dA, {uint32_t(nj), uint32_t(ni), 1}, 4},
                                      {{uint32_t(nj), kBlockY, 1}, {grid.x, 1, 1}, {0, 1, 0}},
                                      WARPSIM_NEARBY, WARPSIM_REGULAR, 1)});
  launch(ctx, mod.kernel("conv2d"), grid, {kBlockX, kBlockY}, 0, ni, nj, dA, dB);
  const std::vector<float> b = gpu.download<float>(dB, elems);

  // Tolerance (u = 2^-24). Each interior pixel is a product and eight FMAs over the nine terms,
  // each rounding once, so it is within 9 u sum |w a| of the exact sum of the float weights
  // times the pixels (first order), doubled for slack. The pixels are integers and the weights
  // floats, so the reference's products are exact in double. The border must stay 0 exactly.
  std::vector<double> expect(elems, 0.0), bound(elems, 0.0);
  for (int i = 1; i < ni - 1; ++i) {
    for (int j = 1; j < nj - 1; ++j) {
      double s = 0, magnitude = 0;
      for (int di = -1; di <= 1; ++di) {
        for (int dj = -1; dj <= 1; ++dj) {
          double term = static_cast<double>(kWeights[di + 1][dj + 1]) *
                        a[static_cast<size_t>(i + di) * nj + (j + dj)];
          s += term;
          magnitude += std::fabs(term);
        }
      }
      expect[static_cast<size_t>(i) * nj + j] = s;
      bound[static_cast<size_t>(i) * nj + j] = 2 * 9 * kFloatUnit * magnitude;
    }
  }
  double worst = 0;
  std::string bad = boundedMismatch("B", b, expect, bound, &worst);
  if (!bad.empty()) return fail(bad);
  return {true, fmt::format("B {0} x {0}, worst error {1:.2g} of the bound", ni, worst)};
}

}  // namespace conv2d

// PolyBench/GPU's image, 4096 x 4096, is the large size.
Workload conv2dWorkload() {
  return {"conv2d",
          "stencil",
          "3 x 3 convolution with PolyBench's coefficients over a photograph-like image, a thread "
          "per pixel",
          "image edge",
          384,
          1536,
          4096,
          16384,
          conv2d::run};
}

}  // namespace warpsim::workloads
