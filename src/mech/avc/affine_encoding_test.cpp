#include "mech/avc/affine_encoding.h"

#include <gtest/gtest.h>

namespace warpsim::mech::avc {
namespace {

struct Vec {
  uint32_t d[32] = {};
};
Vec affine(uint32_t base, uint32_t stride) {
  Vec v;
  for (uint32_t i = 0; i < 32; ++i) v.d[i] = base + i * stride;
  return v;
}

TEST(AffineEncoding, UniformStrideOneAndFourEncodeAndDecode) {
  AffineCode c;
  const Vec u = affine(0xCAFE, 0);
  ASSERT_TRUE(encodeExact(u.d, ~0u, c));
  EXPECT_EQ(c, (AffineCode{0xCAFE, kStrideZero}));
  ASSERT_TRUE(encodeHardware(u.d, ~0u, c));
  EXPECT_EQ(c, (AffineCode{0xCAFE, kStrideZero}));
  const Vec s1 = affine(64, 1), s4 = affine(0x1000, 4);
  ASSERT_TRUE(encodeHardware(s1.d, ~0u, c));
  EXPECT_EQ(c, (AffineCode{64, 0}));
  ASSERT_TRUE(encodeHardware(s4.d, ~0u, c));
  EXPECT_EQ(c, (AffineCode{0x1000, 2}));
  for (unsigned lane = 0; lane < 32; ++lane) EXPECT_EQ(decodeLane(c, lane), s4.d[lane]);
}

TEST(AffineEncoding, StrideThreeNegativeAndHugeStridesAreNotRepresentable) {
  AffineCode c;
  const Vec s3 = affine(0, 3), down = affine(100, static_cast<uint32_t>(-1)), big = affine(0, 128);
  for (const Vec* v : {&s3, &down, &big}) {
    EXPECT_FALSE(encodeExact(v->d, ~0u, c));
    EXPECT_FALSE(encodeHardware(v->d, ~0u, c));
    EXPECT_EQ(classify(v->d, ~0u).cls, ValueClass::Affine);
    EXPECT_TRUE(classify(v->d, ~0u).unrepresentable);
  }
}

TEST(AffineEncoding, InactiveLanesAreDontCares) {
  Vec v = affine(40, 4);
  for (unsigned lane = 16; lane < 32; ++lane) v.d[lane] = 0xDEADBEEF;
  AffineCode c;
  EXPECT_FALSE(encodeHardware(v.d, ~0u, c));
  ASSERT_TRUE(encodeHardware(v.d, 0x0000FFFFu, c));
  EXPECT_EQ(c, (AffineCode{40, 2}));
  // The base of a vector whose first active lane is 5 wraps modulo 2^32.
  Vec w = affine(0, 1);
  for (unsigned lane = 0; lane < 32; ++lane) w.d[lane] = lane - 3;
  ASSERT_TRUE(encodeHardware(w.d, 0xFFFFFFE0u, c));
  EXPECT_EQ(c.base, static_cast<uint32_t>(-3));
}

TEST(AffineEncoding, HardwareUsesTheLowestBitOfTheFirstPairXor) {
  // 4, 8, 12, ...: the first pair's XOR is 4 ^ 8 = 12, lowest bit 4: the right stride.
  const Vec v = affine(4, 4);
  AffineCode c;
  ASSERT_TRUE(encodeHardware(v.d, ~0u, c));
  EXPECT_EQ(c, (AffineCode{4, 2}));
}

TEST(AffineEncoding, EncodersDisagreeWhereThePaperLeavesGaps) {
  AffineCode c;
  // Only lanes 1 and 2 active: no aligned pair, so the hardware encoder assumes stride 0.
  Vec v = affine(0, 1);
  EXPECT_TRUE(encodeExact(v.d, 0b110, c));
  EXPECT_FALSE(encodeHardware(v.d, 0b110, c));
  // 1, 5, 9, ...: stride 4 but the base is not a multiple of it.
  const Vec odd = affine(1, 4);
  EXPECT_FALSE(encodeExact(odd.d, ~0u, c));
  EXPECT_TRUE(encodeHardware(odd.d, ~0u, c));
}

TEST(AffineEncoding, ClassifiesZeroUniformAffineGeneric) {
  EXPECT_EQ(classify(affine(0, 0).d, ~0u).cls, ValueClass::Zero);
  EXPECT_EQ(classify(affine(7, 0).d, ~0u).cls, ValueClass::Uniform);
  EXPECT_EQ(classify(affine(7, 8).d, ~0u).cls, ValueClass::Affine);
  Vec g = affine(7, 8);
  g.d[31] = 1;
  EXPECT_EQ(classify(g.d, ~0u).cls, ValueClass::Generic);
  EXPECT_EQ(classify(g.d, 0x7FFFFFFFu).cls, ValueClass::Affine);
  EXPECT_TRUE(denseMask(0x0FF0u));
  EXPECT_FALSE(denseMask(0x0F0Fu));
}

}  // namespace
}  // namespace warpsim::mech::avc
