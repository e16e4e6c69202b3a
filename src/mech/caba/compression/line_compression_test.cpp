// The entry points: line sizes, uncompressed lines, names, the format tag, and BestOfAll's choice.
#include <gtest/gtest.h>

#include <stdexcept>

#include "mech/caba/compression/bdi.h"
#include "mech/caba/compression/line_test_support.h"

namespace warpsim::mech::caba {
namespace {

using testing::Bytes;
using testing::decodes;
using testing::encode;
using testing::lineFrom;
using testing::lineOf;

constexpr Algorithm kAll[] = {Algorithm::Bdi, Algorithm::BdiCaba, Algorithm::Fpc, Algorithm::CPack,
                              Algorithm::BestOfAll};

TEST(LineCompression, UnsupportedLineSizesAreRejected) {
  const Bytes line(256, 0);
  for (uint32_t size : {0u, 16u, 48u, 96u, 256u}) {
    EXPECT_FALSE(isSupportedLineSize(size));
    try {
      compress(Algorithm::Bdi, line.data(), size, nullptr);
      ADD_FAILURE() << size;
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()), "line compression: a " + std::to_string(size) +
                                           "-byte line is not supported (32, 64 or 128 bytes)");
    }
    Bytes back(256);
    std::string error;
    EXPECT_FALSE(decompress(Algorithm::Fpc, line.data(), 1, back.data(), size, &error));
    EXPECT_EQ(error, "line compression: a " + std::to_string(size) +
                         "-byte line is not supported (32, 64 or 128 bytes)");
  }
  for (uint32_t size : {32u, 64u, 128u}) EXPECT_TRUE(isSupportedLineSize(size));
}

TEST(LineCompression, IncompressibleLinesAreCopied) {
  Bytes line(128);
  for (unsigned i = 0; i < 128; ++i) line[i] = uint8_t(i * 37 + 11);  // no structure
  for (Algorithm a : kAll) {
    SCOPED_TRACE(algorithmName(a));
    const auto e = encode(a, line);
    EXPECT_FALSE(e.line.compressible);
    EXPECT_EQ(e.line.algorithm, a);
    EXPECT_EQ(e.line.encoding, kUncompressed);
    EXPECT_EQ(e.line.bytes, 128u);
    EXPECT_EQ(e.line.bursts, 4u);
    EXPECT_EQ(e.bytes, line);
    Bytes back;
    ASSERT_TRUE(decodes(a, e.bytes, 128, back));
    EXPECT_EQ(back, line);
  }
}

TEST(LineCompression, Names) {
  EXPECT_EQ(algorithmName(Algorithm::Bdi), "bdi");
  EXPECT_EQ(algorithmName(Algorithm::BdiCaba), "bdi-caba");
  EXPECT_EQ(algorithmName(Algorithm::Fpc), "fpc");
  EXPECT_EQ(algorithmName(Algorithm::CPack), "cpack");
  EXPECT_EQ(algorithmName(Algorithm::BestOfAll), "best-of-all");
  EXPECT_EQ(encodingName(Algorithm::Bdi, 0), "zeros");
  EXPECT_EQ(encodingName(Algorithm::Bdi, 1), "repeated");
  EXPECT_EQ(encodingName(Algorithm::Bdi, 7), "b2d1");
  EXPECT_EQ(encodingName(Algorithm::Bdi, 8), "invalid");
  EXPECT_EQ(encodingName(Algorithm::BdiCaba, 0), "invalid");  // the subset has no Zeros
  EXPECT_EQ(encodingName(Algorithm::BdiCaba, 4), "b8d4");
  EXPECT_EQ(encodingName(Algorithm::Fpc, 0x81), "zero+raw");
  EXPECT_EQ(encodingName(Algorithm::Fpc, 0x70), "halfword-padded+two-sext8-halfwords+repeated-bytes");
  EXPECT_EQ(encodingName(Algorithm::Fpc, 0), "invalid");
  EXPECT_EQ(encodingName(Algorithm::CPack, 0x0A), "zzzx+mmmx");
  EXPECT_EQ(encodingName(Algorithm::CPack, 0x10), "invalid");
  EXPECT_EQ(encodingName(Algorithm::BestOfAll, 2), "invalid");
  for (Algorithm a : kAll) EXPECT_EQ(encodingName(a, kUncompressed), "uncompressed");
}

TEST(LineCompression, BestOfAllTakesBdiOnThePvcLine) {
  // BDI 17 B and C-Pack 20 B (one entry, seven mmmx) are both one burst; BDI has fewer bytes.
  // FPC keeps the line.
  const Bytes line = lineFrom(64, 8, [](uint32_t i) { return 0x8001D000u + 8 * i; });
  EXPECT_EQ(encode(Algorithm::CPack, line).line.bytes, 20u);
  EXPECT_FALSE(encode(Algorithm::Fpc, line).line.compressible);
  const auto e = encode(Algorithm::BestOfAll, line);
  EXPECT_EQ(e.line.algorithm, Algorithm::BdiCaba);
  EXPECT_EQ(e.line.encoding, uint8_t(BdiEncoding::B8D1));
  EXPECT_EQ(e.line.bytes, 17u);
  EXPECT_EQ(e.bytes, encode(Algorithm::BdiCaba, line).bytes);
  Bytes back;
  ASSERT_TRUE(decodes(Algorithm::BestOfAll, e.bytes, 64, back));
  EXPECT_EQ(back, line);
}

TEST(LineCompression, BestOfAllTakesFpcOnTinyMixedSignInts) {
  // Words in [-7, 7]: FPC sext4 everywhere, 2 + 16 = 18 B (1 burst); BDI b4d1 37 B and C-Pack
  // 45 B are 2 bursts.
  const Bytes line = lineFrom(128, 4, [](uint32_t i) { return i % 2 ? uint32_t(-int32_t(i % 8)) : i % 8; });
  EXPECT_EQ(encode(Algorithm::BdiCaba, line).line.bursts, 2u);
  EXPECT_EQ(encode(Algorithm::CPack, line).line.bursts, 2u);
  const auto e = encode(Algorithm::BestOfAll, line);
  EXPECT_EQ(e.line.algorithm, Algorithm::Fpc);
  EXPECT_EQ(e.line.encoding, 0x02);
  EXPECT_EQ(e.line.bytes, 18u);
  EXPECT_EQ(e.line.bursts, 1u);
  EXPECT_EQ(e.bytes[0] >> 6, 1);
  Bytes back;
  ASSERT_TRUE(decodes(Algorithm::BestOfAll, e.bytes, 128, back));
  EXPECT_EQ(back, line);
}

TEST(LineCompression, BestOfAllTakesCPackOnFourScatteredWords) {
  // Four word values far apart: neither BDI base nor an FPC pattern fits; C-Pack's dictionary
  // holds all four: 1 + 16 + 8 = 25 B at 64 B.
  const Bytes line = lineOf(64, 4, {0x11111100u, 0x22222200u, 0x33333300u, 0x44444400u});
  EXPECT_FALSE(encode(Algorithm::BdiCaba, line).line.compressible);
  EXPECT_FALSE(encode(Algorithm::Fpc, line).line.compressible);
  const auto e = encode(Algorithm::BestOfAll, line);
  EXPECT_EQ(e.line.algorithm, Algorithm::CPack);
  EXPECT_EQ(e.line.encoding, 0x04);
  EXPECT_EQ(e.line.bytes, 25u);
  Bytes back;
  ASSERT_TRUE(decodes(Algorithm::BestOfAll, e.bytes, 64, back));
  EXPECT_EQ(back, line);
}

TEST(LineCompression, BestOfAllBreaksBurstTiesOnBytes) {
  // All zeros at 64 B: BDI (CABA) b8d1 17 B, FPC 1 B, C-Pack 9 B: FPC. At 128 B: BDI 25 B, FPC
  // 2 B, C-Pack 17 B: FPC.
  EXPECT_EQ(encode(Algorithm::BestOfAll, Bytes(64, 0)).line.algorithm, Algorithm::Fpc);
  EXPECT_EQ(encode(Algorithm::BestOfAll, Bytes(128, 0)).line.bytes, 2u);
}

TEST(LineCompression, DecodersCheckTheFormatTag) {
  const Bytes line = lineFrom(64, 8, [](uint32_t i) { return 0x8001D000u + 8 * i; });
  const Bytes bdi = encode(Algorithm::Bdi, line).bytes;
  Bytes back;
  std::string error;
  EXPECT_FALSE(decodes(Algorithm::Fpc, bdi, 64, back, &error));
  EXPECT_EQ(error, "fpc: the head's format tag is 0, not 1");
  EXPECT_FALSE(decodes(Algorithm::CPack, bdi, 64, back, &error));
  EXPECT_EQ(error, "cpack: the head's format tag is 0, not 2");
  const Bytes cpack = encode(Algorithm::CPack, line).bytes;
  EXPECT_FALSE(decodes(Algorithm::Bdi, cpack, 64, back, &error));
  EXPECT_EQ(error, "bdi: the head's format tag is 2, not 0");
  ASSERT_TRUE(decodes(Algorithm::BestOfAll, cpack, 64, back, &error)) << error;
  EXPECT_EQ(back, line);
  EXPECT_FALSE(decodes(Algorithm::BestOfAll, Bytes{0xC0}, 64, back, &error));
  EXPECT_EQ(error, "best-of-all: format tag 3 names no algorithm");
}

TEST(LineCompression, InputLengthRules) {
  Bytes back;
  std::string error;
  EXPECT_FALSE(decodes(Algorithm::Bdi, Bytes{}, 64, back, &error));
  EXPECT_EQ(error, "bdi: empty input");
  EXPECT_FALSE(decodes(Algorithm::Fpc, Bytes(65, 0), 64, back, &error));
  EXPECT_EQ(error, "fpc: 65 bytes are longer than the 64-byte line");
  const Bytes raw = lineFrom(64, 1, [](uint32_t i) { return 255 - i; });
  ASSERT_TRUE(decodes(Algorithm::CPack, raw, 64, back));  // exactly lineBytes: stored as is
  EXPECT_EQ(back, raw);
}

TEST(LineCompression, CompressWithoutOutputGivesTheSameResult) {
  const Bytes line = lineOf(128, 4, {0, 0x12345678u, 0x12345679u, 3});
  for (Algorithm a : kAll)
    EXPECT_EQ(compress(a, line.data(), 128, nullptr), encode(a, line).line) << algorithmName(a);
}

}  // namespace
}  // namespace warpsim::mech::caba
