// C-Pack, CABA variant: the serial four-entry dictionary, the four word patterns, exact sizes and
// bytes of hand-made lines.
#include <gtest/gtest.h>

#include "mech/caba/compression/cpack.h"
#include "mech/caba/compression/line_test_support.h"

namespace warpsim::mech::caba {
namespace {

using testing::Bytes;
using testing::expectRoundTrip;
using testing::encode;
using testing::lineFrom;
using testing::lineOf;

TEST(CPack, HandMadeLineUsesAllFourPatterns) {
  // 64 B: entries 0x12345678 and 0xCAFEBA00; three mismatch bytes. 1 + 8 + 8 + 3 = 20 B.
  const uint32_t words[16] = {0, 0x12345678u, 0x12345699u, 0xABu, 0x12345678u, 0xCAFEBA00u, 0xCAFEBA11u, 0};
  const Bytes line = lineFrom(64, 4, [&](uint32_t i) { return words[i]; });
  const auto e = encode(Algorithm::CPack, line);
  EXPECT_TRUE(e.line.compressible);
  EXPECT_EQ(e.line.algorithm, Algorithm::CPack);
  EXPECT_EQ(e.line.encoding, 0x0F);
  EXPECT_EQ(encodingName(Algorithm::CPack, e.line.encoding), "zzzz+zzzx+mmmm+mmmx");
  EXPECT_EQ(e.line.bytes, 20u);
  EXPECT_EQ(e.line.bursts, 1u);
  EXPECT_EQ(e.bytes, (Bytes{0x82,                    // 2 entries | tag 2
                            0x78, 0x56, 0x34, 0x12,  // entry 0
                            0x00, 0xBA, 0xFE, 0xCA,  // entry 1
                            0x20,                    // zzzz, mmmm[0]
                            0x13,                    // mmmx[0], zzzx
                            0x62,                    // mmmm[0], mmmm[1]
                            0x07,                    // mmmx[1], zzzz
                            0x00, 0x00, 0x00, 0x00,  // zzzz x 8
                            0x99, 0xAB, 0x11}));     // mismatch bytes in word order
  expectRoundTrip(Algorithm::CPack, line, e.bytes);
}

TEST(CPack, AllZerosIsHeadAndCodes) {
  const auto e = encode(Algorithm::CPack, Bytes(128, 0));
  EXPECT_EQ(e.line.encoding, 0x01);
  EXPECT_EQ(e.line.bytes, 1u + 16u);
  EXPECT_EQ(e.line.bursts, 1u);
  Bytes expected(17, 0);
  expected[0] = 0x80;
  EXPECT_EQ(e.bytes, expected);
}

TEST(CPack, NarrowWordsAreZeroExtended) {
  // 1..32: every word zzzx, no dictionary: 1 + 16 + 32 = 49 B.
  const Bytes line = lineFrom(128, 4, [](uint32_t i) { return i + 1; });
  const auto e = encode(Algorithm::CPack, line);
  EXPECT_EQ(e.line.encoding, 0x02);
  EXPECT_EQ(e.line.bytes, 49u);
  EXPECT_EQ(e.line.bursts, 2u);
  EXPECT_EQ(e.bytes[0], 0x80);
  EXPECT_EQ(e.bytes[1], 0x11);
  EXPECT_EQ(e.bytes[17], 0x01);
  EXPECT_EQ(e.bytes[48], 0x20);
  expectRoundTrip(Algorithm::CPack, line, e.bytes);
}

TEST(CPack, FourEntriesFitAFifthDoesNot) {
  const Bytes four = lineOf(128, 4, {0x11111100u, 0x22222200u, 0x33333300u, 0x44444400u});
  const auto e = encode(Algorithm::CPack, four);
  EXPECT_TRUE(e.line.compressible);
  EXPECT_EQ(e.line.encoding, 0x04);  // mmmm only
  EXPECT_EQ(e.line.bytes, 1u + 16u + 16u);
  EXPECT_EQ(e.bytes[0], 0x84);
  EXPECT_EQ(e.bytes[17], 0x2 | (0x2 | 1 << 2) << 4);  // mmmm[0], mmmm[1]
  EXPECT_EQ(e.bytes[18], (0x2 | 2 << 2) | (0x2 | 3 << 2) << 4);
  expectRoundTrip(Algorithm::CPack, four, e.bytes);

  const Bytes five = lineOf(128, 4, {0x11111100u, 0x22222200u, 0x33333300u, 0x44444400u, 0x55555500u});
  const auto u = encode(Algorithm::CPack, five);
  EXPECT_FALSE(u.line.compressible);
  EXPECT_EQ(u.line.encoding, kUncompressed);
  EXPECT_EQ(u.line.bytes, 128u);
  EXPECT_EQ(u.bytes, five);
}

TEST(CPack, PartialMatchesDoNotTakeEntries) {
  // Eight words sharing their upper three bytes: one entry, seven mmmx. 64 B: 1 + 4 + 8 + 7 = 20.
  const Bytes line = lineFrom(64, 4, [](uint32_t i) { return i < 8 ? 0xDEADBE00u + i : 0u; });
  const auto e = encode(Algorithm::CPack, line);
  EXPECT_EQ(e.line.encoding, 0x0D);  // zzzz, mmmm (the entry itself), mmmx
  EXPECT_EQ(e.line.bytes, 20u);
  EXPECT_EQ(e.bytes[0], 0x81);
  EXPECT_EQ(format::loadLE(e.bytes.data() + 1, 4), 0xDEADBE00u);
  expectRoundTrip(Algorithm::CPack, line, e.bytes);
}

TEST(CPack, EntriesFollowFirstAppearance) {
  // B comes before A in the line: entry 0 is B. A's partial match names entry 1.
  const Bytes line = lineOf(64, 4, {0xBBBBBB01u, 0xAAAAAA01u, 0xAAAAAA02u, 0xBBBBBB01u});
  const auto e = encode(Algorithm::CPack, line);
  EXPECT_EQ(format::loadLE(e.bytes.data() + 1, 4), 0xBBBBBB01u);
  EXPECT_EQ(format::loadLE(e.bytes.data() + 5, 4), 0xAAAAAA01u);
  EXPECT_EQ(e.bytes[9], 0x2 | (0x2 | 1 << 2) << 4);          // mmmm[0], mmmm[1]
  EXPECT_EQ(e.bytes[10], (0x3 | 1 << 2) | 0x2 << 4);         // mmmx[1], mmmm[0]
  EXPECT_EQ(e.line.bytes, 1u + 8u + 8u + 4u);                 // four mmmx of 0xAAAAAA02
  expectRoundTrip(Algorithm::CPack, line, e.bytes);
}

TEST(CPack, AWordLeftUncoveredAfterFourEntriesKeepsTheLine) {
  // Four distinct entries, then a fifth distinct word at the very end.
  const Bytes line = lineFrom(64, 4, [](uint32_t i) { return i == 15 ? 0x99999999u : 0x01000000u * (i % 4 + 1); });
  EXPECT_FALSE(encode(Algorithm::CPack, line).line.compressible);
}

TEST(CPack, ThirtyTwoByteLinesNeverCompress) {
  const auto e = encode(Algorithm::CPack, Bytes(32, 0));  // 5 B, one burst either way
  EXPECT_FALSE(e.line.compressible);
  EXPECT_EQ(e.line.bytes, 32u);
}

}  // namespace
}  // namespace warpsim::mech::caba
