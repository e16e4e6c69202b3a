// Warp-level vote, ballot, match and activemask (tests/cuda/warp_vote.cu, compute_90).
#include <gtest/gtest.h>

#include "test_support.h"

namespace warpsim::test {
namespace {

TEST(WarpVote, BallotAllAnyMatchAndActivemaskPerWarp) {
  runtime::Device gpu(testOptions());
  runtime::Module mod = gpu.loadModuleFile(cudaPtx("warp_vote"));
  const int n = 200;  // 7 warps hold data; in the last one lanes past n vote with v = 0
  const uint32_t block = 64, blocks = 4;
  const int threads = int(block * blocks);
  InputGenerator gen(77);
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) {
    int warp = i / 32;
    // Warp 0: all positive and small; warp 1: one big value; warp 2: all equal high bits;
    // others: random, some negative.
    if (warp == 0) in[i] = static_cast<int>(gen.uniform(1, 100));
    else if (warp == 1) in[i] = i == 40 ? 500 : static_cast<int>(gen.uniform(0, 50));
    else if (warp == 2) in[i] = 0x300 + static_cast<int>(gen.uniform(0, 255));
    else in[i] = static_cast<int>(gen.uniform(-300, 300));
  }
  uint64_t dIn = gpu.upload(in), dOut = gpu.malloc(uint64_t(n) * 6 * 4);
  gpu.launch(mod.kernel("warp_vote"), {blocks}, {block}, 0, dIn, dOut, n);
  std::vector<uint32_t> out = gpu.download<uint32_t>(dOut, size_t(n) * 6);

  for (int w = 0; w * 32 < std::min(n, threads); ++w) {
    auto value = [&](int lane) { int i = w * 32 + lane; return i < n ? in[i] : 0; };
    uint32_t ballot = 0, odd = 0;
    bool all = true, any = false, sameHigh = true;
    for (int l = 0; l < 32; ++l) {
      int v = value(l);
      if (v > 0) ballot |= 1u << l;
      if (v & 1) odd |= 1u << l;
      all = all && v >= 0;
      any = any || v > 100;
      sameHigh = sameHigh && (v >> 8) == (value(0) >> 8);
    }
    for (int l = 0; l < 32 && w * 32 + l < n; ++l) {
      int i = w * 32 + l;
      uint32_t matchAny = 0;
      for (int k = 0; k < 32; ++k) {
        if ((value(k) & 7) == (value(l) & 7)) matchAny |= 1u << k;
      }
      SCOPED_TRACE(::testing::Message() << "warp " << w << " lane " << l);
      EXPECT_EQ(out[6 * i + 0], ballot);
      EXPECT_EQ(out[6 * i + 1], all ? 1u : 0u);
      EXPECT_EQ(out[6 * i + 2], any ? 1u : 0u);
      EXPECT_EQ(out[6 * i + 3], matchAny);
      EXPECT_EQ(out[6 * i + 4], sameHigh ? 0xffffffffu : 0xdeadbeefu);
      EXPECT_EQ(out[6 * i + 5], (value(l) & 1) ? odd : 0u);
    }
  }
  // The data was built so that each predicate is true in some warp and false in another.
  EXPECT_EQ(out[6 * 0 + 1], 1u);
  EXPECT_EQ(out[6 * 1 + 2], 0u);
  EXPECT_EQ(out[6 * 32 + 2], 1u);
  EXPECT_EQ(out[6 * 64 + 4], 0xffffffffu);
}

}  // namespace
}  // namespace warpsim::test
