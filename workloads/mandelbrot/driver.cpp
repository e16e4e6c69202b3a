// mandelbrot: escape-time iteration counts of an n x n view of the Mandelbrot set.
#include <cmath>

#include "check.h"
#include "workload.h"

namespace warpsim::workloads {

namespace mandelbrot {

constexpr int kMaxIterations = 256;

Outcome run(WorkloadContext& ctx) {
  const int n = static_cast<int>(ctx.size);
  const size_t pixels = static_cast<size_t>(n) * n;
  // The view [-2.1, 0.5] x [-1.3, 1.3]; the seed shifts it by up to a tenth of its width.
  InputGenerator gen(ctx.seed);
  const float x0 = static_cast<float>(-2.1 + uniformReal(gen, -0.1, 0.1));
  const float y0 = static_cast<float>(-1.3 + uniformReal(gen, -0.1, 0.1));
  const float step = static_cast<float>(2.6 / n);

  // Verification is exact: the kernel's arithmetic is a fixed sequence of correctly rounded
  // float operations (fma, mul, add, sub with round-to-nearest intrinsics, nothing left to
  // contraction), and the loop below performs the same operations in the same order, so every
  // pixel takes the same number of iterations.
  std::vector<int> expect(pixels);
  for (int py = 0; py < n; ++py) {
    for (int px = 0; px < n; ++px) {
      float cx = std::fma(static_cast<float>(px), step, x0);
      float cy = std::fma(static_cast<float>(py), step, y0);
      float x = 0.0f, y = 0.0f;
      int it = 0;
      while (it < kMaxIterations) {
        float x2 = x * x;
        float y2 = y * y;
        float r2 = x2 + y2;
        if (r2 > 4.0f) break;
        float xy = x * y;
        y = std::fma(2.0f, xy, cy);
        float d = x2 - y2;
        x = d + cx;
        ++it;
      }
      expect[static_cast<size_t>(py) * n + px] = it;
    }
  }

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("mandelbrot"), "mandelbrot.ptx");
  uint64_t dOut = gpu.malloc(pixels * sizeof(int));
  launch(ctx, mod.kernel("mandelbrot"), {ceilDiv(n, 16), ceilDiv(n, 16)}, {16, 16}, 0, dOut, n, n,
         x0, y0, step, kMaxIterations);

  std::string bad = exactMismatch("iterations", gpu.download<int>(dOut, pixels), expect);
  if (!bad.empty()) return fail(bad);
  long long total = 0;
  for (int it : expect) total += it;
  return {true, fmt::format("{0} x {0} pixels, {1:.1f} iterations per pixel on average, exact", n,
                            static_cast<double>(total) / pixels)};
}

}  // namespace mandelbrot

Workload mandelbrotWorkload() {
  return {"mandelbrot",
          "divergence",
          "escape-time Mandelbrot set: data-dependent loop lengths diverge within warps",
          "image edge",
          128,
          512,
          1024,
          1u << 14,
          mandelbrot::run};
}

}  // namespace warpsim::workloads
