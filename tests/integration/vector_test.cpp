// vector_add and saxpy (tests/cuda/vector_add.cu) through the host API.
#include <gtest/gtest.h>

#include <cmath>

#include "test_support.h"

namespace warpsim::test {
namespace {

TEST(VectorKernels, VectorAddMatchesCpuForEveryElementIncludingTail) {
  runtime::Device gpu(testOptions());
  runtime::Module mod = gpu.loadModuleFile(cudaPtx("vector_add"));
  const int n = 1000;  // not a multiple of the block: the last block has idle threads
  InputGenerator gen(7);
  std::vector<float> a(n), b(n);
  for (int i = 0; i < n; ++i) {
    a[i] = static_cast<float>(gen.uniform(-1000000, 1000000)) * 1.37e-3f;
    b[i] = static_cast<float>(gen.uniform(-1000000, 1000000)) * 2.11e-3f;
  }
  uint64_t dA = gpu.upload(a), dB = gpu.upload(b);
  uint64_t dC = gpu.malloc((n + 24) * sizeof(float));
  gpu.memset(dC, 0xff, (n + 24) * sizeof(float));
  runtime::LaunchReport r =
      gpu.launch(mod.kernel("vector_add"), {blocksFor(n, 128)}, {128}, 0, dA, dB, dC, n);
  std::vector<float> c = gpu.download<float>(dC, n + 24);
  for (int i = 0; i < n; ++i) ASSERT_EQ(c[i], a[i] + b[i]) << "element " << i;
  // Threads past n must not write.
  for (int i = n; i < n + 24; ++i) ASSERT_TRUE(std::isnan(c[i])) << "element " << i;
  EXPECT_TRUE(r.result.ok);
  EXPECT_EQ(r.result.ctasExecuted, 8u);
  EXPECT_EQ(r.stats.space(ir::Space::Global).laneAccesses, 3u * n);
  EXPECT_EQ(r.stats.space(ir::Space::Global).bytes, 12u * n);
  EXPECT_EQ(r.stats.stores, r.stats.space(ir::Space::Global).instructions / 3);
}

TEST(VectorKernels, SaxpyGridStrideLoopUsesSingleRoundingFma) {
  runtime::Device gpu(testOptions());
  runtime::Module mod = gpu.loadModuleFile(cudaPtx("vector_add"));
  const int n = 5003;
  const float alpha = 0.7310586f;
  InputGenerator gen(11);
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = static_cast<float>(gen.uniform(-1 << 20, 1 << 20)) / 7919.0f;
    y[i] = static_cast<float>(gen.uniform(-1 << 20, 1 << 20)) / 104729.0f;
  }
  uint64_t dX = gpu.upload(x), dY = gpu.upload(y);
  // 4 blocks of 64 threads: every thread loops about 20 times.
  gpu.launch(mod.kernel("saxpy"), {4}, {64}, 0, n, alpha, dX, dY);
  std::vector<float> out = gpu.download<float>(dY, n);
  // nvcc contracts alpha * x + y into fma.rn.f32: one rounding, as std::fma.
  for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], std::fma(alpha, x[i], y[i])) << "element " << i;
}

TEST(VectorKernels, FullWarpsGiveFullSimdEfficiency) {
  runtime::Device gpu(testOptions());
  runtime::Module mod = gpu.loadModuleFile(cudaPtx("vector_add"));
  const int n = 4096;
  uint64_t dA = gpu.upload(std::vector<float>(n, 1.0f)), dB = gpu.upload(std::vector<float>(n, 2.0f));
  uint64_t dC = gpu.malloc(n * sizeof(float));
  runtime::LaunchReport r =
      gpu.launch(mod.kernel("vector_add"), {n / 256}, {256}, 0, dA, dB, dC, n);
  EXPECT_DOUBLE_EQ(r.stats.simdEfficiency(), 1.0);
  EXPECT_EQ(r.stats.divergentBranches, 0u);
  EXPECT_EQ(r.result.threadInstructions, 32 * r.result.warpInstructions);
  EXPECT_EQ(r.stats.warpInstructions, r.result.warpInstructions);
  EXPECT_EQ(r.stats.activeLanes, r.result.threadInstructions);
  uint64_t classSum = 0;
  for (uint64_t c : r.stats.classMix) classSum += c;
  EXPECT_EQ(classSum, r.stats.warpInstructions);
}

}  // namespace
}  // namespace warpsim::test
