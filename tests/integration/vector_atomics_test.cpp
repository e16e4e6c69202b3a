// Vector atomics as nvcc 13 emits them for sm_90 (tests/cuda/vector_atomics.cu): atomicAdd on
// float2/float4, and red.global.v8.f16.min / .v4.bf16x2.max from inline PTX, over many CTAs.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "test_support.h"

namespace warpsim::test {
namespace {

TEST(VectorAtomics, Float2AndFloat4AddsAreExactAndPerLaneConsistent) {
  runtime::Device gpu(testOptions());
  runtime::Module mod = gpu.loadModuleFile(cudaPtx("vector_atomics"));
  const int n = 1000;
  const uint64_t acc2 = gpu.upload(std::vector<Float2>(2, Float2{0, 0}));
  const uint64_t acc4 = gpu.upload(std::vector<Float4>(1, Float4{0, 0, 0, 0}));
  const uint64_t old2 = gpu.malloc(n * sizeof(Float2)), old4 = gpu.malloc(n * sizeof(Float4));
  gpu.launch(mod.kernel("_Z16float_vector_addP6float2P6float4S0_S2_i"), {blocksFor(n, 128)}, {128}, 0,
             acc2, acc4, old2, old4, n);
  // Every sum is of integers (or halves) below 2^24: exact in any order.
  const auto a2 = gpu.download<Float2>(acc2, 2);
  EXPECT_EQ(a2[0].x, 500.0f);
  EXPECT_EQ(a2[0].y, 249500.0f);  // even i
  EXPECT_EQ(a2[1].x, 500.0f);
  EXPECT_EQ(a2[1].y, 250000.0f);  // odd i
  const auto a4 = gpu.download<Float4>(acc4, 1);
  EXPECT_EQ(a4[0].x, 499500.0f);
  EXPECT_EQ(a4[0].y, -499500.0f);
  EXPECT_EQ(a4[0].z, 500.0f);
  EXPECT_EQ(a4[0].w, 2000.0f);
  // Each atomic saw a distinct number of earlier ones; a lane's elements are applied together,
  // so the old values of one vector are one consistent snapshot.
  const auto o4 = gpu.download<Float4>(old4, n);
  const auto o2 = gpu.download<Float2>(old2, n);
  std::vector<int> seen(n, 0), seenEven(n / 2, 0), seenOdd(n / 2, 0);
  for (int i = 0; i < n; ++i) {
    const int before = static_cast<int>(o4[i].z * 2.0f);
    ASSERT_GE(before, 0);
    ASSERT_LT(before, n);
    ++seen[before];
    EXPECT_EQ(o4[i].w, 4.0f * o4[i].z) << "thread " << i;
    EXPECT_EQ(o4[i].y, -o4[i].x) << "thread " << i;
    const int parityBefore = static_cast<int>(o2[i].x);
    ASSERT_GE(parityBefore, 0);
    ASSERT_LT(parityBefore, n / 2);
    ++(i % 2 == 0 ? seenEven : seenOdd)[parityBefore];
  }
  EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](int c) { return c == 1; }));
  EXPECT_TRUE(std::all_of(seenEven.begin(), seenEven.end(), [](int c) { return c == 1; }));
  EXPECT_TRUE(std::all_of(seenOdd.begin(), seenOdd.end(), [](int c) { return c == 1; }));
}

double f16Value(uint16_t h) {
  const int e = (h >> 10) & 31, m = h & 1023;
  const double v = e == 0 ? std::ldexp(m, -24) : std::ldexp(1024 + m, e - 25);
  return (h & 0x8000) ? -v : v;
}
bool f16IsNaN(uint16_t h) { return (h & 0x7FFF) > 0x7C00; }
float bf16Value(uint16_t h) { return std::bit_cast<float>(uint32_t{h} << 16); }
bool bf16IsNaN(uint16_t h) { return (h & 0x7FFF) > 0x7F80; }

// min/max as PTX defines them: NaNs lose to numbers, two NaNs give the canonical NaN 0x7FFF,
// -0 < +0. `value` orders the non-NaN bit patterns.
template <class Value, class IsNaN>
uint16_t pick(uint16_t a, uint16_t b, bool isMin, Value value, IsNaN isNaN) {
  if (isNaN(a) && isNaN(b)) return 0x7FFF;
  if (isNaN(a)) return b;
  if (isNaN(b)) return a;
  const double x = value(a), y = value(b);
  if (x == y) return ((a & 0x8000) != 0) == isMin ? a : b;
  return (x < y) == isMin ? a : b;
}

TEST(VectorAtomics, HalfMinAndBf16MaxFollowTheMinMaxRules) {
  runtime::Device gpu(testOptions());
  runtime::Module mod = gpu.loadModuleFile(cudaPtx("vector_atomics"));
  const int n = 256;
  InputGenerator gen(2024);
  std::vector<uint16_t> h(8 * n);
  std::vector<uint32_t> b(4 * n);
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < 7; ++k) h[8 * i + k] = static_cast<uint16_t>(gen.uniform(0, 65535));
    // Element 7: only zeros and NaNs, so the sign of zero decides.
    h[8 * i + 7] = i % 3 == 0 ? 0x7E00 : (i % 3 == 1 ? 0x0000 : 0x8000);
    for (int k = 0; k < 3; ++k)
      b[4 * i + k] = static_cast<uint32_t>(gen.uniform(0, 65535)) |
                     static_cast<uint32_t>(gen.uniform(0, 65535)) << 16;
    // Pair 3: the high halves are all NaN (two NaNs give the canonical one), the low halves
    // zeros of both signs.
    b[4 * i + 3] = (0x7F81u + static_cast<uint32_t>(i % 5)) << 16 | (i % 2 == 0 ? 0x8000u : 0x0000u);
  }
  const uint64_t mins = gpu.upload(std::vector<uint16_t>(8, 0x7C00));    // +inf
  // -inf in every half but the high one of pair 3, which starts as a NaN.
  const uint64_t maxs = gpu.upload(std::vector<uint32_t>{0xFF80FF80, 0xFF80FF80, 0xFF80FF80, 0x7FC0FF80});
  const uint64_t dh = gpu.upload(h), db = gpu.upload(b);
  gpu.launch(mod.kernel("_Z18half_vector_minmaxPtPjPKtPKji"), {blocksFor(n, 64)}, {64}, 0, mins, maxs, dh,
             db, n);
  std::vector<uint16_t> wantMin(8, 0x7C00);
  std::vector<uint16_t> wantMax = {0xFF80, 0xFF80, 0xFF80, 0xFF80, 0xFF80, 0xFF80, 0xFF80, 0x7FC0};
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < 8; ++k) wantMin[k] = pick(wantMin[k], h[8 * i + k], true, f16Value, f16IsNaN);
    for (int k = 0; k < 8; ++k) {
      const auto half = static_cast<uint16_t>(b[4 * i + k / 2] >> (16 * (k % 2)));
      wantMax[k] = pick(wantMax[k], half, false, bf16Value, bf16IsNaN);
    }
  }
  EXPECT_EQ(wantMin[7], 0x8000);  // the reference itself: -0 is the smaller zero
  EXPECT_EQ(wantMax[6], 0x0000);
  EXPECT_EQ(wantMax[7], 0x7FFF);
  EXPECT_EQ(gpu.download<uint16_t>(mins, 8), wantMin);
  EXPECT_EQ(gpu.download<uint16_t>(maxs, 8), wantMax);
}

}  // namespace
}  // namespace warpsim::test
