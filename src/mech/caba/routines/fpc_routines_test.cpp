// The FPC assist-warp routines, run functionally by the assist executor on real lines, rebuild
// exactly what the compression library encoded and encode exactly what it encodes, for every
// segment pattern in every position, at both line sizes.
#include "mech/caba/routines/fpc_routines.h"

#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <random>
#include <set>

#include "mech/caba/compression/fpc.h"
#include "mech/caba/compression/line_format.h"
#include "mech/caba/routines/routine_text.h"
#include "ptx/parser.h"
#include "timing/sm/assist/assist_executor.h"

namespace warpsim::mech::caba {
namespace {

uint32_t fpcLaneMask(uint32_t lineBytes) {
  return fpcLanes(lineBytes) >= 32 ? ~0u : (1u << fpcLanes(lineBytes)) - 1;
}

// A word shaped for pattern p (it fits p, perhaps a smaller pattern too). With `tie`, a
// halfword-padded word's high half is a sign-extended byte, so that the word also fits
// two-sext8-halfwords, of the same size (the lower code wins).
uint32_t wordFor(FpcPattern p, bool tie, std::mt19937_64& rng) {
  const auto sext = [&](unsigned bits) {
    const int32_t half = int32_t{1} << (bits - 1);
    return uint32_t(int32_t(rng() % (2 * half)) - half);
  };
  switch (p) {
    case FpcPattern::Zero: return 0;
    case FpcPattern::Sext4: return sext(4);
    case FpcPattern::Sext8: return sext(8);
    case FpcPattern::Sext16: return sext(16);
    case FpcPattern::HalfwordPadded: return (tie ? sext(8) : uint32_t(rng())) << 16;
    case FpcPattern::TwoSext8Halfwords: return (sext(8) & 0xFFFFu) | sext(8) << 16;
    case FpcPattern::RepeatedBytes: return uint32_t(rng() & 0xFF) * 0x01010101u;
    case FpcPattern::Raw: return uint32_t(rng());
  }
  return 0;
}

// A line whose segments are shaped for random patterns; the trial picks how often a segment is
// raw, so that some lines compress with every pattern and some do not compress.
void makeFpcLine(uint8_t* line, uint32_t L, int trial, std::mt19937_64& rng) {
  for (uint32_t s = 0; s < L / kFpcSegmentBytes; ++s) {
    FpcPattern p = FpcPattern(rng() % kFpcPatternCount);
    if (trial % 7 == 6) p = FpcPattern::Raw;                                 // incompressible
    if (trial % 7 == 5 && p == FpcPattern::Raw) p = FpcPattern::Sext16;      // compressible
    const bool tie = rng() % 2 == 0;
    for (uint32_t w = 0; w < kFpcWordsPerSegment; ++w)
      format::storeLE(line + s * kFpcSegmentBytes + 4 * w, wordFor(p, tie, rng), 4);
  }
}

// The segment codes of an encoded line.
std::vector<uint8_t> codesOf(const uint8_t* encoded, uint32_t L) {
  std::vector<uint8_t> codes;
  for (uint32_t s = 0; s < L / kFpcSegmentBytes; ++s) codes.push_back(encoded[s / 2] >> (s % 2 ? 3 : 0) & 7);
  return codes;
}

class FpcRoutines : public ::testing::TestWithParam<uint32_t> {};

TEST_P(FpcRoutines, DecompressEveryPatternCombinationExactly) {
  const uint32_t L = GetParam();
  timing::AssistRoutineStore store(
      ptx::parseModule(kRoutineModuleHeader + fpcRoutines(L), "fpc.ptx"));
  timing::AssistExecutor exec(store);
  const uint32_t routine = store.require(kFpcDecompressName);
  std::mt19937_64 rng(7);
  int checked = 0;
  std::set<std::pair<uint32_t, uint8_t>> seen;  // (segment, code)
  std::set<uint32_t> combinations;  // the segments' codes, 3 bits each
  for (int trial = 0; trial < 800; ++trial) {
    uint8_t line[128], encoded[128];
    makeFpcLine(line, L, trial, rng);
    const CompressedLine c = compress(Algorithm::Fpc, line, L, encoded);
    if (!c.compressible) continue;
    const uint64_t address = 0x7f0000001000ull;
    ASSERT_TRUE(exec.run(routine, fpcLaneMask(L), encoded, c.bytes, &address, 1)) << exec.error();
    ASSERT_EQ(std::memcmp(exec.shared() + L, line, L), 0)
        << "trial " << trial << " " << encodingName(Algorithm::Fpc, c.encoding);
    const std::vector<uint8_t> codes = codesOf(encoded, L);
    uint32_t combination = 0;
    for (uint32_t s = 0; s < codes.size(); ++s) {
      seen.insert({s, codes[s]});
      combination |= uint32_t{codes[s]} << (3 * s);
    }
    combinations.insert(combination);
    ++checked;
  }
  EXPECT_GT(checked, 400);
  // Every pattern was decoded in every segment (but raw at 64 B: a raw segment leaves no
  // burst to save), in many combinations: at 64 B all 40 that compress.
  for (uint32_t s = 0; s < L / kFpcSegmentBytes; ++s) {
    for (uint8_t code = 0; code < kFpcPatternCount; ++code) {
      if (L == 64 && code == uint8_t(FpcPattern::Raw)) continue;
      EXPECT_TRUE(seen.count({s, code})) << "segment " << s << " " << fpcPatternName(code);
    }
  }
  if (L == 64) {
    EXPECT_EQ(combinations.size(), 40u);  // 7 x 7 but the 9 pairs of 16-byte payloads (33 B)
  } else {
    EXPECT_GT(combinations.size(), 300u);
  }
}

TEST_P(FpcRoutines, CompressWritesTheLibrarysBytes) {
  const uint32_t L = GetParam();
  timing::AssistRoutineStore store(
      ptx::parseModule(kRoutineModuleHeader + fpcRoutines(L), "fpc.ptx"));
  timing::AssistExecutor exec(store);
  const uint32_t routine = store.require(kFpcCompressName);
  std::mt19937_64 rng(11);
  std::map<std::string, int> seen;
  std::set<std::pair<uint32_t, uint8_t>> codes;
  for (int trial = 0; trial < 800; ++trial) {
    uint8_t line[128], encoded[128];
    makeFpcLine(line, L, trial, rng);
    if (trial % 50 == 0) std::memset(line, 0, L);  // the smallest encoding: the head alone
    const CompressedLine c = compress(Algorithm::Fpc, line, L, encoded);
    const uint64_t address = 0;
    ASSERT_TRUE(exec.run(routine, fpcLaneMask(L), line, L, &address, 1)) << exec.error();
    const uint8_t* out = exec.shared() + L;
    if (!c.compressible) {
      EXPECT_EQ(out[0], 0xFF) << "trial " << trial;
      ++seen["none"];
      continue;
    }
    ASSERT_EQ(std::memcmp(out, encoded, c.bytes), 0)
        << "trial " << trial << " " << encodingName(Algorithm::Fpc, c.encoding);
    ++seen[encodingName(Algorithm::Fpc, c.encoding)];
    const std::vector<uint8_t> cs = codesOf(encoded, L);
    for (uint32_t s = 0; s < cs.size(); ++s) codes.insert({s, cs[s]});
  }
  EXPECT_GT(seen["none"], 50);
  EXPECT_GT(seen["zero"], 0);
  EXPECT_GT(seen.size(), L == 128 ? 100u : 20u);  // sets of patterns used
  for (uint32_t s = 0; s < L / kFpcSegmentBytes; ++s) {
    for (uint8_t code = 0; code < kFpcPatternCount; ++code) {
      if (L == 64 && code == uint8_t(FpcPattern::Raw)) continue;
      EXPECT_TRUE(codes.count({s, code})) << "segment " << s << " " << fpcPatternName(code);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(LineSizes, FpcRoutines, ::testing::Values(64u, 128u));

TEST(FpcRoutines, OnlySixtyFourAndOneTwentyEightByteLines) {
  EXPECT_THROW(fpcRoutines(32), std::invalid_argument);
  EXPECT_EQ(fpcLanes(64), 16u);
  EXPECT_EQ(fpcLanes(128), 32u);
}

// A 128-byte line of small counters: every word a sign-extended byte (segment pattern sext8).
std::vector<uint8_t> sext8Line() {
  std::vector<uint8_t> line(128);
  for (uint32_t w = 0; w < 32; ++w) format::storeLE(line.data() + 4 * w, uint32_t(int32_t(w) * 5 - 70), 4);
  return line;
}

TEST(FpcRoutineCost, DecompressionTakesThirtyFiveWarpInstructionsWhateverTheLine) {
  timing::AssistRoutineStore store(
      ptx::parseModule(kRoutineModuleHeader + fpcRoutines(128), "fpc.ptx"));
  timing::AssistExecutor exec(store);
  const uint32_t routine = store.require(kFpcDecompressName);
  const std::vector<uint8_t> line = sext8Line();
  uint8_t encoded[128];
  const CompressedLine c = compress(Algorithm::Fpc, line.data(), 128, encoded);
  ASSERT_EQ(c.bytes, 2u + 4 * 8);
  const uint64_t address = 0;
  ASSERT_TRUE(exec.run(routine, ~0u, encoded, c.bytes, &address, 1));
  // live-in move, tid, buf, head load; segment, its code's bit position (2), code; payload bits
  // (3); segment scan (2 shuffles, 2 adds); payload position (4); word address (3), 2 loads,
  // funnel shift; sign-extending extract, 3 predicated fix-ups with their 3 compares; store
  // address, store, exit: 4 + 4 + 3 + 4 + 4 + 6 + 7 + 3 = 35. No branch: every line takes 35.
  EXPECT_EQ(exec.steps().size(), 35u);
  EXPECT_TRUE(exec.steps()[0].liveIn);
  // %r0-%r7 and %rd0 (two slots).
  EXPECT_EQ(store.registers(routine), 8u + 2u);
  // Four patterns, one per segment (zero, sext4, halfword-padded, raw): the same 35.
  std::vector<uint8_t> mixed(128);
  for (uint32_t w = 0; w < 32; ++w) {
    const uint32_t words[4] = {0, w % 8, w << 16, 0x9E3779B9u * (w + 1)};
    format::storeLE(mixed.data() + 4 * w, words[w / 8], 4);
  }
  const CompressedLine m = compress(Algorithm::Fpc, mixed.data(), 128, encoded);
  ASSERT_EQ(m.bytes, 2u + 0 + 4 + 16 + 32);
  ASSERT_TRUE(exec.run(routine, ~0u, encoded, m.bytes, &address, 1));
  EXPECT_EQ(std::memcmp(exec.shared() + 128, mixed.data(), 128), 0);
  EXPECT_EQ(exec.steps().size(), 35u);
  // At 64 B: one code bit-position instruction (3s) and one scan step (2) fewer: 32.
  timing::AssistRoutineStore store64(
      ptx::parseModule(kRoutineModuleHeader + fpcRoutines(64), "fpc.ptx"));
  timing::AssistExecutor exec64(store64);
  const CompressedLine h = compress(Algorithm::Fpc, line.data(), 64, encoded);
  ASSERT_EQ(h.bytes, 1u + 2 * 8);
  ASSERT_TRUE(exec64.run(store64.require(kFpcDecompressName), 0xFFFF, encoded, h.bytes, &address, 1));
  EXPECT_EQ(std::memcmp(exec64.shared() + 64, line.data(), 64), 0);
  EXPECT_EQ(exec64.steps().size(), 32u);
}

TEST(FpcRoutineCost, CompressingASext8LineTakesSeventyEightWarpInstructions) {
  timing::AssistRoutineStore store(
      ptx::parseModule(kRoutineModuleHeader + fpcRoutines(128), "fpc.ptx"));
  timing::AssistExecutor exec(store);
  const uint32_t routine = store.require(kFpcCompressName);
  const std::vector<uint8_t> line = sext8Line();
  const uint64_t address = 0;
  ASSERT_TRUE(exec.run(routine, ~0u, line.data(), 128, &address, 1));
  uint8_t encoded[128];
  const CompressedLine c = compress(Algorithm::Fpc, line.data(), 128, encoded);
  ASSERT_EQ(std::memcmp(exec.shared() + 128, encoded, c.bytes), 0);
  // live-in move, tid, buf, word address, word load, segment lanes (2): 7. The search: zero
  // (compare, ballot, and, compare, select, vote, branch: 7), sext4 and sext8 (extract, compare,
  // ballot, and, 2 compares, move, vote, branch: 9 each), which every segment fits: 25.
  // Payload bits (3), scan (4), total, lane 0, size test, branch: 11. Head: shuffle, insert,
  // tag, 2 for the writing lanes, address (2), store: 8. Payload: position (4), 2 compares and
  // 2 fix-ups, shuffle, compare, insert, bits to write (2), address (2), first byte (2), three
  // more (3 each): 26. Exit. 7 + 25 + 11 + 8 + 26 + 1 = 78.
  EXPECT_EQ(exec.steps().size(), 78u);
  EXPECT_EQ(store.registers(routine), 8u + 2u);
}

}  // namespace
}  // namespace warpsim::mech::caba
