// Integer intrinsics (tests/cuda/bit_tricks.cu, compute_75): popc, clz, brev, byte_perm, funnel
// shifts, mul24, mulhi, ffs, 64-bit multiply-high, divide, remainder and arithmetic shift.
#include <gtest/gtest.h>

#include <bit>

#include "test_support.h"

namespace warpsim::test {
namespace {

uint32_t bytePerm(uint32_t x, uint32_t y, uint32_t s) {
  uint64_t bytes = (uint64_t{y} << 32) | x;
  uint32_t r = 0;
  for (int n = 0; n < 4; ++n) {
    uint32_t sel = (s >> (4 * n)) & 7;
    r |= static_cast<uint32_t>((bytes >> (8 * sel)) & 0xff) << (8 * n);
  }
  return r;
}

int32_t signExtend24(uint32_t v) { return static_cast<int32_t>(v << 8) >> 8; }

std::vector<uint64_t> reference(uint32_t x, uint32_t y, int i) {
  std::vector<uint64_t> o(12);
  o[0] = std::popcount(x);
  o[1] = std::countl_zero(x);
  uint32_t rev = 0;
  for (int b = 0; b < 32; ++b) rev |= ((x >> b) & 1u) << (31 - b);
  o[2] = rev;
  o[3] = bytePerm(x, y, 0x5140 + (i & 7));
  uint32_t sl = (y & 63) & 31;
  o[4] = sl == 0 ? y : (y << sl) | (x >> (32 - sl));
  uint32_t sr = y & 31;
  o[5] = sr == 0 ? x : (x >> sr) | (y << (32 - sr));
  o[6] = static_cast<uint32_t>(static_cast<int64_t>(signExtend24(x)) * signExtend24(y));
  o[7] = (uint64_t{x} * y) >> 32;
  uint64_t wide = (uint64_t{x} << 32) | y;
  o[8] = static_cast<uint64_t>((static_cast<unsigned __int128>(wide) * 0x9E3779B97F4A7C15ull) >> 64);
  int ffs = y == 0 ? 0 : std::countr_zero(y) + 1;
  o[9] = static_cast<uint64_t>(ffs + 100 * std::popcount(wide) + 10000 * std::countl_zero(wide));
  o[10] = wide / (uint64_t{x} | 1u) + wide % 1000003ull;
  o[11] = static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(x) >> (y & 31)));
  return o;
}

TEST(IntegerBits, EveryIntrinsicMatchesItsDefinition) {
  runtime::Device gpu(testOptions());
  runtime::Module mod = gpu.loadModuleFile(cudaPtx("bit_tricks"));
  InputGenerator gen(21);
  std::vector<uint32_t> a = {0, 0xffffffffu, 1, 0x80000000u, 0x00800000u, 0x12345678u};
  std::vector<uint32_t> b = {0, 0xffffffffu, 32, 31, 0x00ffffffu, 0x9abcdef0u};
  while (a.size() < 300) {
    a.push_back(static_cast<uint32_t>(gen.next()));
    b.push_back(static_cast<uint32_t>(gen.next() >> (gen.next() % 32)));
  }
  const int n = static_cast<int>(a.size());
  uint64_t dA = gpu.upload(a), dB = gpu.upload(b), dOut = gpu.malloc(uint64_t(n) * 12 * 8);
  gpu.launch(mod.kernel("bit_tricks"), {blocksFor(n, 128)}, {128}, 0, dA, dB, dOut, n);
  std::vector<uint64_t> out = gpu.download<uint64_t>(dOut, size_t(n) * 12);
  static const char* names[12] = {"popc", "clz", "brev", "byte_perm", "funnelshift_l",
                                  "funnelshift_r", "mul24", "umulhi", "umul64hi", "ffs/popcll/clzll",
                                  "div/rem u64", "sar"};
  for (int i = 0; i < n; ++i) {
    std::vector<uint64_t> expect = reference(a[i], b[i], i);
    for (int k = 0; k < 12; ++k) {
      ASSERT_EQ(out[size_t(i) * 12 + k], expect[k])
          << names[k] << " x=0x" << std::hex << a[i] << " y=0x" << b[i];
    }
  }
}

}  // namespace
}  // namespace warpsim::test
