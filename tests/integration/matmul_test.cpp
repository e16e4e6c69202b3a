// Tiled matrix multiply (tests/cuda/matmul_tiled.cu): shared memory, barriers, partial tiles.
#include <gtest/gtest.h>

#include "test_support.h"

namespace warpsim::test {
namespace {

void checkProduct(int m, int n, int k) {
  runtime::Device gpu(testOptions());
  runtime::Module mod = gpu.loadModuleFile(cudaPtx("matmul_tiled"));
  InputGenerator gen(static_cast<uint64_t>(m * 10000 + n * 100 + k));
  // Multiples of 1/16 with |x| <= 4: every product and partial sum is exact in float, so the
  // result does not depend on the order of accumulation.
  std::vector<float> A(static_cast<size_t>(m) * k), B(static_cast<size_t>(k) * n);
  for (float& e : A) e = gen.dyadic(-64, 64, 4);
  for (float& e : B) e = gen.dyadic(-64, 64, 4);
  uint64_t dA = gpu.upload(A), dB = gpu.upload(B), dC = gpu.malloc(uint64_t(m) * n * 4);
  runtime::LaunchReport r =
      gpu.launch(mod.kernel("matmul_tiled"), {blocksFor(n, 16), blocksFor(m, 16)}, {16, 16}, 0,
                 dA, dB, dC, m, n, k);
  std::vector<float> C = gpu.download<float>(dC, size_t(m) * n);
  for (int row = 0; row < m; ++row) {
    for (int col = 0; col < n; ++col) {
      double sum = 0;
      for (int i = 0; i < k; ++i) sum += double(A[row * k + i]) * B[i * n + col];
      ASSERT_EQ(C[size_t(row) * n + col], static_cast<float>(sum)) << row << "," << col;
    }
  }
  EXPECT_GT(r.stats.space(ir::Space::Shared).instructions, 0u);
  // Every thread executes 2 barriers per tile of k.
  uint64_t warps = uint64_t(blocksFor(n, 16)) * blocksFor(m, 16) * 8;
  EXPECT_EQ(r.stats.ofClass(ir::OpClass::Barrier), warps * 2 * blocksFor(k, 16));
}

TEST(MatmulTiled, SquareMultipleOfTile) { checkProduct(32, 32, 32); }
TEST(MatmulTiled, RaggedEdgesInEveryDimension) { checkProduct(37, 45, 50); }
TEST(MatmulTiled, SingleRowTimesColumn) { checkProduct(1, 1, 70); }

}  // namespace
}  // namespace warpsim::test
