// Tiled matrix multiply C = A * B of square matrices (shared-memory tiles, __syncthreads).
#include <fmt/format.h>

#include "bundled_ptx.h"
#include "examples/example.h"
#include "examples/input.h"

namespace warpsim::app {

namespace {

ExampleOutcome run(ExampleContext& ctx) {
  runtime::Device& gpu = ctx.device;
  const int n = static_cast<int>(ctx.size);
  InputGenerator gen(ctx.seed);
  // Entries k / 16 with |k| <= 64: every product and partial sum (at most 2^24 in magnitude in
  // units of 1/256 for n <= 1024) is exact, so the order of accumulation does not matter.
  std::vector<float> A(static_cast<size_t>(n) * n), B(A.size());
  for (float& e : A) e = gen.dyadic(-64, 64, 4);
  for (float& e : B) e = gen.dyadic(-64, 64, 4);

  runtime::Module mod = gpu.loadModule(bundledPtx("matmul_tiled"), "matmul_tiled.ptx");
  uint64_t dA = gpu.upload(A), dB = gpu.upload(B), dC = gpu.malloc(A.size() * sizeof(float));
  uint32_t tiles = static_cast<uint32_t>((n + 15) / 16);
  ctx.reports.push_back(
      gpu.launch(mod.kernel("matmul_tiled"), {tiles, tiles}, {16, 16}, 0, dA, dB, dC, n, n, n));
  std::vector<float> C = gpu.download<float>(dC, A.size());

  for (int r = 0; r < n; ++r) {
    for (int c = 0; c < n; ++c) {
      double sum = 0;
      for (int k = 0; k < n; ++k) sum += static_cast<double>(A[r * n + k]) * B[k * n + c];
      float got = C[static_cast<size_t>(r) * n + c];
      if (got != static_cast<float>(sum)) {
        return {false, fmt::format("C[{}][{}] = {} expected {}", r, c, got, sum)};
      }
    }
  }
  return {true, fmt::format("{0}x{0} product exact", n)};
}

}  // namespace

void registerMatmul(ExampleRegistry& r) {
  r.add({"matmul", "tiled matrix multiply, 16x16 shared-memory tiles (matmul_tiled.ptx)", 200, 1024,
         "matrix edge", run});
}

}  // namespace warpsim::app
