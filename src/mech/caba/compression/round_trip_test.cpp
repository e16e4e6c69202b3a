// Property test: seeded random lines of several value structures, every algorithm and line size.
// decompress(compress(x)) == x; the burst bookkeeping; compress writes nothing past its result and
// gives the same answer without an output buffer; truncations are rejected; BestOfAll is the
// minimum of its three candidates and full BDI never loses to the CABA subset.
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cstring>
#include <random>

#include "mech/caba/compression/line_test_support.h"

namespace warpsim::mech::caba {
namespace {

using testing::Bytes;

enum class Structure { SmallInts, Pointers, NearbyFloats, Text, Random, SparseZeros, Repeated, Shorts, Mixed };
constexpr Structure kStructures[] = {Structure::SmallInts, Structure::Pointers, Structure::NearbyFloats,
                                     Structure::Text,      Structure::Random,   Structure::SparseZeros,
                                     Structure::Repeated,  Structure::Shorts,   Structure::Mixed};
constexpr const char* kStructureNames[] = {"small-ints", "pointers", "nearby-floats", "text", "random",
                                           "sparse-zeros", "repeated", "shorts", "mixed"};
constexpr Algorithm kAlgorithms[] = {Algorithm::Bdi, Algorithm::BdiCaba, Algorithm::Fpc, Algorithm::CPack,
                                     Algorithm::BestOfAll};
constexpr unsigned kLinesPerCase = 400;

// Raw engine output only: the standard distributions differ between library implementations.
class LineMaker {
 public:
  explicit LineMaker(uint64_t seed) : rng_(seed) {}

  Bytes make(Structure s, uint32_t lineBytes) {
    Bytes line(lineBytes);
    fill(s, line.data(), lineBytes);
    return line;
  }

 private:
  uint64_t below(uint64_t n) { return rng_() % n; }

  void fill(Structure s, uint8_t* p, uint32_t n) {
    switch (s) {
      case Structure::SmallInts:
        for (uint32_t i = 0; i < n; i += 4) format::storeLE(p + i, uint32_t(int32_t(below(201)) - 100), 4);
        break;
      case Structure::Pointers: {
        const uint64_t base = 0x00007F0000000000ull + (rng_() & 0xFFFFFFF0ull);
        for (uint32_t i = 0; i < n; i += 8) format::storeLE(p + i, base + 8 * below(512), 8);
        break;
      }
      case Structure::NearbyFloats: {
        const float base = 1.0f + float(below(1000));
        for (uint32_t i = 0; i < n; i += 4) {
          const float f = base * (1.0f + float(below(1000)) * 1e-6f);
          format::storeLE(p + i, std::bit_cast<uint32_t>(f), 4);
        }
        break;
      }
      case Structure::Text:
        for (uint32_t i = 0; i < n; ++i) p[i] = uint8_t(0x20 + below(0x5F));
        break;
      case Structure::Random:
        for (uint32_t i = 0; i < n; ++i) p[i] = uint8_t(rng_());
        break;
      case Structure::SparseZeros:
        for (uint32_t i = 0; i < n; ++i) p[i] = below(16) == 0 ? uint8_t(rng_()) : 0;
        break;
      case Structure::Repeated: {
        const uint64_t v = rng_();
        for (uint32_t i = 0; i < n; i += 8) format::storeLE(p + i, v, 8);
        break;
      }
      case Structure::Shorts: {
        const uint32_t base = uint32_t(below(0x10000));
        for (uint32_t i = 0; i < n; i += 2) format::storeLE(p + i, base + below(100), 2);
        break;
      }
      case Structure::Mixed:  // each 32-byte quarter its own structure (none Mixed)
        for (uint32_t at = 0; at < n; at += 32) fill(kStructures[below(8)], p + at, 32);
        break;
    }
  }

  std::mt19937_64 rng_;
};

struct Tally {
  unsigned lines = 0;
  std::array<unsigned, 5> compressible{};  // per algorithm, kAlgorithms order
};

// Checks one line under one algorithm; returns its result.
CompressedLine checkLine(Algorithm a, const Bytes& line) {
  const uint32_t lineBytes = uint32_t(line.size());
  Bytes out(lineBytes, 0xEE);
  const CompressedLine r = compress(a, line.data(), lineBytes, out.data());
  EXPECT_EQ(compress(a, line.data(), lineBytes, nullptr), r);
  EXPECT_EQ(r.bursts, burstsFor(r.bytes));
  EXPECT_LE(r.bursts, lineBytes / kBurstBytes);
  EXPECT_EQ(r.compressible, r.bursts < lineBytes / kBurstBytes);
  if (r.compressible) {
    EXPECT_LT(r.bytes, lineBytes);
    EXPECT_NE(r.encoding, kUncompressed);
    EXPECT_NE(encodingName(r.algorithm, r.encoding), "invalid");
    for (uint32_t i = r.bytes; i < lineBytes; ++i) EXPECT_EQ(out[i], 0xEE) << "wrote past the encoding at " << i;
    if (a == Algorithm::BestOfAll) {
      EXPECT_TRUE(r.algorithm == Algorithm::BdiCaba || r.algorithm == Algorithm::Fpc || r.algorithm == Algorithm::CPack);
    } else {
      EXPECT_EQ(r.algorithm, a);
    }
  } else {
    EXPECT_EQ(r.bytes, lineBytes);
    EXPECT_EQ(r.encoding, kUncompressed);
    EXPECT_EQ(r.algorithm, a);
    EXPECT_EQ(out, line);
  }
  Bytes back(lineBytes, 0xEE);
  std::string error;
  EXPECT_TRUE(decompress(a, out.data(), r.bytes, back.data(), lineBytes, &error)) << error;
  EXPECT_EQ(back, line);
  if (r.compressible) {
    EXPECT_FALSE(decompress(a, out.data(), r.bytes - 1, back.data(), lineBytes, nullptr));
  }
  return r;
}

class RoundTrip : public ::testing::TestWithParam<uint32_t> {};

TEST_P(RoundTrip, EveryStructureAndAlgorithm) {
  const uint32_t lineBytes = GetParam();
  LineMaker maker(0xCABA0000u + lineBytes);
  std::array<Tally, std::size(kStructures)> tallies{};
  for (unsigned s = 0; s < std::size(kStructures); ++s) {
    SCOPED_TRACE(kStructureNames[s]);
    for (unsigned n = 0; n < kLinesPerCase; ++n) {
      const Bytes line = maker.make(kStructures[s], lineBytes);
      CompressedLine results[5];
      for (unsigned a = 0; a < 5; ++a) {
        results[a] = checkLine(kAlgorithms[a], line);
        tallies[s].compressible[a] += results[a].compressible;
      }
      ++tallies[s].lines;
      const CompressedLine& bdi = results[0];
      const CompressedLine& caba = results[1];
      const CompressedLine& best = results[4];
      EXPECT_LE(bdi.bursts, caba.bursts);
      EXPECT_EQ(best.bursts, std::min({caba.bursts, results[2].bursts, results[3].bursts}));
      if (::testing::Test::HasFailure()) return;  // one broken line is enough to read
    }
  }
  // What the structures must give (every line of the case, or none).
  const auto all = [&](Structure s, unsigned a) { return tallies[unsigned(s)].compressible[a] == kLinesPerCase; };
  const auto none = [&](Structure s, unsigned a) { return tallies[unsigned(s)].compressible[a] == 0; };
  for (unsigned a = 0; a < 5; ++a) {
    SCOPED_TRACE(algorithmName(kAlgorithms[a]));
    if (lineBytes == 32) {
      for (unsigned s = 0; s < std::size(kStructures); ++s) EXPECT_TRUE(none(kStructures[s], a));
      continue;
    }
    EXPECT_TRUE(all(Structure::SmallInts, a));
    EXPECT_TRUE(none(Structure::Random, a));
    EXPECT_TRUE(none(Structure::Text, a));
    if (kAlgorithms[a] != Algorithm::Fpc) {  // random 8-byte values fit no FPC pattern
      EXPECT_TRUE(all(Structure::Repeated, a));
    }
  }
  if (lineBytes > 32) {  // pointers within 4 KB: b8d2, one burst at 64 B, two at 128 B
    EXPECT_TRUE(all(Structure::Pointers, 0));
    EXPECT_TRUE(all(Structure::Pointers, 1));
  }
  if (lineBytes == 128) {  // b4d2 (floats within 2^15 ulps) and b2d1 (shorts within 100), 3 bursts
    EXPECT_TRUE(all(Structure::NearbyFloats, 0));
    EXPECT_TRUE(all(Structure::Shorts, 0));
  }
}

INSTANTIATE_TEST_SUITE_P(LineSizes, RoundTrip, ::testing::Values(32u, 64u, 128u),
                         [](const auto& info) { return std::to_string(info.param) + "B"; });

}  // namespace
}  // namespace warpsim::mech::caba
