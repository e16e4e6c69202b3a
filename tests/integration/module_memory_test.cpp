// Module-scope variables (tests/cuda/const_globals.cu): __constant__ data written by the host
// through its symbol address, initialised __device__ globals including a table of addresses of
// other globals, a global atomic counter; and dynamic shared memory (tests/cuda/dynamic_smem.cu).
#include <gtest/gtest.h>

#include <cmath>

#include "test_support.h"

namespace warpsim::test {
namespace {

TEST(ModuleMemory, ConstantCoefficientsInitialisedGlobalsAndCounter) {
  runtime::Device gpu(testOptions());
  runtime::Module mod = gpu.loadModuleFile(cudaPtx("const_globals"));
  ASSERT_EQ(mod.symbolSize("coeffs"), 32u);
  ASSERT_EQ(mod.symbolSize("table"), 32u);
  ASSERT_EQ(mod.symbolSize("halves"), 16u);

  // Initialisers as loaded: the int table and the two addresses into it.
  std::vector<int> table = gpu.download<int>(mod.symbolAddress("table"), 8);
  EXPECT_EQ(table, (std::vector<int>{3, 1, 4, 1, 5, 9, 2, 6}));
  std::vector<uint64_t> halves = gpu.download<uint64_t>(mod.symbolAddress("halves"), 2);
  EXPECT_EQ(halves[0], mod.symbolAddress("table"));
  EXPECT_EQ(halves[1], mod.symbolAddress("table") + 16);
  EXPECT_EQ(gpu.download<uint32_t>(mod.symbolAddress("counter"), 1)[0], 0u);

  const float coeffs[8] = {1.0f, -0.5f, 0.25f, 0.125f, -2.0f, 0.0625f, 3.0f, -0.75f};
  gpu.memcpyHtoD(mod.symbolAddress("coeffs"), coeffs, sizeof coeffs);

  const int n = 300;
  InputGenerator gen(88);
  std::vector<float> x(n);
  for (float& v : x) v = static_cast<float>(gen.uniform(-300000, 300000)) / 100003.0f;
  uint64_t dX = gpu.upload(x), dOut = gpu.malloc(n * 4), dPicked = gpu.malloc(n * 4);
  gpu.launch(mod.kernel("const_globals"), {blocksFor(n, 128)}, {128}, 0, dX, dOut, dPicked, n);

  std::vector<float> out = gpu.download<float>(dOut, n);
  std::vector<int> picked = gpu.download<int>(dPicked, n);
  for (int i = 0; i < n; ++i) {
    float poly = 0.0f;
    for (int k = 7; k >= 0; --k) poly = std::fma(poly, x[i], coeffs[k]);  // contracted Horner
    EXPECT_EQ(out[i], poly) << "x = " << x[i];
    EXPECT_EQ(picked[i], table[(i & 1) * 4 + (i & 3)]) << "thread " << i;
  }
  EXPECT_EQ(gpu.download<uint32_t>(mod.symbolAddress("counter"), 1)[0], uint32_t(n));

  // A second launch keeps counting: module variables persist across launches.
  gpu.launch(mod.kernel("const_globals"), {1}, {32}, 0, dX, dOut, dPicked, 32);
  EXPECT_EQ(gpu.download<uint32_t>(mod.symbolAddress("counter"), 1)[0], uint32_t(n + 32));
}

TEST(ModuleMemory, TwoModulesHaveSeparateVariables) {
  runtime::Device gpu(testOptions());
  runtime::Module first = gpu.loadModuleFile(cudaPtx("const_globals"));
  runtime::Module second = gpu.loadModuleFile(cudaPtx("const_globals"));
  EXPECT_NE(first.symbolAddress("counter"), second.symbolAddress("counter"));
  uint32_t seven = 7;
  gpu.memcpyHtoD(first.symbolAddress("counter"), &seven, 4);
  EXPECT_EQ(gpu.download<uint32_t>(second.symbolAddress("counter"), 1)[0], 0u);
  // halves of the second module point into the second module's table.
  EXPECT_EQ(gpu.download<uint64_t>(second.symbolAddress("halves"), 1)[0],
            second.symbolAddress("table"));
}

TEST(ModuleMemory, DynamicSharedMemorySizedAtLaunch) {
  runtime::Device gpu(testOptions());
  runtime::Module mod = gpu.loadModuleFile(cudaPtx("dynamic_smem"));
  const int n = 1000;
  const uint32_t block = 128;
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) in[i] = i * 3 - 700;
  uint64_t dIn = gpu.upload(in), dOut = gpu.malloc(n * 4);
  runtime::LaunchReport r = gpu.launch(mod.kernel("reverse_block"), {blocksFor(n, block)},
                                       {block}, 2 * block * sizeof(int), dIn, dOut, n);
  std::vector<int> out = gpu.download<int>(dOut, n);
  for (int i = 0; i < n; ++i) {
    int base = i / int(block) * int(block);
    int src = base + int(block) - 1 - (i - base);
    int v = src < n ? in[src] : -1;
    ASSERT_EQ(out[i], v + 2 * v * 1000) << "element " << i;
  }
  EXPECT_EQ(r.dynamicSharedBytes, 2 * block * sizeof(int));
  // Every thread stores two ints; only threads below n load two back.
  EXPECT_EQ(r.stats.space(ir::Space::Shared).bytes, uint64_t(blocksFor(n, block)) * block * 8 + n * 8);
}

TEST(ModuleMemory, TooLittleDynamicSharedMemoryIsAnErrorNamingTheKernel) {
  runtime::Device gpu(testOptions());
  runtime::Module mod = gpu.loadModuleFile(cudaPtx("dynamic_smem"));
  uint64_t dIn = gpu.upload(std::vector<int>(64, 1)), dOut = gpu.malloc(64 * 4);
  try {
    gpu.launch(mod.kernel("reverse_block"), {1}, {64}, 64, dIn, dOut, 64);  // needs 512 bytes
    FAIL() << "expected a shared-memory fault";
  } catch (const runtime::LaunchError& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("reverse_block"), std::string::npos) << what;
    EXPECT_NE(what.find("dynamic_smem.ptx:"), std::string::npos) << what;
    EXPECT_NE(what.find("shared"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace warpsim::test
