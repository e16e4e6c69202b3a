// saxpy: y = alpha * x + y, repeated with a different alpha each pass (grid-stride loop over
// a fixed grid, so each thread handles several elements).
#include "check.h"
#include "workload.h"

namespace warpsim::workloads {

namespace saxpy {

constexpr int kPasses = 4;
constexpr float kAlphas[kPasses] = {1.5f, -0.75f, 2.0f, 0.25f};

Outcome run(WorkloadContext& ctx) {
  const int n = static_cast<int>(ctx.size);
  InputGenerator gen(ctx.seed);
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = gen.dyadic(-4096, 4096, 8);
    y[i] = gen.dyadic(-4096, 4096, 8);
  }
  // Verification is exact: |x|, |y| <= 16 are multiples of 2^-8 and the alphas multiples of
  // 2^-2 with |alpha| <= 2, so every product and every intermediate y (|y| <= 16 + 4.5 * 16) is
  // a multiple of 2^-10 below 2^7: 17 significant bits, nothing rounds, and fma or mul + add
  // give the same bits as the CPU.
  std::vector<float> expect = y;
  for (float alpha : kAlphas) {
    for (int i = 0; i < n; ++i) expect[i] = alpha * x[i] + expect[i];
  }

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("saxpy"), "saxpy.ptx");
  uint64_t dX = gpu.upload(x), dY = gpu.upload(y);
  // A quarter of the threads the vector needs: four elements per thread.
  uint32_t blocks = std::max(1u, ceilDiv(n, 256 * 4));
  for (float alpha : kAlphas)
    launch(ctx, mod.kernel("saxpy"), {blocks}, {256}, 0, n, alpha, dX, dY);

  std::string bad = exactMismatch("y", gpu.download<float>(dY, n), expect);
  if (!bad.empty()) return fail(bad);
  return {true, fmt::format("{} elements, {} passes, exact", n, kPasses)};
}

}  // namespace saxpy

Workload saxpyWorkload() {
  return {"saxpy",    "streaming", "y = alpha*x + y in four passes, grid-stride loop",
          "elements", 1u << 16,    1u << 20,
          1u << 23,   1u << 26,    saxpy::run};
}

}  // namespace warpsim::workloads
