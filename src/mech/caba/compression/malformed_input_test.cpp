// Decoders on bad input: each malformation gives false and its one-line reason; truncated and
// padded encodings are rejected; seeded random inputs never crash (the sanitizer build and the
// fuzzer check the memory accesses).
#include <gtest/gtest.h>

#include <random>

#include "mech/caba/compression/line_test_support.h"

namespace warpsim::mech::caba {
namespace {

using testing::Bytes;
using testing::decodes;
using testing::encode;
using testing::lineFrom;
using testing::lineOf;

struct BadInput {
  Algorithm algorithm;
  uint32_t lineBytes;
  Bytes in;
  std::string reason;
};

TEST(MalformedInput, EachMalformationHasItsReason) {
  const BadInput cases[] = {
      {Algorithm::Bdi, 64, {0x09}, "bdi: encoding id 9 is not a BDI encoding"},
      {Algorithm::Bdi, 64, {0x20}, "bdi: reserved head bit 5 is set"},
      {Algorithm::Bdi, 64, {0x10}, "bdi: encoding zeros takes no selector mask"},
      {Algorithm::Bdi, 64, {0x00, 0x00}, "bdi: encoding zeros takes 1 bytes, got 2"},
      {Algorithm::Bdi, 64, Bytes(17, 0x12), "bdi: encoding b8d1 with a selector mask takes 18 bytes, got 17"},
      {Algorithm::BdiCaba, 64, {0x00}, "bdi-caba: encoding zeros is not kept at 64-byte lines"},
      {Algorithm::Fpc, 128, {0x40, 0x40}, "fpc: unused head bits are set in byte 1"},
      {Algorithm::Fpc, 32, {0x48}, "fpc: unused head bits are set in byte 0"},
      {Algorithm::Fpc, 128, {0x40}, "fpc: 1 bytes cannot hold the 2-byte head"},
      {Algorithm::Fpc, 64, {0x41}, "fpc: the segment patterns take 5 bytes, got 1"},
      {Algorithm::CPack, 64, {0x85}, "cpack: 5 dictionary entries, at most 4"},
      {Algorithm::CPack, 64, {0x88}, "cpack: reserved head bits 3-5 are set"},
      {Algorithm::CPack, 64, {0x80}, "cpack: 1 bytes cannot hold 0 entries and 16 word codes"},
      {Algorithm::CPack, 64, {0x80, 0x02, 0, 0, 0, 0, 0, 0, 0}, "cpack: word 0 (mmmm) has dictionary index 0 with 0 entries"},
      {Algorithm::CPack, 64, {0x80, 0x50, 0, 0, 0, 0, 0, 0, 0, 0}, "cpack: word 1 (zzzx) has dictionary index 1 with 0 entries"},
      {Algorithm::CPack, 64, {0x80, 0x01, 0, 0, 0, 0, 0, 0, 0}, "cpack: the word codes take 10 bytes, got 9"},
      {Algorithm::BestOfAll, 64, {0xC0}, "best-of-all: format tag 3 names no algorithm"},
      {Algorithm::BestOfAll, 64, {0x04}, "bdi-caba: encoding b8d4 is not kept at 64-byte lines"},
  };
  for (const BadInput& c : cases) {
    Bytes back;
    std::string error;
    EXPECT_FALSE(decodes(c.algorithm, c.in, c.lineBytes, back, &error)) << c.reason;
    EXPECT_EQ(error, c.reason);
  }
}

TEST(MalformedInput, SelectorBitsPastTheLastValue) {
  // b8d1 with a mask at 32 B: 4 values, so mask bits 4-7 must be zero. 1 + 1 + 8 + 4 = 14 B.
  Bytes in(14, 0);
  in[0] = 0x12;
  in[1] = 0x10;
  Bytes back;
  std::string error;
  EXPECT_FALSE(decodes(Algorithm::Bdi, in, 32, back, &error));
  EXPECT_EQ(error, "bdi: selector bits past the last value are set");
  in[1] = 0x0F;
  EXPECT_TRUE(decodes(Algorithm::Bdi, in, 32, back, &error)) << error;
}

TEST(MalformedInput, NoErrorStringIsNeeded) {
  Bytes back;
  EXPECT_FALSE(decodes(Algorithm::Bdi, Bytes{0x09}, 64, back, nullptr));
}

// Every prefix of a valid encoding, and the encoding with a byte appended, is rejected.
TEST(MalformedInput, TruncatedAndPaddedEncodingsAreRejected) {
  const Bytes lines[] = {
      lineFrom(64, 8, [](uint32_t i) { return 0x8001D000u + 8 * i; }),
      lineFrom(128, 8, [](uint32_t i) { return i % 2 ? uint64_t{i} : 0x8001D000ull + i; }),
      lineOf(128, 4, {0, 0x12345678u, 0x12345699u, 0xABu}),
      lineFrom(128, 4, [](uint32_t i) { return i % 3 ? 0u : 0x1234u; }),
      Bytes(64, 0),
  };
  unsigned encodings = 0;
  for (const Bytes& line : lines) {
    for (Algorithm a : {Algorithm::Bdi, Algorithm::BdiCaba, Algorithm::Fpc, Algorithm::CPack, Algorithm::BestOfAll}) {
      const auto e = encode(a, line);
      if (!e.line.compressible) continue;
      ++encodings;
      Bytes back;
      for (uint32_t n = 0; n < e.line.bytes; ++n) {
        std::string error;
        EXPECT_FALSE(decodes(a, Bytes(e.bytes.begin(), e.bytes.begin() + n), uint32_t(line.size()), back, &error))
            << algorithmName(a) << " prefix " << n;
        EXPECT_FALSE(error.empty());
      }
      Bytes padded = e.bytes;
      padded.push_back(0);
      EXPECT_FALSE(decodes(a, padded, uint32_t(line.size()), back)) << algorithmName(a);
    }
  }
  EXPECT_EQ(encodings, 22u);  // every algorithm on every line, but FPC on the first three
}

TEST(MalformedInput, RandomInputsNeverCrash) {
  std::mt19937_64 rng(20240611);
  unsigned accepted = 0;
  for (unsigned trial = 0; trial < 60000; ++trial) {
    const uint64_t pick = rng();
    const auto algorithm = Algorithm(pick % 5);
    const uint32_t lineBytes = 32u << (pick / 5 % 3);
    const uint32_t length = uint32_t(pick / 15 % (lineBytes + 2));
    Bytes in(length);
    for (auto& b : in) b = uint8_t(rng());
    // Favour plausible heads: the right tag and small ids, so the decoders get past byte 0.
    if (length > 0 && trial % 2) in[0] &= 0x9F;
    Bytes back;
    std::string error;
    if (decodes(algorithm, in, lineBytes, back, &error)) {
      ++accepted;
      EXPECT_EQ(back.size(), lineBytes);
    } else {
      EXPECT_FALSE(error.empty());
      EXPECT_EQ(error.find('\n'), std::string::npos) << error;
    }
  }
  EXPECT_GT(accepted, 0u);
}

}  // namespace
}  // namespace warpsim::mech::caba
