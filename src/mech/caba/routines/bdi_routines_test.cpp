// The BDI assist-warp routines, run functionally by the assist executor on real compressed
// lines, rebuild exactly what the compression library encoded, for every encoding the CABA
// subset keeps, with and without the selector mask.
#include "mech/caba/routines/bdi_routines.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "mech/caba/routines/routine_text.h"
#include "ptx/parser.h"
#include "timing/sm/assist/assist_executor.h"

namespace warpsim::mech::caba {
namespace {

// A line meant for encoding e: values of its base size, an explicit base far from zero, deltas
// spread over the encoding's delta size; with `mask`, every fifth value small (zero base).
void makeBdiLine(uint8_t* line, uint32_t L, BdiEncoding e, bool mask, std::mt19937_64& rng) {
  const BdiShape s = bdiShape(e);
  const uint64_t base = s.baseBytes == 8   ? 0x7f0000000000ull + rng() % 100000
                        : s.baseBytes == 4 ? 0x80000000ull + rng() % 100000
                                           : 0x4000 + rng() % 1000;
  const int64_t half = int64_t{1} << (8 * s.deltaBytes - 1);
  for (uint32_t i = 0; i < L / s.baseBytes; ++i) {
    uint64_t v = base + static_cast<uint64_t>(static_cast<int64_t>(rng() % (2 * half)) - half);
    if (i == 0) v = base;
    if (mask && i % 5 == 3) v = rng() % 50;
    std::memcpy(line + i * s.baseBytes, &v, s.baseBytes);
  }
}

class BdiRoutines : public ::testing::TestWithParam<uint32_t> {};

// Each line through its decompression routine and its Direct-Load routine (bdiDirectLoadStaging
// stands for the coalescer's extraction: the deltas end the encoded line).
TEST_P(BdiRoutines, DecompressAndDirectLoadEveryEncodingExactly) {
  const uint32_t L = GetParam();
  timing::AssistRoutineStore store(
      ptx::parseModule(kRoutineModuleHeader + bdiRoutines(L), "bdi.ptx"));
  timing::AssistExecutor exec(store);
  std::mt19937_64 rng(7);
  int checked = 0;
  std::map<std::string, int> seen;
  for (int trial = 0; trial < 600; ++trial) {
    uint8_t line[128], encoded[128];
    const BdiEncoding target = static_cast<BdiEncoding>(2 + trial % 6);
    makeBdiLine(line, L, target, trial % 12 >= 6, rng);
    const CompressedLine c = compress(Algorithm::BdiCaba, line, L, encoded);
    if (!c.compressible) continue;
    const bool mask = (encoded[0] & 0x10) != 0;
    const BdiEncoding e = static_cast<BdiEncoding>(encoded[0] & 0xF);
    const std::string name = bdiDecompressName(e, mask);
    const uint64_t address = 0x7f0000001000ull;
    ASSERT_TRUE(exec.run(store.require(name), bdiLanes(e, L) == 32 ? ~0u : (1u << bdiLanes(e, L)) - 1,
                         encoded, c.bytes, &address, 1))
        << name << ": " << exec.error();
    ASSERT_EQ(std::memcmp(exec.shared() + L, line, L), 0) << name << " trial " << trial;
    ++seen[name];
    ++checked;
    const std::string direct = bdiDirectLoadName(e, mask);
    uint8_t staging[kBdiDirectLoadDeltas + 128];
    const uint32_t staged = bdiDirectLoadStaging(encoded, L, staging);
    const uint32_t deltas = staged - kBdiDirectLoadDeltas;
    ASSERT_EQ(deltas, L / bdiShape(e).baseBytes * bdiShape(e).deltaBytes);
    ASSERT_EQ(std::memcmp(staging + kBdiDirectLoadDeltas, encoded + c.bytes - deltas, deltas), 0);
    ASSERT_TRUE(exec.run(store.require(direct), bdiLanes(e, L) == 32 ? ~0u : (1u << bdiLanes(e, L)) - 1,
                         staging, staged, nullptr, 0))
        << direct << ": " << exec.error();
    ASSERT_EQ(std::memcmp(exec.shared() + L, line, L), 0) << direct << " trial " << trial;
    ++seen[direct];
  }
  EXPECT_GT(checked, 250);  // the lines of the encodings the subset keeps at this size
  // Every routine of the subset ran at least once.
  for (uint8_t id = 2; id < kBdiEncodingCount; ++id) {
    const BdiEncoding e = static_cast<BdiEncoding>(id);
    if (!bdiCabaKeeps(e, L)) continue;
    for (bool mask : {false, true}) {
      EXPECT_GT(seen[bdiDecompressName(e, mask)], 0) << bdiDecompressName(e, mask);
      EXPECT_GT(seen[bdiDirectLoadName(e, mask)], 0) << bdiDirectLoadName(e, mask);
    }
  }
}

TEST_P(BdiRoutines, CompressWritesTheLibrarysBytes) {
  const uint32_t L = GetParam();
  timing::AssistRoutineStore store(
      ptx::parseModule(kRoutineModuleHeader + bdiRoutines(L), "bdi.ptx"));
  timing::AssistExecutor exec(store);
  std::mt19937_64 rng(11);
  std::map<std::string, int> seen;
  for (int trial = 0; trial < 600; ++trial) {
    uint8_t line[128], encoded[128];
    if (trial % 10 == 9) {
      for (uint32_t i = 0; i < L; ++i) line[i] = static_cast<uint8_t>(rng());  // incompressible
    } else {
      makeBdiLine(line, L, static_cast<BdiEncoding>(2 + trial % 6), trial % 12 >= 6, rng);
    }
    const CompressedLine c = compress(Algorithm::BdiCaba, line, L, encoded);
    const uint64_t address = 0;
    ASSERT_TRUE(exec.run(store.require(kBdiCompressName), ~0u, line, L, &address, 1)) << exec.error();
    const uint8_t* out = exec.shared() + L;
    if (!c.compressible) {
      EXPECT_EQ(out[0], 0xFF) << "trial " << trial;
      ++seen["none"];
      continue;
    }
    ASSERT_EQ(std::memcmp(out, encoded, c.bytes), 0)
        << "trial " << trial << " " << encodingName(Algorithm::BdiCaba, c.encoding);
    ++seen[encodingName(Algorithm::BdiCaba, c.encoding) + ((encoded[0] & 0x10) ? "+mask" : "")];
  }
  EXPECT_GT(seen["none"], 0);
  EXPECT_GT(seen["b8d1+mask"], 0);
  EXPECT_GE(seen.size(), L == 128 ? 10u : 5u);
}

INSTANTIATE_TEST_SUITE_P(LineSizes, BdiRoutines, ::testing::Values(64u, 128u));

// Sixteen 8-byte pointers 0x8001D000 + 8i: b8d1, 25 bytes.
void pointerLine(uint8_t* line) {
  for (uint64_t i = 0; i < 16; ++i) {
    const uint64_t v = 0x8001D000ull + 8 * i;
    std::memcpy(line + 8 * i, &v, 8);
  }
}

// Pointers in even slots, small ints (the zero base) in odd ones: b8d1 with the mask, 27 bytes.
void pointersAndSmallInts(uint8_t* line) {
  for (uint64_t i = 0; i < 16; ++i) {
    const uint64_t v = i % 2 ? i : 0x8001D000ull + i;
    std::memcpy(line + 8 * i, &v, 8);
  }
}

TEST(BdiRoutineCost, DecompressingAB8D1LineTakesFourteenWarpInstructions) {
  timing::AssistRoutineStore store(
      ptx::parseModule(kRoutineModuleHeader + bdiRoutines(128), "bdi.ptx"));
  timing::AssistExecutor exec(store);
  uint8_t line[128], encoded[128];
  pointerLine(line);
  const CompressedLine c = compress(Algorithm::BdiCaba, line, 128, encoded);
  ASSERT_EQ(c.bytes, 25u);
  const uint64_t address = 0;
  ASSERT_TRUE(exec.run(store.require("bdi_dec_b8d1"), 0xFFFF, encoded, c.bytes, &address, 1));
  // live-in move, tid, 3 base loads, 2 shifts (base at byte 1), pack, the delta's
  // sign-extending byte load, widen, add, store address, store, exit.
  EXPECT_EQ(exec.steps().size(), 14u);
  EXPECT_EQ(store.registers(store.require("bdi_dec_b8d1")), 20u + 4u * 2u + 1u);
  // Pointers in even slots, small ints (the zero base) in odd ones: b8d1 with the mask, the
  // base at byte 3. Four more: the mask's 32 bits funnel-shifted once from the words the base
  // loads, then per value its bit, the test and the select.
  pointersAndSmallInts(line);
  const CompressedLine m = compress(Algorithm::BdiCaba, line, 128, encoded);
  ASSERT_EQ(m.bytes, 27u);
  ASSERT_EQ(encoded[0] & 0x10, 0x10);
  ASSERT_TRUE(exec.run(store.require("bdi_dec_b8d1_mask"), 0xFFFF, encoded, m.bytes, &address, 1));
  EXPECT_EQ(exec.steps().size(), 18u);
  EXPECT_EQ(std::memcmp(exec.shared() + 128, line, 128), 0);
}

TEST(BdiRoutineCost, DirectLoadOfAB8D1LineTakesEightWarpInstructionsTwelveWithTheMask) {
  timing::AssistRoutineStore store(
      ptx::parseModule(kRoutineModuleHeader + bdiRoutines(128), "bdi.ptx"));
  timing::AssistExecutor exec(store);
  uint8_t line[128], encoded[128];
  pointerLine(line);
  ASSERT_EQ(compress(Algorithm::BdiCaba, line, 128, encoded).bytes, 25u);
  uint8_t staging[kBdiDirectLoadDeltas + 128];
  uint32_t staged = bdiDirectLoadStaging(encoded, 128, staging);
  uint64_t base;
  std::memcpy(&base, staging, 8);
  EXPECT_EQ(base, 0x8001D000ull);
  EXPECT_EQ(staged, kBdiDirectLoadDeltas + 16);
  ASSERT_TRUE(exec.run(store.require("bdi_load_b8d1"), 0xFFFF, staging, staged, nullptr, 0));
  // The base's move, tid, the delta's move (what the coalescer extracted), widen, add, the
  // destination's offset and write, exit: 8 where decompression takes 14.
  EXPECT_EQ(exec.steps().size(), 8u);
  EXPECT_EQ(std::memcmp(exec.shared() + 128, line, 128), 0);
  pointersAndSmallInts(line);
  ASSERT_EQ(compress(Algorithm::BdiCaba, line, 128, encoded).bytes, 27u);
  staged = bdiDirectLoadStaging(encoded, 128, staging);
  uint32_t selectors;
  std::memcpy(&selectors, staging + 8, 4);
  EXPECT_EQ(selectors, 0xAAAAu);  // odd values on the zero base
  ASSERT_TRUE(exec.run(store.require("bdi_load_b8d1_mask"), 0xFFFF, staging, staged, nullptr, 0));
  // Four more: the selector word's move, its bit, the test, the select (18 decompressing).
  EXPECT_EQ(exec.steps().size(), 12u);
  EXPECT_EQ(std::memcmp(exec.shared() + 128, line, 128), 0);
}

}  // namespace
}  // namespace warpsim::mech::caba
