// The C-Pack assist-warp routines, run functionally by the assist executor on real lines,
// rebuild exactly what the compression library encoded and encode exactly what it encodes, for
// every pattern and every dictionary size, at both line sizes.
#include "mech/caba/routines/cpack_routines.h"

#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <random>
#include <set>

#include "mech/caba/compression/cpack.h"
#include "mech/caba/compression/line_format.h"
#include "mech/caba/routines/routine_text.h"
#include "ptx/parser.h"
#include "timing/sm/assist/assist_executor.h"

namespace warpsim::mech::caba {
namespace {

uint32_t cpackLaneMask(uint32_t lineBytes) {
  return cpackLanes(lineBytes) >= 32 ? ~0u : (1u << cpackLanes(lineBytes)) - 1;
}

// A line of words drawn from `families` random upper-three-byte values (up to 6: more than the
// dictionary holds leaves the line uncompressed) and narrow words; the trial sets how often a
// word is zero, narrow, or deviates from its family's first word in the low byte. Every tenth
// line is random bytes.
void makeCPackLine(uint8_t* line, uint32_t L, int trial, std::mt19937_64& rng) {
  if (trial % 10 == 9) {
    for (uint32_t i = 0; i < L; ++i) line[i] = uint8_t(rng());
    return;
  }
  const uint32_t families = trial % 7;  // 0 to 6
  uint32_t base[6];
  for (uint32_t& b : base) b = (uint32_t(rng()) | 0x100u) & ~0xFFu;  // upper bytes never all zero
  const uint32_t narrowPercent = 10 + trial % 3 * 20, deviatePercent = trial % 4 * 10;
  for (uint32_t w = 0; w < L / 4; ++w) {
    uint32_t word = 0;
    const uint32_t r = rng() % 100;
    if (families == 0 || r < narrowPercent) {
      word = rng() % 3 == 0 ? 0 : uint32_t(rng() % 256);  // zzzz or zzzx
    } else {
      const uint32_t f = rng() % families;
      word = base[f] | (rng() % 100 < deviatePercent ? uint32_t(rng() & 0xFF) : 0x5Au);
    }
    format::storeLE(line + 4 * w, word, 4);
  }
}

// The number of different upper-three-byte values among the line's words that are not narrow:
// the dictionary entries the line needs.
uint32_t distinctUppers(const uint8_t* line, uint32_t L) {
  std::set<uint32_t> uppers;
  for (uint32_t w = 0; w < L / 4; ++w) {
    const uint32_t upper = uint32_t(format::loadLE(line + 4 * w, 4)) & ~0xFFu;
    if (upper != 0) uppers.insert(upper);
  }
  return uint32_t(uppers.size());
}

class CPackRoutines : public ::testing::TestWithParam<uint32_t> {};

TEST_P(CPackRoutines, DecompressEveryPatternAndDictionarySizeExactly) {
  const uint32_t L = GetParam();
  timing::AssistRoutineStore store(
      ptx::parseModule(kRoutineModuleHeader + cpackRoutines(L), "cpack.ptx"));
  timing::AssistExecutor exec(store);
  const uint32_t routine = store.require(kCPackDecompressName);
  std::mt19937_64 rng(7);
  int checked = 0;
  std::set<uint32_t> entryCounts;
  uint8_t patterns = 0;
  for (int trial = 0; trial < 800; ++trial) {
    uint8_t line[128], encoded[128];
    makeCPackLine(line, L, trial, rng);
    const CompressedLine c = compress(Algorithm::CPack, line, L, encoded);
    if (!c.compressible) continue;
    const uint64_t address = 0x7f0000001000ull;
    ASSERT_TRUE(exec.run(routine, cpackLaneMask(L), encoded, c.bytes, &address, 1)) << exec.error();
    ASSERT_EQ(std::memcmp(exec.shared() + L, line, L), 0)
        << "trial " << trial << " " << encodingName(Algorithm::CPack, c.encoding);
    entryCounts.insert(encoded[0] & 7);
    patterns |= c.encoding;
    ++checked;
  }
  EXPECT_GT(checked, 300);
  EXPECT_EQ(entryCounts, (std::set<uint32_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(patterns, 0xF);  // zzzz, zzzx, mmmm and mmmx all decoded
}

TEST_P(CPackRoutines, CompressWritesTheLibrarysBytes) {
  const uint32_t L = GetParam();
  timing::AssistRoutineStore store(
      ptx::parseModule(kRoutineModuleHeader + cpackRoutines(L), "cpack.ptx"));
  timing::AssistExecutor exec(store);
  const uint32_t routine = store.require(kCPackCompressName);
  std::mt19937_64 rng(11);
  std::map<std::string, int> seen;
  std::set<uint32_t> entryCounts;
  int tooManyEntries = 0;
  for (int trial = 0; trial < 800; ++trial) {
    uint8_t line[128], encoded[128];
    makeCPackLine(line, L, trial, rng);
    if (trial % 100 == 0) std::memset(line, 0, L);  // zzzz only: no dictionary
    const CompressedLine c = compress(Algorithm::CPack, line, L, encoded);
    const uint64_t address = 0;
    ASSERT_TRUE(exec.run(routine, cpackLaneMask(L), line, L, &address, 1)) << exec.error();
    const uint8_t* out = exec.shared() + L;
    if (!c.compressible) {
      EXPECT_EQ(out[0], 0xFF) << "trial " << trial;
      ++seen["none"];
      tooManyEntries += distinctUppers(line, L) > kCPackDictionaryEntries;
      continue;
    }
    ASSERT_EQ(std::memcmp(out, encoded, c.bytes), 0)
        << "trial " << trial << " " << encodingName(Algorithm::CPack, c.encoding);
    ++seen[encodingName(Algorithm::CPack, c.encoding)];
    entryCounts.insert(encoded[0] & 7);
    EXPECT_EQ(encoded[0] & 7u, distinctUppers(line, L));
  }
  EXPECT_GT(seen["none"], 100);
  EXPECT_GT(tooManyEntries, 100);  // a word that the 4 entries cannot cover
  EXPECT_GT(seen["zzzz"], 0);
  EXPECT_GT(seen["zzzz+zzzx+mmmm+mmmx"], 0);
  EXPECT_GE(seen.size(), 8u);
  EXPECT_EQ(entryCounts, (std::set<uint32_t>{0, 1, 2, 3, 4}));
}

INSTANTIATE_TEST_SUITE_P(LineSizes, CPackRoutines, ::testing::Values(64u, 128u));

TEST(CPackRoutines, OnlySixtyFourAndOneTwentyEightByteLines) {
  EXPECT_THROW(cpackRoutines(32), std::invalid_argument);
  EXPECT_EQ(cpackLanes(64), 16u);
  EXPECT_EQ(cpackLanes(128), 32u);
}

// A 128-byte line of records: a zero, a small count, a pointer-like word whose low byte varies
// (entry 0: word 2), a constant tag (entry 1: word 3). Words 4k + 1 are zzzx (8), the words
// 4k + 2 other than 2 and 18 mmmx (6): 1 + 2 * 4 + 16 + 14 = 39 bytes, 2 bursts.
std::vector<uint8_t> recordLine() {
  std::vector<uint8_t> line(128);
  for (uint32_t w = 0; w < 32; ++w) {
    const uint32_t words[4] = {0, w, 0x12345600u | (w & 0xF), 0xABCDEF01u};
    format::storeLE(line.data() + 4 * w, words[w % 4], 4);
  }
  return line;
}

TEST(CPackRoutineCost, DecompressionTakesThirtyTwoWarpInstructionsWhateverTheLine) {
  timing::AssistRoutineStore store(
      ptx::parseModule(kRoutineModuleHeader + cpackRoutines(128), "cpack.ptx"));
  timing::AssistExecutor exec(store);
  const uint32_t routine = store.require(kCPackDecompressName);
  const std::vector<uint8_t> line = recordLine();
  uint8_t encoded[128];
  const CompressedLine c = compress(Algorithm::CPack, line.data(), 128, encoded);
  ASSERT_EQ(c.bytes, 39u);
  const uint64_t address = 0;
  ASSERT_TRUE(exec.run(routine, ~0u, encoded, c.bytes, &address, 1));
  EXPECT_EQ(std::memcmp(exec.shared() + 128, line.data(), 128), 0);
  // live-in move, tid, buf; head load, entries, code base (3); code bit offset, word index,
  // address, load, rotate, mask (6); two pattern bits tested (4); zero; entry address (2), two
  // loads, funnel shift (5); ballot, lane mask, and, popc, address (5), mismatch load, insert
  // (2); store address, store, exit (3): 3 + 3 + 6 + 4 + 1 + 5 + 5 + 2 + 3 = 32. No branch.
  EXPECT_EQ(exec.steps().size(), 32u);
  EXPECT_TRUE(exec.steps()[0].liveIn);
  EXPECT_EQ(store.registers(routine), 7u + 2u);  // %r0-%r6, %rd0
  // An all-zero line (head and codes only): the same 32.
  const std::vector<uint8_t> zeros(128, 0);
  const CompressedLine z = compress(Algorithm::CPack, zeros.data(), 128, encoded);
  ASSERT_EQ(z.bytes, 17u);
  ASSERT_TRUE(exec.run(routine, ~0u, encoded, z.bytes, &address, 1));
  EXPECT_EQ(std::memcmp(exec.shared() + 128, zeros.data(), 128), 0);
  EXPECT_EQ(exec.steps().size(), 32u);
  // At 64 B (the first half of the record line: two entries again): the same 32.
  timing::AssistRoutineStore store64(
      ptx::parseModule(kRoutineModuleHeader + cpackRoutines(64), "cpack.ptx"));
  timing::AssistExecutor exec64(store64);
  const CompressedLine h = compress(Algorithm::CPack, line.data(), 64, encoded);
  ASSERT_TRUE(h.compressible);
  ASSERT_EQ(encoded[0] & 7, 2);
  ASSERT_TRUE(exec64.run(store64.require(kCPackDecompressName), 0xFFFF, encoded, h.bytes, &address, 1));
  EXPECT_EQ(std::memcmp(exec64.shared() + 64, line.data(), 64), 0);
  EXPECT_EQ(exec64.steps().size(), 32u);
}

TEST(CPackRoutineCost, CompressingATwoEntryLineTakesSeventyTwoWarpInstructions) {
  timing::AssistRoutineStore store(
      ptx::parseModule(kRoutineModuleHeader + cpackRoutines(128), "cpack.ptx"));
  timing::AssistExecutor exec(store);
  const uint32_t routine = store.require(kCPackCompressName);
  const std::vector<uint8_t> line = recordLine();
  const uint64_t address = 0;
  ASSERT_TRUE(exec.run(routine, ~0u, line.data(), 128, &address, 1));
  uint8_t encoded[128];
  const CompressedLine c = compress(Algorithm::CPack, line.data(), 128, encoded);
  ASSERT_EQ(std::memcmp(exec.shared() + 128, encoded, c.bytes), 0);
  // live-in move, tid, buf, word address, load, upper bytes, covered, lane 0, no entry yet,
  // narrow defaults (2): 11. Two entries, each: ballot, test, branch, brev, clz, shuffle, owner,
  // upper bytes, match, 2 moves, cover: 24. Third ballot, test, branch out: 3. Code (3), two
  // ballots, two popc, size, test, branch: 10. Head (2); entry bytes: address, 4 stores, 3
  // shifts (8); codes: shuffle, insert, base, even lane (2), address (2), store (8); mismatch
  // bytes: lane mask, and, popc, address, store (5); exit: 11 + 24 + 3 + 10 + 2 + 8 + 8 + 5 + 1.
  EXPECT_EQ(exec.steps().size(), 72u);
  EXPECT_EQ(store.registers(routine), 8u + 2u);  // %r0-%r7, %rd0
}

}  // namespace
}  // namespace warpsim::mech::caba
