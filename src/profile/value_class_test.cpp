// classifyWords: each class, the order in which they are tested, and masks.
#include "profile/value_class.h"

#include <gtest/gtest.h>

#include <bit>
#include <functional>

namespace warpsim::profile {
namespace {

// Inactive lanes hold this, so that a classifier that looked at them would go wrong.
constexpr uint32_t kGarbage = 0xDEADBEEFu;

WordClass classify(const std::function<uint32_t(uint32_t)>& word, uint32_t mask = 0xFFFFFFFFu) {
  uint32_t words[32];
  for (uint32_t lane = 0; lane < 32; ++lane) {
    words[lane] = ((mask >> lane) & 1u) != 0 ? word(lane) : kGarbage + lane * 977u;
  }
  return classifyWords(words, mask);
}

TEST(ValueClass, Uniform) {
  EXPECT_EQ(classify([](uint32_t) { return 42u; }), WordClass::Uniform);
  EXPECT_EQ(classify([](uint32_t) { return 0u; }), WordClass::Uniform);
  // One active lane is uniform whatever it holds; so are equal active lanes among others.
  EXPECT_EQ(classify([](uint32_t l) { return l * 12345u; }, 1u << 17), WordClass::Uniform);
  EXPECT_EQ(classify([](uint32_t) { return 0x80000000u; }, 0x00F000F0u), WordClass::Uniform);
}

TEST(ValueClass, AffineWithPositiveAndNegativeStrides) {
  EXPECT_EQ(classify([](uint32_t l) { return l; }), WordClass::Affine);
  EXPECT_EQ(classify([](uint32_t l) { return 0x1000u + 4 * l; }), WordClass::Affine);
  EXPECT_EQ(classify([](uint32_t l) { return 1000u - 3 * l; }), WordClass::Affine);
  EXPECT_EQ(classify([](uint32_t l) { return 0u - l; }), WordClass::Affine);  // 0, -1, -2, ...
  // Wrapping past 2^32 stays affine (0xFFFFFFFE, 0xFFFFFFFF, 0, 1, ...).
  EXPECT_EQ(classify([](uint32_t l) { return 0xFFFFFFFEu + l; }), WordClass::Affine);
}

TEST(ValueClass, AffineUnderADivergentMask) {
  // Lanes 4..7 and 20..23 active: 7 + 5 * lane in each; base 7 is what lane 0 would hold.
  EXPECT_EQ(classify([](uint32_t l) { return 7u + 5 * l; }, 0x00F000F0u), WordClass::Affine);
  // Even lanes only, stride 3.
  EXPECT_EQ(classify([](uint32_t l) { return 10u + 3 * l; }, 0x55555555u), WordClass::Affine);
  // Even lanes holding 0, 1, 2, ...: no stride s has 2 * s = 1 (mod 2^32), so not affine.
  EXPECT_EQ(classify([](uint32_t l) { return l / 2; }, 0x55555555u), WordClass::Msb3);
  // Lanes 0 and 16 with 0 and 0x80000000: stride 0x08000000 (mod 2^28) fits.
  EXPECT_EQ(classify([](uint32_t l) { return l == 0 ? 0u : 0x80000000u; }, 0x00010001u),
            WordClass::Affine);
  // Two active lanes always fit a line when their distance is odd.
  EXPECT_EQ(classify([](uint32_t l) { return l == 3 ? 0x12345678u : 0x9ABCDEF0u; }, 0x18u),
            WordClass::Affine);
  // One lane off the line breaks it.
  EXPECT_EQ(classify([](uint32_t l) { return l == 9 ? 0u : 0x100u + 2 * l; }, 0x0000FF00u),
            WordClass::Msb2);
}

// Every line base + lane * stride under any mask with two or more active lanes is affine (or
// uniform, when the stride vanishes at every active distance, e.g. 2^31 at even distances), and
// moving one active lane off a line that its other lanes pin down makes it not affine.
TEST(ValueClass, LinesUnderPseudoRandomMasks) {
  uint64_t state = 12345;
  auto next = [&state] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<uint32_t>(state >> 32);
  };
  for (int i = 0; i < 2000; ++i) {
    const uint32_t mask = next() & next();  // about 8 lanes
    if (std::popcount(mask) < 2) continue;
    const uint32_t base = next();
    const uint32_t stride = i % 4 == 0 ? (next() & 0xFu) << 28 : next() | 1u;
    uint32_t line[32];
    bool allEqual = true;
    for (uint32_t lane = 0; lane < 32; ++lane) {
      line[lane] = ((mask >> lane) & 1u) != 0 ? base + lane * stride : kGarbage;
      if (((mask >> lane) & 1u) != 0) allEqual &= line[lane] == line[std::countr_zero(mask)];
    }
    const WordClass c = classifyWords(line, mask);
    EXPECT_EQ(c, allEqual ? WordClass::Uniform : WordClass::Affine) << i;
    if (allEqual) continue;
    // Off the line by 1 in the last of three or more active lanes, when the first two are an
    // odd distance apart (they then fix the stride exactly).
    const int first = std::countr_zero(mask);
    const int second = std::countr_zero(mask & (mask - 1));
    if (std::popcount(mask) >= 3 && (second - first) % 2 == 1) {
      line[31 - std::countl_zero(mask)] += 1;
      EXPECT_NE(classifyWords(line, mask), WordClass::Affine) << i;
    }
  }
}

TEST(ValueClass, AffineIsTestedBeforeCommonHighBytes) {
  // G-Scalar's example, 0xC04039C0 + 8 * k: the three high bytes are common, but the words are
  // affine (stride 8), and affine comes first.
  EXPECT_EQ(classify([](uint32_t l) { return 0xC04039C0u + 8 * (l % 8); }, 0xFFu),
            WordClass::Affine);
  // The same high bytes with low bytes that are not on a line.
  EXPECT_EQ(classify([](uint32_t l) { return 0xC0403900u + (l * l) % 256; }), WordClass::Msb3);
}

TEST(ValueClass, CommonMostSignificantBytes) {
  EXPECT_EQ(classify([](uint32_t l) { return 0x12345600u | ((l * l) & 0xFFu); }), WordClass::Msb3);
  EXPECT_EQ(classify([](uint32_t l) { return 0x12340000u | (l * l * 60); }), WordClass::Msb2);
  EXPECT_EQ(classify([](uint32_t l) { return 0x12000000u | (l * l * l * 500); }), WordClass::Msb1);
  EXPECT_EQ(classify([](uint32_t l) { return l * l * l * 0x01000193u; }), WordClass::Random);
}

TEST(ValueClass, PrefixRuleIgnoresEqualLowBytesUnderADifferentHighByte) {
  // 0x12345678 and 0x92345678 share their three low bytes, not the most-significant one: random.
  EXPECT_EQ(classify([](uint32_t l) { return l % 3 == 0 ? 0x92345678u : 0x12345678u; }),
            WordClass::Random);
}

TEST(ValueClass, Names) {
  EXPECT_STREQ(wordClassName(WordClass::Uniform), "uniform");
  EXPECT_STREQ(wordClassName(WordClass::Affine), "affine");
  EXPECT_STREQ(wordClassName(WordClass::Msb3), "msb3");
  EXPECT_STREQ(wordClassName(WordClass::Msb2), "msb2");
  EXPECT_STREQ(wordClassName(WordClass::Msb1), "msb1");
  EXPECT_STREQ(wordClassName(WordClass::Random), "random");
}

}  // namespace
}  // namespace warpsim::profile
