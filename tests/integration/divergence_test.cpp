// Divergent control flow (tests/cuda/divergence.cu) and a -G switch (tests/cuda/switch_stmt.cu).
#include <gtest/gtest.h>

#include "test_support.h"

namespace warpsim::test {
namespace {

int divergentReference(int v) {
  int r;
  if (v % 2 == 0) {
    r = v % 3 == 0 ? v / 6 : v * 3 + 1;
  } else {
    r = v > 100 ? v - 100 : -v;
  }
  int steps = 0;
  unsigned x = static_cast<unsigned>(v) + 1u;
  while (true) {
    if (x == 1u) break;
    x = (x & 1u) ? 3u * x + 1u : x >> 1;
    if (++steps >= 64) break;
  }
  return r * 1000 + steps;
}

TEST(Divergence, NestedBranchesLoopBreakAndEarlyReturnsReconverge) {
  runtime::Device gpu(testOptions());
  runtime::Module mod = gpu.loadModuleFile(cudaPtx("divergence"));
  const int n = 777;
  InputGenerator gen(9);
  std::vector<int> in(n);
  for (int& v : in) v = static_cast<int>(gen.uniform(-50, 300));
  const int sentinel = 0x5a5a5a5a;
  uint64_t dIn = gpu.upload(in), dOut = gpu.upload(std::vector<int>(n, sentinel));
  runtime::LaunchReport r =
      gpu.launch(mod.kernel("divergent_paths"), {blocksFor(n, 64)}, {64}, 0, dIn, dOut, n);
  std::vector<int> out = gpu.download<int>(dOut, n);
  for (int i = 0; i < n; ++i) {
    int expect = in[i] < 0 ? sentinel : divergentReference(in[i]);
    ASSERT_EQ(out[i], expect) << "element " << i << " input " << in[i];
  }
  EXPECT_GT(r.stats.divergentBranches, 0u);
  EXPECT_LT(r.stats.simdEfficiency(), 1.0);
  EXPECT_GT(r.stats.simdEfficiency(), 0.0);
}

TEST(Divergence, UniformInputDoesNotDiverge) {
  runtime::Device gpu(testOptions());
  runtime::Module mod = gpu.loadModuleFile(cudaPtx("divergence"));
  const int n = 256;
  uint64_t dIn = gpu.upload(std::vector<int>(n, 42)), dOut = gpu.malloc(n * 4);
  runtime::LaunchReport r = gpu.launch(mod.kernel("divergent_paths"), {2}, {128}, 0, dIn, dOut, n);
  EXPECT_EQ(r.stats.divergentBranches, 0u);
  EXPECT_DOUBLE_EQ(r.stats.simdEfficiency(), 1.0);
  EXPECT_EQ(gpu.download<int>(dOut, n), std::vector<int>(n, divergentReference(42)));
}

int switchReference(int v) {
  switch (v & 15) {
    case 0: return 7;
    case 1: return v * 2;
    case 2: return v - 11;
    case 3:
    case 4: return v ^ 0x55;
    case 5: return v << 3;
    case 7: return -v;
    case 9: return v / 3;
    case 12: return v % 5;
    default: return 1000 + (v & 15);
  }
}

TEST(Divergence, DebugBuildSwitchTakesEveryCase) {
  runtime::Device gpu(testOptions());
  runtime::Module mod = gpu.loadModuleFile(cudaPtx("switch_stmt"));
  const int n = 300;
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 37 - 4000) ^ (i << 4);  // all 16 cases, both signs
  uint64_t dIn = gpu.upload(in), dOut = gpu.malloc(n * 4);
  runtime::LaunchReport r =
      gpu.launch(mod.kernel("switch_kernel"), {blocksFor(n, 128)}, {128}, 0, dIn, dOut, n);
  std::vector<int> out = gpu.download<int>(dOut, n);
  for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], switchReference(in[i])) << "input " << in[i];
  // The -G build loads and stores through generic pointers: the statistics attribute every
  // lane to the global space its address falls in.
  EXPECT_EQ(r.stats.space(ir::Space::Generic).instructions, 0u);
  EXPECT_EQ(r.stats.space(ir::Space::Global).laneAccesses, 2u * n);
  EXPECT_EQ(r.stats.space(ir::Space::Global).bytes, 8u * n);
}

}  // namespace
}  // namespace warpsim::test
