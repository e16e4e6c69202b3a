// FPC, CABA segment variant: which patterns a word fits, one pattern per segment, exact sizes and
// bytes of hand-made lines at 32, 64 and 128 bytes.
#include <gtest/gtest.h>

#include "mech/caba/compression/fpc.h"
#include "mech/caba/compression/line_test_support.h"

namespace warpsim::mech::caba {
namespace {

using testing::Bytes;
using testing::expectRoundTrip;
using testing::encode;
using testing::lineFrom;
using testing::lineOf;

TEST(Fpc, PatternsAWordFits) {
  EXPECT_EQ(fpcPatternsFitting(0), 0xFF);           // every pattern
  EXPECT_EQ(fpcPatternsFitting(0xFFFFFFFFu), 0xEE);  // sext4, sext8, sext16, two-sext8, repeated, raw
  EXPECT_EQ(fpcPatternsFitting(7), 0xAE);           // sext4, sext8, sext16, two-sext8, raw
  EXPECT_EQ(fpcPatternsFitting(8), 0xAC);           // sext8, sext16, two-sext8, raw
  EXPECT_EQ(fpcPatternsFitting(0x80), 0x88);        // sext16, raw
  EXPECT_EQ(fpcPatternsFitting(0xFFFF8000u), 0x88);  // -32768: sext16, raw
  EXPECT_EQ(fpcPatternsFitting(0x12340000u), 0x90);  // halfword-padded, raw
  EXPECT_EQ(fpcPatternsFitting(0xFF80FF80u), 0xA0);  // two-sext8, raw
  EXPECT_EQ(fpcPatternsFitting(0x80808080u), 0xC0);  // repeated, raw
  EXPECT_EQ(fpcPatternsFitting(0x12345678u), 0x80);  // raw
}

TEST(Fpc, SegmentsTakeTheirOwnPatterns) {
  // 128 B: a zero segment, a sext4 one, a sext8 one and a raw one: 2 + 0 + 4 + 8 + 32 = 46 B.
  const uint32_t words[32] = {0, 0, 0, 0, 0, 0, 0, 0,                                     //
                              1, 0xFFFFFFFFu, 7, 0xFFFFFFF8u, 0, 3, 0xFFFFFFFEu, 5,           //
                              100, uint32_t(-100), 127, uint32_t(-128), 0, 1, 2, 3,            //
                              0x12345678u, 1, 2, 3, 4, 5, 6, 7};
  const Bytes line = lineFrom(128, 4, [&](uint32_t i) { return words[i]; });
  const auto e = encode(Algorithm::Fpc, line);
  EXPECT_TRUE(e.line.compressible);
  EXPECT_EQ(e.line.algorithm, Algorithm::Fpc);
  EXPECT_EQ(e.line.encoding, 0x87);
  EXPECT_EQ(encodingName(Algorithm::Fpc, e.line.encoding), "zero+sext4+sext8+raw");
  EXPECT_EQ(e.line.bytes, 46u);
  EXPECT_EQ(e.line.bursts, 2u);
  Bytes expected = {0x48, 0x3A,                                      // codes 0, 1 | tag 1; codes 2, 7
                    0xF1, 0x87, 0x30, 0x5E,                          // sext4 nibbles
                    0x64, 0x9C, 0x7F, 0x80, 0x00, 0x01, 0x02, 0x03};  // sext8 bytes
  expected.insert(expected.end(), line.begin() + 96, line.end());    // raw
  EXPECT_EQ(e.bytes, expected);
  expectRoundTrip(Algorithm::Fpc, line, e.bytes);
}

struct UniformCase {
  uint32_t word;
  FpcPattern pattern;
  uint32_t bytes;   // at 128 B: 2-byte head + 4 segments
  Bytes payload;    // of the first word
};

TEST(Fpc, EachPatternOnAUniformLine) {
  const UniformCase cases[] = {
      {0, FpcPattern::Zero, 2, {}},
      {5, FpcPattern::Sext4, 2 + 4 * 4, {0x55}},  // a byte holds two words
      {0x7F, FpcPattern::Sext8, 2 + 4 * 8, {0x7F}},
      {0x1234, FpcPattern::Sext16, 2 + 4 * 16, {0x34, 0x12}},
      {0x12340000u, FpcPattern::HalfwordPadded, 2 + 4 * 16, {0x34, 0x12}},
      {0x007FFF80u, FpcPattern::TwoSext8Halfwords, 2 + 4 * 16, {0x80, 0x7F}},
      {0xABABABABu, FpcPattern::RepeatedBytes, 2 + 4 * 8, {0xAB}},
  };
  for (const UniformCase& c : cases) {
    SCOPED_TRACE(fpcPatternName(uint8_t(c.pattern)));
    const Bytes line = lineOf(128, 4, {c.word});
    const auto e = encode(Algorithm::Fpc, line);
    EXPECT_TRUE(e.line.compressible);
    EXPECT_EQ(e.line.encoding, 1u << unsigned(c.pattern));
    EXPECT_EQ(e.line.bytes, c.bytes);
    EXPECT_EQ(e.line.bursts, burstsFor(c.bytes));
    const uint8_t code = uint8_t(c.pattern);
    EXPECT_EQ(e.bytes[0], 0x40 | code | code << 3);
    EXPECT_EQ(e.bytes[1], code | code << 3);
    EXPECT_EQ((Bytes{e.bytes.begin() + 2, e.bytes.begin() + 2 + long(c.payload.size())}), c.payload);
    expectRoundTrip(Algorithm::Fpc, line, e.bytes);
  }
  // Raw segments everywhere: 130 B, kept uncompressed.
  const auto raw = encode(Algorithm::Fpc, lineOf(128, 4, {0x12345678u}));
  EXPECT_FALSE(raw.line.compressible);
  EXPECT_EQ(raw.line.encoding, kUncompressed);
  EXPECT_EQ(raw.line.bytes, 128u);
}

TEST(Fpc, OneWideWordWidensItsWholeSegment) {
  // 64 B: segment 0 is zeros but one sext16 word; segment 1 is zeros: 1 + 16 + 0 = 17 B.
  const Bytes line = lineFrom(64, 4, [](uint32_t i) { return i == 3 ? 0x1234u : 0u; });
  const auto e = encode(Algorithm::Fpc, line);
  EXPECT_EQ(e.line.encoding, 0x09);  // sext16 + zero
  EXPECT_EQ(e.line.bytes, 17u);
  EXPECT_EQ(e.bytes[0], 0x43);
  EXPECT_EQ(e.bytes[7], 0x34);
  EXPECT_EQ(e.bytes[8], 0x12);
  expectRoundTrip(Algorithm::Fpc, line, e.bytes);
}

TEST(Fpc, TiesInSizeGoToTheLowerCode) {
  // -1 fits sext4 (4 B), sext8 and repeated-bytes (8 B): sext4.
  EXPECT_EQ(encode(Algorithm::Fpc, lineOf(64, 4, {0xFFFFFFFFu})).line.encoding, 0x02);
  // 0x00050000 fits halfword-padded and two-sext8-halfwords (16 B each): halfword-padded (4).
  EXPECT_EQ(encode(Algorithm::Fpc, lineOf(128, 4, {0x00050000u})).line.encoding, 0x10);
  // 0x00050005 fits two-sext8-halfwords alone.
  EXPECT_EQ(encode(Algorithm::Fpc, lineOf(128, 4, {0x00050005u})).line.encoding, 0x20);
}

TEST(Fpc, SixtyFourByteLineHasAOneByteHead) {
  // Segment 0: 1..8 (8 does not fit sext4): sext8; segment 1: zeros. 1 + 8 = 9 B.
  const Bytes line = lineFrom(64, 4, [](uint32_t i) { return i < 8 ? i + 1 : 0u; });
  const auto e = encode(Algorithm::Fpc, line);
  EXPECT_EQ(e.line.encoding, 0x05);
  EXPECT_EQ(encodingName(Algorithm::Fpc, e.line.encoding), "zero+sext8");
  EXPECT_EQ(e.line.bytes, 9u);
  EXPECT_EQ(e.line.bursts, 1u);
  EXPECT_EQ(e.bytes, (Bytes{0x42, 1, 2, 3, 4, 5, 6, 7, 8}));
  expectRoundTrip(Algorithm::Fpc, line, e.bytes);
}

TEST(Fpc, SignExtendedPayloadsDecodeNegative) {
  // 128 B: segment 0 sext16 at both ends of its range, segment 1 two-sext8-halfwords with
  // negative halves, segments 2 and 3 zero: 2 + 16 + 16 = 34 B.
  const uint32_t words[16] = {0xFFFFFF80u, 0x7F,        0xFFFF8000u, 0x7FFF,      0xFFFFFFFFu, 0, 1, 0xFFFFFF7Fu,
                              0xFF80007Fu, 0x007FFF80u, 0xFFFFFFFFu, 0x00010002u, 0,           0xFFFE0003u,
                              0x0000FFFFu, 0xFF800000u};
  const Bytes line = lineFrom(128, 4, [&](uint32_t i) { return i < 16 ? words[i] : 0u; });
  const auto e = encode(Algorithm::Fpc, line);
  EXPECT_EQ(e.line.encoding, 0x29);  // zero, sext16, two-sext8-halfwords
  EXPECT_EQ(e.line.bytes, 34u);
  EXPECT_EQ(e.bytes[0], 0x40 | 3 | 5 << 3);
  EXPECT_EQ(e.bytes[1], 0x00);
  EXPECT_EQ((Bytes{e.bytes.begin() + 2, e.bytes.begin() + 6}), (Bytes{0x80, 0xFF, 0x7F, 0x00}));
  EXPECT_EQ((Bytes{e.bytes.begin() + 18, e.bytes.begin() + 22}), (Bytes{0x7F, 0x80, 0x80, 0x7F}));
  expectRoundTrip(Algorithm::Fpc, line, e.bytes);
}

TEST(Fpc, ThirtyTwoByteLinesNeverCompress) {
  const auto e = encode(Algorithm::Fpc, Bytes(32, 0));  // 1 B, but one burst either way
  EXPECT_FALSE(e.line.compressible);
  EXPECT_EQ(e.line.bytes, 32u);
  EXPECT_EQ(e.line.bursts, 1u);
}

}  // namespace
}  // namespace warpsim::mech::caba
