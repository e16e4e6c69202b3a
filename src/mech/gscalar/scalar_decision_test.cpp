// Scalar-execution eligibility: the metadata rules of digest s5.5 with their switches, and the
// value oracle that measures what the metadata rules miss.
#include <gtest/gtest.h>

#include <array>

#include "mech/gscalar/register_state.h"

namespace warpsim::mech::gscalar {
namespace {

using Lanes = std::array<uint32_t, kLanes>;

Metadata scalarMeta(uint32_t value) {
  Metadata m;
  m.written = true;
  m.common[0] = 4;
  m.bvr[0] = value;
  return m;
}

Metadata halfMeta(uint8_t low, uint8_t high, bool fullScalar) {
  Metadata m;
  m.written = true;
  m.common[0] = low;
  m.common[1] = high;
  m.fullScalar = fullScalar;
  return m;
}

Metadata divergentMeta(uint32_t mask, uint8_t common) {
  Metadata m;
  m.written = true;
  m.divergent = true;
  m.common[0] = common;
  m.bvr[0] = mask;
  return m;
}

Scalarity decide(std::initializer_list<const Metadata*> metas, uint32_t mask, ScalarClass cls = ScalarClass::Alu,
                 Encoding encoding = Encoding::BytePrefix, bool half = false, ScalarSwitches on = {},
                 bool uniformInputs = true) {
  SourceView views[4];
  unsigned n = 0;
  for (const Metadata* m : metas) views[n++].meta = m;
  return decideScalar(views, n, mask, cls, uniformInputs, encoding, half, on);
}

TEST(GscalarScalarDecision, ScalarSourcesRunOnOneLaneWhenTheClassIsOn) {
  RegisterState s(StateOptions{}, 1, 2);
  const Lanes v = [] {
    Lanes a;
    a.fill(0x3F800000u);
    return a;
  }();
  s.write(0, 0, v.data(), kFullMask);
  s.writeScalar(0, 1, 2, kFullMask);
  const Metadata* a = &s.meta(0, 0);
  const Metadata* b = &s.meta(0, 1);
  EXPECT_EQ(decide({a, b}, kFullMask, ScalarClass::Alu), Scalarity::Full);
  EXPECT_EQ(decide({a}, kFullMask, ScalarClass::Sfu), Scalarity::Full);
  EXPECT_EQ(decide({a, b}, kFullMask, ScalarClass::Mem), Scalarity::Full);
  ScalarSwitches noAlu;
  noAlu.alu = false;
  EXPECT_EQ(decide({a, b}, kFullMask, ScalarClass::Alu, Encoding::BytePrefix, false, noAlu), Scalarity::Vector);
  EXPECT_EQ(decide({a}, kFullMask, ScalarClass::Sfu, Encoding::BytePrefix, false, noAlu), Scalarity::Full);
  ScalarSwitches noMem;
  noMem.mem = false;
  EXPECT_EQ(decide({a}, kFullMask, ScalarClass::Mem, Encoding::BytePrefix, false, noMem), Scalarity::Vector);
  EXPECT_EQ(decide({a}, kFullMask, ScalarClass::None), Scalarity::Vector);
  EXPECT_EQ(decide({a}, kFullMask, ScalarClass::Alu, Encoding::BytePrefix, false, {}, false), Scalarity::Vector);
}

TEST(GscalarScalarDecision, OneVectorSourceMakesTheInstructionVector) {
  const Metadata scalar = scalarMeta(1);
  Metadata threeBytes = scalarMeta(1);
  threeBytes.common[0] = 3;
  Metadata unwritten;
  unwritten.common[0] = 4;  // not written: never scalar whatever the fields say
  EXPECT_EQ(decide({&scalar, &threeBytes}, kFullMask), Scalarity::Vector);
  EXPECT_EQ(decide({&scalar, &unwritten}, kFullMask), Scalarity::Vector);
  EXPECT_EQ(decide({&scalar, &scalar}, kFullMask), Scalarity::Full);
}

TEST(GscalarScalarDecision, InstructionsWithoutRegisterSourcesAreScalar) {
  EXPECT_EQ(decide({}, kFullMask), Scalarity::Full);
  EXPECT_EQ(decide({}, 0x0000FFFFu), Scalarity::Divergent);
  EXPECT_EQ(decide({}, kFullMask, ScalarClass::Alu, Encoding::Word), Scalarity::Full);
  EXPECT_EQ(decide({}, 0x0000FFFFu, ScalarClass::Alu, Encoding::Word), Scalarity::Vector);
  EXPECT_EQ(decide({}, kFullMask, ScalarClass::Alu, Encoding::Bdi), Scalarity::Vector);
  EXPECT_EQ(decide({}, kFullMask, ScalarClass::Alu, Encoding::BytePrefix, false, {}, false), Scalarity::Vector);
}

TEST(GscalarScalarDecision, DivergentScalarNeedsTheWritersExactMask) {
  const uint32_t mask = 0b00110101u;  // Fig. 6
  const Metadata fig6 = divergentMeta(mask, 4);
  EXPECT_EQ(decide({&fig6}, mask), Scalarity::Divergent);
  EXPECT_EQ(decide({&fig6}, 0b00110111u), Scalarity::Vector);  // superset
  EXPECT_EQ(decide({&fig6}, 0b00010101u), Scalarity::Vector);  // subset: exact match only
  EXPECT_EQ(decide({&fig6}, kFullMask), Scalarity::Vector);
  const Metadata notUniform = divergentMeta(mask, 3);
  EXPECT_EQ(decide({&notUniform}, mask), Scalarity::Vector);
  const Metadata scalar = scalarMeta(9);  // a warp-wide scalar is scalar under any mask
  EXPECT_EQ(decide({&fig6, &scalar}, mask), Scalarity::Divergent);
  EXPECT_EQ(decide({&scalar}, 0x1u, ScalarClass::Mem), Scalarity::Divergent);
  ScalarSwitches off;
  off.divergent = false;
  EXPECT_EQ(decide({&fig6}, mask, ScalarClass::Alu, Encoding::BytePrefix, false, off), Scalarity::Vector);
  EXPECT_EQ(decide({&scalar}, mask, ScalarClass::Alu, Encoding::Word), Scalarity::Vector);  // word: never
}

TEST(GscalarScalarDecision, HalfRulesInHalfRegisterMode) {
  const Metadata highOnly = halfMeta(2, 4, false);  // encL 1100, encH 1111
  const Metadata lowOnly = halfMeta(4, 0, false);
  const Metadata bothDiffer = halfMeta(4, 4, false);
  const Metadata bothSame = halfMeta(4, 4, true);
  EXPECT_EQ(decide({&highOnly}, kFullMask, ScalarClass::Alu, Encoding::BytePrefix, true), Scalarity::HalfHigh);
  EXPECT_EQ(decide({&lowOnly}, kFullMask, ScalarClass::Alu, Encoding::BytePrefix, true), Scalarity::HalfLow);
  EXPECT_EQ(decide({&bothDiffer}, kFullMask, ScalarClass::Sfu, Encoding::BytePrefix, true), Scalarity::HalfBoth);
  EXPECT_EQ(decide({&bothSame}, kFullMask, ScalarClass::Sfu, Encoding::BytePrefix, true), Scalarity::Full);
  EXPECT_EQ(decide({&bothSame, &highOnly}, kFullMask, ScalarClass::Alu, Encoding::BytePrefix, true),
            Scalarity::HalfHigh);
  EXPECT_EQ(decide({&lowOnly, &highOnly}, kFullMask, ScalarClass::Alu, Encoding::BytePrefix, true),
            Scalarity::Vector);
  // Without FS a source is not a warp-wide scalar, also under a divergent mask.
  EXPECT_EQ(decide({&bothDiffer}, 0xFFu, ScalarClass::Alu, Encoding::BytePrefix, true), Scalarity::Vector);
  EXPECT_EQ(decide({&bothSame}, 0xFFu, ScalarClass::Alu, Encoding::BytePrefix, true), Scalarity::Divergent);
  ScalarSwitches noHalf;
  noHalf.half = false;
  EXPECT_EQ(decide({&highOnly}, kFullMask, ScalarClass::Alu, Encoding::BytePrefix, true, noHalf),
            Scalarity::Vector);
  EXPECT_EQ(decide({&bothSame}, kFullMask, ScalarClass::Alu, Encoding::BytePrefix, true, noHalf),
            Scalarity::Full);
  // A full scalar whose class is switched off runs as a vector, not as two half scalars (each
  // switch removes exactly its category); a half scalar is gated by the half switch only.
  ScalarSwitches noAlu;
  noAlu.alu = false;
  EXPECT_EQ(decide({&bothSame}, kFullMask, ScalarClass::Alu, Encoding::BytePrefix, true, noAlu),
            Scalarity::Vector);
  EXPECT_EQ(decide({&highOnly}, kFullMask, ScalarClass::Alu, Encoding::BytePrefix, true, noAlu),
            Scalarity::HalfHigh);
  // Half metadata means nothing outside half-register mode.
  EXPECT_EQ(decide({&highOnly}, kFullMask, ScalarClass::Alu, Encoding::BytePrefix, false), Scalarity::Vector);
  const Metadata divergent = divergentMeta(0xFFu, 4);
  EXPECT_EQ(decide({&divergent}, kFullMask, ScalarClass::Alu, Encoding::BytePrefix, true), Scalarity::Vector);
}

TEST(GscalarScalarDecision, WordAndBdiEncodings) {
  const Metadata scalar = scalarMeta(4);
  EXPECT_EQ(decide({&scalar}, kFullMask, ScalarClass::Alu, Encoding::Word), Scalarity::Full);
  Metadata bdiScalar = scalar;  // BDI delta 0 (common 4): Warped-Compression executes no scalars
  EXPECT_EQ(decide({&bdiScalar}, kFullMask, ScalarClass::Alu, Encoding::Bdi), Scalarity::Vector);
  EXPECT_EQ(decide({&bdiScalar}, 0xFu, ScalarClass::Alu, Encoding::Bdi), Scalarity::Vector);
}

// --- the oracle ---

Scalarity oracle(std::initializer_list<const Lanes*> sources, uint32_t mask, ScalarClass cls = ScalarClass::Alu,
                 bool uniformInputs = true) {
  const uint32_t* ptrs[4];
  unsigned n = 0;
  for (const Lanes* s : sources) ptrs[n++] = s->data();
  return oracleScalar(ptrs, n, mask, cls, uniformInputs);
}

TEST(GscalarScalarDecision, OracleJudgesActualValues) {
  Lanes uniform, halves, highOnly, lowOnly, fig6;
  uniform.fill(8);
  for (unsigned l = 0; l < kLanes; ++l) {
    halves[l] = l < 16 ? 1 : 2;
    highOnly[l] = l < 16 ? l : 2;
    lowOnly[l] = l < 16 ? 1 : l;
  }
  const uint32_t A = 10, B = 11, C = 12;
  fig6.fill(C);
  const uint32_t pattern[8] = {A, A, A, B, A, A, B, C};
  for (unsigned l = 0; l < 8; ++l) fig6[l] = pattern[l];
  EXPECT_EQ(oracle({&uniform}, kFullMask), Scalarity::Full);
  EXPECT_EQ(oracle({&uniform, &halves}, kFullMask), Scalarity::HalfBoth);
  EXPECT_EQ(oracle({&uniform, &highOnly}, kFullMask), Scalarity::HalfHigh);
  EXPECT_EQ(oracle({&lowOnly}, kFullMask), Scalarity::HalfLow);
  EXPECT_EQ(oracle({&lowOnly, &highOnly}, kFullMask), Scalarity::Vector);
  EXPECT_EQ(oracle({&fig6}, 0b00110101u), Scalarity::Divergent);
  EXPECT_EQ(oracle({&fig6}, 0b00111101u), Scalarity::Vector);  // lane 3 holds B
  EXPECT_EQ(oracle({&fig6, &halves}, 0b00110101u), Scalarity::Divergent);
  EXPECT_EQ(oracle({&fig6, &highOnly}, 0b00110101u), Scalarity::Vector);
  EXPECT_EQ(oracle({}, kFullMask), Scalarity::Full);
  EXPECT_EQ(oracle({}, 0x3u), Scalarity::Divergent);
  EXPECT_EQ(oracle({&uniform}, kFullMask, ScalarClass::None), Scalarity::Vector);
  EXPECT_EQ(oracle({&uniform}, kFullMask, ScalarClass::Sfu, false), Scalarity::Vector);
}

TEST(GscalarScalarDecision, OracleSeesWhatTheExactMaskRuleMisses) {
  // Written under M1 = 0b10001111 with one value, then read under a subset of M1.
  RegisterState s(StateOptions{}, 1, 1);
  Lanes v;
  v.fill(6);
  s.write(0, 0, v.data(), 0b10001111u);
  const SourceView src{&s.meta(0, 0)};
  const uint32_t subset = 0b00001110u;
  EXPECT_EQ(decideScalar(&src, 1, subset, ScalarClass::Alu, true, Encoding::BytePrefix, false, {}),
            Scalarity::Vector);
  const uint32_t* values = s.values(0, 0);
  EXPECT_EQ(oracleScalar(&values, 1, subset, ScalarClass::Alu, true), Scalarity::Divergent);
}

}  // namespace
}  // namespace warpsim::mech::gscalar
