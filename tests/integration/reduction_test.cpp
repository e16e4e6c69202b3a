// Shared-memory tree reduction and warp-shuffle reduction (tests/cuda/reduction.cu).
#include <gtest/gtest.h>

#include "test_support.h"

namespace warpsim::test {
namespace {

TEST(Reduction, SharedTreeSumsEachBlockOfTwiceItsThreads) {
  runtime::Device gpu(testOptions());
  runtime::Module mod = gpu.loadModuleFile(cudaPtx("reduction"));
  const int n = 3000;  // each block of 256 threads reduces 512 inputs; the last one is partial
  InputGenerator gen(3);
  std::vector<unsigned> in(n);
  for (unsigned& v : in) v = static_cast<unsigned>(gen.next());  // sums wrap modulo 2^32
  uint32_t blocks = blocksFor(n, 512);
  uint64_t dIn = gpu.upload(in), dOut = gpu.malloc(blocks * 4);
  gpu.launch(mod.kernel("reduce_shared"), {blocks}, {256}, 0, dIn, dOut, n);
  std::vector<unsigned> sums = gpu.download<unsigned>(dOut, blocks);
  for (uint32_t b = 0; b < blocks; ++b) {
    unsigned expect = 0;
    for (int i = int(b) * 512; i < std::min(n, int(b + 1) * 512); ++i) expect += in[i];
    EXPECT_EQ(sums[b], expect) << "block " << b;
  }
}

TEST(Reduction, ShuffleSumWithPartialWarpAndPartialBlock) {
  runtime::Device gpu(testOptions());
  runtime::Module mod = gpu.loadModuleFile(cudaPtx("reduction"));
  const int n = 1000;
  const uint32_t block = 96;  // three warps per block
  InputGenerator gen(5);
  std::vector<int> in(n);
  for (int& v : in) v = static_cast<int>(gen.uniform(-100000, 100000));
  uint32_t blocks = blocksFor(n, block);
  uint64_t dIn = gpu.upload(in), dOut = gpu.malloc(blocks * 4);
  runtime::LaunchReport r =
      gpu.launch(mod.kernel("reduce_shuffle"), {blocks}, {block}, 0, dIn, dOut, n);
  std::vector<int> sums = gpu.download<int>(dOut, blocks);
  for (uint32_t b = 0; b < blocks; ++b) {
    int expect = 0;
    for (int i = int(b * block); i < std::min(n, int((b + 1) * block)); ++i) expect += in[i];
    EXPECT_EQ(sums[b], expect) << "block " << b;
  }
  EXPECT_GT(r.stats.ofClass(ir::OpClass::WarpSync), 0u);
}

TEST(Reduction, SingleBlockOverManyPartialsGivesTotal) {
  runtime::Device gpu(testOptions());
  runtime::Module mod = gpu.loadModuleFile(cudaPtx("reduction"));
  std::vector<int> in(1024);
  for (int i = 0; i < 1024; ++i) in[i] = i - 300;
  uint64_t dIn = gpu.upload(in), dOut = gpu.malloc(4);
  gpu.launch(mod.kernel("reduce_shuffle"), {1}, {1024}, 0, dIn, dOut, 1024);
  EXPECT_EQ(gpu.download<int>(dOut, 1)[0], 1023 * 1024 / 2 - 300 * 1024);
}

}  // namespace
}  // namespace warpsim::test
