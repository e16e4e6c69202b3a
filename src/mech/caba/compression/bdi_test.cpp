// BDI: the PVC worked example (digest B.5.2), every encoding on a hand-made line with its exact
// size and bytes, the explicit-base and selector rules, and the CABA subset's first-fit search.
#include <gtest/gtest.h>

#include "mech/caba/compression/bdi.h"
#include "mech/caba/compression/line_test_support.h"

namespace warpsim::mech::caba {
namespace {

using testing::Bytes;
using testing::decodes;
using testing::expectRoundTrip;
using testing::encode;
using testing::lineFrom;
using testing::lineOf;

uint8_t id(BdiEncoding e) { return uint8_t(e); }

void expectResult(const CompressedLine& r, Algorithm a, BdiEncoding e, uint32_t bytes, uint32_t bursts) {
  EXPECT_TRUE(r.compressible);
  EXPECT_EQ(r.algorithm, a);
  EXPECT_EQ(r.encoding, id(e)) << bdiEncodingName(r.encoding);
  EXPECT_EQ(r.bytes, bytes);
  EXPECT_EQ(r.bursts, bursts);
}

// Fig. 48 / paper Fig. 6: eight 8-byte values near 0x8001D000 -> 1 + 8 + 8 = 17 bytes.
TEST(Bdi, PvcExampleIsSeventeenBytes) {
  const Bytes line = lineFrom(64, 8, [](uint32_t i) { return 0x8001D000u + 8 * i; });
  for (Algorithm a : {Algorithm::Bdi, Algorithm::BdiCaba}) {
    const auto e = encode(a, line);
    expectResult(e.line, a, BdiEncoding::B8D1, 17, 1);
    const Bytes expected = {0x02,                                            // b8d1, no mask, tag 0
                            0x00, 0xD0, 0x01, 0x80, 0x00, 0x00, 0x00, 0x00,  // base 0x8001D000
                            0x00, 0x08, 0x10, 0x18, 0x20, 0x28, 0x30, 0x38};
    EXPECT_EQ(e.bytes, expected);
    expectRoundTrip(a, line, e.bytes);
  }
}

TEST(Bdi, ZerosIsOneByte) {
  const auto e = encode(Algorithm::Bdi, Bytes(128, 0));
  expectResult(e.line, Algorithm::Bdi, BdiEncoding::Zeros, 1, 1);
  EXPECT_EQ(e.bytes, Bytes{0x00});
  expectRoundTrip(Algorithm::Bdi, Bytes(128, 0), e.bytes);
}

TEST(Bdi, RepeatedValueIsNineBytes) {
  const Bytes line = lineOf(128, 8, {0x1122334455667788ull});
  const auto e = encode(Algorithm::Bdi, line);
  expectResult(e.line, Algorithm::Bdi, BdiEncoding::Repeated, 9, 1);
  EXPECT_EQ(e.bytes, (Bytes{0x01, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11}));
  expectRoundTrip(Algorithm::Bdi, line, e.bytes);
}

TEST(Bdi, CabaSubsetTakesZerosAndRepeatedAsB8D1) {
  // No Zeros or Repeated encoding in the CABA subset: b8d1 costs the same single burst.
  const auto zeros = encode(Algorithm::BdiCaba, Bytes(128, 0));
  expectResult(zeros.line, Algorithm::BdiCaba, BdiEncoding::B8D1, 1 + 8 + 16, 1);
  Bytes expected(25, 0x00);
  expected[0] = 0x02;  // b8d1, base 0, zero deltas
  EXPECT_EQ(zeros.bytes, expected);
  const Bytes repeated = lineOf(64, 8, {0x1122334455667788ull});
  const auto r = encode(Algorithm::BdiCaba, repeated);
  expectResult(r.line, Algorithm::BdiCaba, BdiEncoding::B8D1, 17, 1);
  expectRoundTrip(Algorithm::BdiCaba, repeated, r.bytes);
}

TEST(Bdi, B8D2OnPointers256BytesApart) {
  const Bytes line = lineFrom(64, 8, [](uint32_t i) { return 0x00007F8012340000ull + 0x100 * i; });
  const auto e = encode(Algorithm::Bdi, line);
  expectResult(e.line, Algorithm::Bdi, BdiEncoding::B8D2, 1 + 8 + 8 * 2, 1);
  EXPECT_EQ(e.bytes[0], 0x03);
  EXPECT_EQ(e.bytes[9], 0x00);  // delta 0
  EXPECT_EQ(e.bytes[11], 0x00);
  EXPECT_EQ(e.bytes[12], 0x01);  // delta 0x100, little-endian
  expectRoundTrip(Algorithm::Bdi, line, e.bytes);
}

TEST(Bdi, B8D4SavesABurstAt128BytesOnly) {
  const auto value = [](uint32_t i) { return 0x5555AAAA12345678ull + (uint64_t{i} << 24); };
  const Bytes line128 = lineFrom(128, 8, value);
  const auto e = encode(Algorithm::Bdi, line128);
  expectResult(e.line, Algorithm::Bdi, BdiEncoding::B8D4, 1 + 8 + 16 * 4, 3);
  expectRoundTrip(Algorithm::Bdi, line128, e.bytes);
  // At 64 B it fits in 41 bytes, two bursts like the line itself: kept uncompressed.
  const Bytes line64 = lineFrom(64, 8, value);
  const auto u = encode(Algorithm::Bdi, line64);
  EXPECT_FALSE(u.line.compressible);
  EXPECT_EQ(u.line.encoding, kUncompressed);
  EXPECT_EQ(u.line.bytes, 64u);
  EXPECT_EQ(u.line.bursts, 2u);
  EXPECT_EQ(u.bytes, line64);
}

TEST(Bdi, B4D1OnNearbyInts) {
  const Bytes line = lineFrom(128, 4, [](uint32_t i) { return 0x12345678u + i; });
  const auto e = encode(Algorithm::Bdi, line);
  expectResult(e.line, Algorithm::Bdi, BdiEncoding::B4D1, 1 + 4 + 32, 2);
  EXPECT_EQ((Bytes{e.bytes.begin(), e.bytes.begin() + 7}), (Bytes{0x05, 0x78, 0x56, 0x34, 0x12, 0x00, 0x01}));
  expectRoundTrip(Algorithm::Bdi, line, e.bytes);
}

TEST(Bdi, B4D2OnIntsSpreadOverEightKilo) {
  const Bytes line = lineFrom(128, 4, [](uint32_t i) { return 0x12345678u + 0x100 * i; });
  const auto e = encode(Algorithm::Bdi, line);
  expectResult(e.line, Algorithm::Bdi, BdiEncoding::B4D2, 1 + 4 + 64, 3);
  expectRoundTrip(Algorithm::Bdi, line, e.bytes);
}

TEST(Bdi, B2D1OnNearbyShorts) {
  const Bytes line = lineFrom(128, 2, [](uint32_t i) { return 0x4000u + i; });
  const auto e = encode(Algorithm::Bdi, line);
  expectResult(e.line, Algorithm::Bdi, BdiEncoding::B2D1, 1 + 2 + 64, 3);
  expectRoundTrip(Algorithm::Bdi, line, e.bytes);
}

TEST(Bdi, NegativeDeltasAreSignExtended) {
  const Bytes line = lineFrom(64, 8, [](uint32_t i) { return 0x8001D000u - 8 * i; });
  const auto e = encode(Algorithm::Bdi, line);
  expectResult(e.line, Algorithm::Bdi, BdiEncoding::B8D1, 17, 1);
  EXPECT_EQ((Bytes{e.bytes.begin() + 9, e.bytes.end()}), (Bytes{0x00, 0xF8, 0xF0, 0xE8, 0xE0, 0xD8, 0xD0, 0xC8}));
  expectRoundTrip(Algorithm::Bdi, line, e.bytes);
}

TEST(Bdi, DeltaWrapsAroundTheValueWidth) {
  // Around the signed wrap: 0x80000010 + i is 0x20 + i past 0x7FFFFFF0 modulo 2^32.
  const Bytes line = lineFrom(64, 4, [](uint32_t i) { return i % 2 ? 0x80000010u + i : 0x7FFFFFF0u - i; });
  const auto e = encode(Algorithm::Bdi, line);
  expectResult(e.line, Algorithm::Bdi, BdiEncoding::B4D1, 1 + 4 + 16, 1);
  EXPECT_EQ(e.bytes[5], 0x00);
  EXPECT_EQ(e.bytes[6], 0x21);
  EXPECT_EQ(e.bytes[7], 0xFE);
  expectRoundTrip(Algorithm::Bdi, line, e.bytes);
}

TEST(Bdi, MixedLineTakesASelectorMask) {
  // Pointers near 0x8001D000 in even slots, small ints in odd slots: the small ints take the zero
  // base, so a 2-byte mask (16 values) follows the head.
  const Bytes line = lineFrom(128, 8, [](uint32_t i) { return i % 2 ? uint64_t{i} : 0x8001D000ull + i; });
  const auto e = encode(Algorithm::Bdi, line);
  expectResult(e.line, Algorithm::Bdi, BdiEncoding::B8D1, 1 + 2 + 8 + 16, 1);
  EXPECT_EQ(e.bytes[0], 0x12);  // b8d1 | mask follows
  EXPECT_EQ(e.bytes[1], 0xAA);  // values 1, 3, 5, 7 take the zero base
  EXPECT_EQ(e.bytes[2], 0xAA);
  EXPECT_EQ(format::loadLE(e.bytes.data() + 3, 8), 0x8001D000ull);
  EXPECT_EQ(e.bytes[11], 0x00);  // value 0: base + 0
  EXPECT_EQ(e.bytes[12], 0x01);  // value 1: zero base + 1
  EXPECT_EQ(e.bytes[13], 0x02);  // value 2: base + 2
  expectRoundTrip(Algorithm::Bdi, line, e.bytes);
}

TEST(Bdi, ExplicitBaseIsTheFirstValueThatDoesNotFitTheZeroBase) {
  const Bytes line = lineOf(64, 8, {3, 0x8001D000, 0x8001D004, 5});
  const auto e = encode(Algorithm::Bdi, line);
  expectResult(e.line, Algorithm::Bdi, BdiEncoding::B8D1, 1 + 1 + 8 + 8, 1);
  EXPECT_EQ(e.bytes, (Bytes{0x12, 0x99,  // values 0, 3, 4, 7 take the zero base
                            0x00, 0xD0, 0x01, 0x80, 0x00, 0x00, 0x00, 0x00,  //
                            0x03, 0x00, 0x04, 0x05, 0x03, 0x00, 0x04, 0x05}));
  expectRoundTrip(Algorithm::Bdi, line, e.bytes);
}

TEST(Bdi, OnlyTheZeroBaseNeededStoresBaseZeroWithoutMask) {
  // Small signed values all fit the zero base: the explicit base is 0 and no mask is needed.
  const Bytes line = lineOf(64, 8, {1, uint64_t(-2), 3, uint64_t(-100), 100, 0, 7, uint64_t(-128)});
  const auto e = encode(Algorithm::Bdi, line);
  expectResult(e.line, Algorithm::Bdi, BdiEncoding::B8D1, 17, 1);
  EXPECT_EQ(e.bytes, (Bytes{0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0x01, 0xFE, 0x03, 0x9C, 0x64, 0x00, 0x07, 0x80}));
  expectRoundTrip(Algorithm::Bdi, line, e.bytes);
}

TEST(Bdi, OnlyTheZeroBaseWorksForSpreadSmallValues) {
  // A pointer first, then values that fit only the zero base (far from the pointer and from each
  // other): 0x8001D000 becomes the base, the rest take the zero base.
  const Bytes line = lineOf(64, 8, {0x8001D000, uint64_t(-128), 127, 0, 1, uint64_t(-1), 64, uint64_t(-64)});
  const auto e = encode(Algorithm::Bdi, line);
  expectResult(e.line, Algorithm::Bdi, BdiEncoding::B8D1, 18, 1);
  EXPECT_EQ(e.bytes[1], 0xFE);
  expectRoundTrip(Algorithm::Bdi, line, e.bytes);
}

TEST(Bdi, ThreeDistantValuesDoNotFit) {
  // Two bases cover two clusters at most.
  const Bytes line = lineOf(64, 8, {0x1111111111ull, 0x2222222222ull, 0x3333333333ull, 0});
  const auto e = encode(Algorithm::Bdi, line);
  EXPECT_FALSE(e.line.compressible);
  EXPECT_EQ(e.line.bytes, 64u);
  EXPECT_EQ(e.bytes, line);
}

TEST(Bdi, FullBdiPrefersFewerBurstsOverFirstFit) {
  // 8-byte values 0x80000000 + i and 0xFFFFFFF0 - i fit b8d4 (73 B, 3 bursts); as 4-byte words
  // they fit b4d1 with the zero base for the high words and the small negative ones (41 B, 2
  // bursts). The CABA search tries b8d4 first and stops; full BDI takes b4d1.
  const Bytes line = lineFrom(128, 8, [](uint32_t i) { return i % 2 ? 0xFFFFFFF0ull - i : 0x80000000ull + i; });
  const auto caba = encode(Algorithm::BdiCaba, line);
  expectResult(caba.line, Algorithm::BdiCaba, BdiEncoding::B8D4, 1 + 8 + 64, 3);
  const auto full = encode(Algorithm::Bdi, line);
  expectResult(full.line, Algorithm::Bdi, BdiEncoding::B4D1, 1 + 4 + 4 + 32, 2);
  expectRoundTrip(Algorithm::BdiCaba, line, caba.bytes);
  expectRoundTrip(Algorithm::Bdi, line, full.bytes);
}

TEST(Bdi, BurstTiesGoToFewerBytes) {
  // 8-byte values 0xFFFFFF9C and 0x100000064 are 200 apart: b8d2 (41 B, 2 bursts). As 4-byte
  // words (-100, 0, 100, 1) they all fit the zero base: b4d1 (37 B, 2 bursts), later in the list
  // but smaller. Full BDI takes b4d1; the CABA search stops at b8d2.
  const Bytes line = lineOf(128, 8, {0xFFFFFF9Cull, 0x100000064ull});
  const auto full = encode(Algorithm::Bdi, line);
  expectResult(full.line, Algorithm::Bdi, BdiEncoding::B4D1, 37, 2);
  const auto caba = encode(Algorithm::BdiCaba, line);
  expectResult(caba.line, Algorithm::BdiCaba, BdiEncoding::B8D2, 41, 2);
  expectRoundTrip(Algorithm::Bdi, line, full.bytes);
  expectRoundTrip(Algorithm::BdiCaba, line, caba.bytes);
}

TEST(Bdi, TinyValuesTakeTheSmallestOneBurstEncoding) {
  // Tiny 8-byte values fit b8d1 (17 B at 64 B), b4d1 (21 B) and b2d1 (35 B): b8d1.
  const auto e = encode(Algorithm::Bdi, lineOf(64, 8, {1, 2, 3, 4}));
  expectResult(e.line, Algorithm::Bdi, BdiEncoding::B8D1, 17, 1);
  // 2-byte values 0x4000 + i at 64 B fit only b2d1: 35 B, 2 bursts, not compressible.
  const auto s = encode(Algorithm::Bdi, lineFrom(64, 2, [](uint32_t i) { return 0x4000u + i; }));
  EXPECT_FALSE(s.line.compressible);
}

TEST(Bdi, CabaSubsetDependsOnLineSize) {
  const BdiEncoding all[] = {BdiEncoding::Zeros, BdiEncoding::Repeated, BdiEncoding::B8D1, BdiEncoding::B8D2,
                             BdiEncoding::B8D4,  BdiEncoding::B4D1,     BdiEncoding::B4D2, BdiEncoding::B2D1};
  const bool at128[] = {false, false, true, true, true, true, true, true};
  const bool at64[] = {false, false, true, true, false, true, false, false};
  for (unsigned i = 0; i < 8; ++i) {
    EXPECT_EQ(bdiCabaKeeps(all[i], 128), at128[i]) << i;
    EXPECT_EQ(bdiCabaKeeps(all[i], 64), at64[i]) << i;
    EXPECT_FALSE(bdiCabaKeeps(all[i], 32)) << i;
  }
}

TEST(Bdi, EncodedSizesAt128Bytes) {
  EXPECT_EQ(bdiEncodedBytes(BdiEncoding::Zeros, 128, false), 1u);
  EXPECT_EQ(bdiEncodedBytes(BdiEncoding::Repeated, 128, false), 9u);
  EXPECT_EQ(bdiEncodedBytes(BdiEncoding::B8D1, 128, false), 25u);
  EXPECT_EQ(bdiEncodedBytes(BdiEncoding::B8D1, 128, true), 27u);
  EXPECT_EQ(bdiEncodedBytes(BdiEncoding::B8D2, 128, true), 43u);
  EXPECT_EQ(bdiEncodedBytes(BdiEncoding::B8D4, 128, true), 75u);
  EXPECT_EQ(bdiEncodedBytes(BdiEncoding::B4D1, 128, true), 41u);
  EXPECT_EQ(bdiEncodedBytes(BdiEncoding::B4D2, 128, true), 73u);
  EXPECT_EQ(bdiEncodedBytes(BdiEncoding::B2D1, 128, false), 67u);
  EXPECT_EQ(bdiEncodedBytes(BdiEncoding::B2D1, 128, true), 75u);
}

TEST(Bdi, ThirtyTwoByteLinesNeverCompress) {
  for (Algorithm a : {Algorithm::Bdi, Algorithm::BdiCaba}) {
    const auto e = encode(a, Bytes(32, 0));
    EXPECT_FALSE(e.line.compressible);
    EXPECT_EQ(e.line.bytes, 32u);
    EXPECT_EQ(e.line.bursts, 1u);
  }
}

TEST(Bdi, DecodesAValidEncodingThatCompressNeverEmits) {
  // b2d1 at 64 B (35 B, no burst saved) is a well-formed BDI line all the same.
  Bytes in(35, 0);
  in[0] = 0x07;
  in[1] = 0x00;
  in[2] = 0x40;  // base 0x4000
  for (unsigned i = 0; i < 32; ++i) in[3 + i] = uint8_t(i);
  Bytes back;
  ASSERT_TRUE(decodes(Algorithm::Bdi, in, 64, back));
  EXPECT_EQ(back, lineFrom(64, 2, [](uint32_t i) { return 0x4000u + i; }));
  std::string error;
  EXPECT_FALSE(decodes(Algorithm::BdiCaba, in, 64, back, &error));
  EXPECT_EQ(error, "bdi-caba: encoding b2d1 is not kept at 64-byte lines");
}

}  // namespace
}  // namespace warpsim::mech::caba
