// conv-separable: 17-tap Gaussian blur of an n x n image as a row pass and a column pass,
// the filter in constant memory.
#include <cmath>

#include "check.h"
#include "workload.h"

namespace warpsim::workloads {

namespace conv_separable {

constexpr int kRadius = 8;
constexpr int kTaps = 2 * kRadius + 1;

Outcome run(WorkloadContext& ctx) {
  const int w = static_cast<int>(ctx.size), h = w;
  const size_t pixels = static_cast<size_t>(w) * h;
  InputGenerator gen(ctx.seed);
  std::vector<float> image(pixels);
  for (float& v : image) v = static_cast<float>(uniformReal(gen, 0.0, 1.0));
  std::vector<float> filter(kTaps);
  double norm = 0;
  for (int k = 0; k < kTaps; ++k) norm += std::exp(-0.5 * (k - kRadius) * (k - kRadius) / 16.0);
  for (int k = 0; k < kTaps; ++k) {
    filter[k] = static_cast<float>(std::exp(-0.5 * (k - kRadius) * (k - kRadius) / 16.0) / norm);
  }

  // Tolerance: a float sum of 17 products is within about 19 u sum|w*x| of the exact value
  // (u = 2^-24). The row pass is checked with that bound (doubled for slack). The column pass
  // sums rows that already carry that error, so its bound is 19 u sum_k |w_k| R_k for its own
  // rounding plus the same again for the inherited error, where R is the row pass's sum|w*x|;
  // doubled for slack. References are exact sums in double of the float data.
  std::vector<double> rowRef(pixels), rowMag(pixels), colRef(pixels), colMag(pixels);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      double s = 0, m = 0;
      for (int k = 0; k < kTaps; ++k) {
        int xx = x - kRadius + k;
        if (xx < 0 || xx >= w) continue;
        double p = static_cast<double>(filter[k]) * image[static_cast<size_t>(y) * w + xx];
        s += p;
        m += std::fabs(p);
      }
      rowRef[static_cast<size_t>(y) * w + x] = s;
      rowMag[static_cast<size_t>(y) * w + x] = m;
    }
  }
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      double s = 0, m = 0;
      for (int k = 0; k < kTaps; ++k) {
        int yy = y - kRadius + k;
        if (yy < 0 || yy >= h) continue;
        s += static_cast<double>(filter[k]) * rowRef[static_cast<size_t>(yy) * w + x];
        m += std::fabs(filter[k]) * rowMag[static_cast<size_t>(yy) * w + x];
      }
      colRef[static_cast<size_t>(y) * w + x] = s;
      colMag[static_cast<size_t>(y) * w + x] = m;
    }
  }
  std::vector<double> rowBound(pixels), colBound(pixels);
  for (size_t i = 0; i < pixels; ++i) {
    rowBound[i] = 2 * 19 * kFloatUnit * rowMag[i];
    colBound[i] = 4 * 19 * kFloatUnit * colMag[i];
  }

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("conv-separable"), "conv-separable.ptx");
  gpu.memcpyHtoD(mod.symbolAddress("c_filter"), filter.data(), kTaps * sizeof(float));
  uint64_t dImage = gpu.upload(image), dRows = gpu.malloc(pixels * sizeof(float));
  uint64_t dOut = gpu.malloc(pixels * sizeof(float));
  launch(ctx, mod.kernel("conv_rows"), {ceilDiv(w, 128), ceilDiv(h, 8)}, {32, 8}, 0, dImage, dRows,
         w, h);
  launch(ctx, mod.kernel("conv_columns"), {ceilDiv(w, 32), ceilDiv(h, 32)}, {32, 8}, 0, dRows, dOut,
         w, h);

  double worstRow = 0, worstCol = 0;
  std::string bad =
      boundedMismatch("row pass", gpu.download<float>(dRows, pixels), rowRef, rowBound, &worstRow);
  if (bad.empty()) {
    bad = boundedMismatch("column pass", gpu.download<float>(dOut, pixels), colRef, colBound,
                          &worstCol);
  }
  if (!bad.empty()) return fail(bad);
  return {true, fmt::format("{0} x {0} image, worst error {1:.2g} (rows) and {2:.2g} (columns) "
                            "of the bound",
                            w, worstRow, worstCol)};
}

}  // namespace conv_separable

Workload convSeparableWorkload() {
  return {"conv-separable",
          "dense",
          "17-tap separable convolution, filter in constant memory, row and column passes",
          "image edge",
          256,
          1024,
          2048,
          8192,
          conv_separable::run};
}

}  // namespace warpsim::workloads
