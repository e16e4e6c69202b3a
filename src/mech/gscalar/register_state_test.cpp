// Register value state: exact stored forms and access costs for every encoding, the paper's
// examples (digest s5.10), the special move, and a randomized shadow-register invariant.
#include <gtest/gtest.h>

#include <array>
#include <random>
#include <stdexcept>

#include "mech/gscalar/register_state.h"

namespace warpsim::mech::gscalar {
namespace {

using Lanes = std::array<uint32_t, kLanes>;

Lanes filled(uint32_t value) {
  Lanes v;
  v.fill(value);
  return v;
}

Lanes workedExample() {  // C04039C0 + 8k, k = lane % 8 (Sec. 3.1)
  Lanes v;
  for (unsigned l = 0; l < kLanes; ++l) v[l] = 0xC04039C0u + 8 * (l % 8);
  return v;
}

Lanes decompressed(const RegisterState& s, uint32_t slot, uint32_t reg) {
  Lanes out;
  out.fill(0xBADBADu);
  s.decompress(slot, reg, out.data());
  return out;
}

Lanes held(const RegisterState& s, uint32_t slot, uint32_t reg) {
  Lanes out;
  const uint32_t* v = s.values(slot, reg);
  for (unsigned l = 0; l < kLanes; ++l) out[l] = v[l];
  return out;
}

struct Cost {
  unsigned arrays, crossbarBytes;
  bool metadata, scalarRf, decompressed;
  bool operator==(const Cost&) const = default;
};
Cost cost(const AccessCost& c) { return {c.arrays, c.crossbarBytes, c.metadata, c.scalarRf, c.decompressed}; }

void PrintTo(const Cost& c, std::ostream* os) {
  *os << "{arrays " << c.arrays << ", crossbar " << c.crossbarBytes << ", metadata " << c.metadata << ", scalarRf "
      << c.scalarRf << ", decompressed " << c.decompressed << "}";
}

struct StoredBytes {
  uint32_t arrayBytes, baseBytes, metadataBits;
  bool operator==(const StoredBytes&) const = default;
};
StoredBytes storedOf(const RegisterState& s, uint32_t slot, uint32_t reg) {
  const RegisterState::Stored st = s.stored(slot, reg);
  return {st.arrayBytes, st.baseBytes, st.metadataBits};
}

ReadKind readKind(const RegisterState& s, uint32_t slot, uint32_t reg, uint32_t mask) {
  ReadKind k = ReadKind::kCount;
  s.read(slot, reg, mask, &k);
  return k;
}

StateOptions bytePrefix(bool half = false) {
  StateOptions o;
  o.halfRegister = half;
  return o;
}
StateOptions encoded(Encoding e) {
  StateOptions o;
  o.encoding = e;
  return o;
}

// --- byte-prefix (G-Scalar), full-register mode ---

TEST(GscalarRegisterState, WorkedExampleStoresOnlyByteZeroAndRoundTrips) {
  RegisterState s(bytePrefix(), 2, 4);
  const Lanes old = filled(0x11223344u);
  s.write(1, 2, old.data(), kFullMask);  // the byte[3:1] arrays keep this register's old bytes
  const Lanes v = workedExample();
  EXPECT_EQ(cost(s.write(1, 2, v.data(), kFullMask)), (Cost{2, 32, true, false, true}));
  const Metadata& m = s.meta(1, 2);
  EXPECT_EQ(m.common[0], 3);
  EXPECT_EQ(thermometer(m.common[0]), 0b1110);
  EXPECT_EQ(m.bvr[0], 0xC04039C0u);
  EXPECT_FALSE(m.divergent);
  EXPECT_TRUE(m.written);
  ReadKind k;
  EXPECT_EQ(cost(s.read(1, 2, kFullMask, &k)), (Cost{2, 32, true, false, true}));
  EXPECT_EQ(k, ReadKind::Bytes3);
  EXPECT_EQ(storedOf(s, 1, 2), (StoredBytes{32, 3, 38}));
  EXPECT_EQ(decompressed(s, 1, 2), v);
  EXPECT_EQ(held(s, 1, 2), v);
}

TEST(GscalarRegisterState, UniformRegisterReadsOnlyTheBvr) {
  RegisterState s(bytePrefix(), 1, 2);
  const Lanes v = filled(0xDEADBEEFu);
  EXPECT_EQ(cost(s.write(0, 1, v.data(), kFullMask)), (Cost{0, 4, true, false, true}));  // the BVR
  EXPECT_EQ(s.meta(0, 1).common[0], 4);
  EXPECT_EQ(s.meta(0, 1).bvr[0], 0xDEADBEEFu);
  ReadKind k;
  EXPECT_EQ(cost(s.read(0, 1, kFullMask, &k)), (Cost{0, 4, true, false, true}));
  EXPECT_EQ(k, ReadKind::Scalar);
  EXPECT_EQ(storedOf(s, 0, 1), (StoredBytes{0, 4, 38}));
  EXPECT_EQ(decompressed(s, 0, 1), v);
}

TEST(GscalarRegisterState, MsbDifferenceLeavesTheRegisterUncompressed) {
  RegisterState s(bytePrefix(), 1, 1);
  Lanes v = filled(0x12345678u);
  v[30] = 0x92345678u;
  EXPECT_EQ(cost(s.write(0, 0, v.data(), kFullMask)), (Cost{8, 128, true, false, true}));
  EXPECT_EQ(s.meta(0, 0).common[0], 0);
  ReadKind k;
  EXPECT_EQ(cost(s.read(0, 0, kFullMask, &k)), (Cost{8, 128, true, false, true}));
  EXPECT_EQ(k, ReadKind::Bytes0);
  EXPECT_EQ(storedOf(s, 0, 0), (StoredBytes{128, 0, 38}));
  EXPECT_EQ(decompressed(s, 0, 0), v);
}

TEST(GscalarRegisterState, ReadKindsPerCommonByteCount) {
  RegisterState s(bytePrefix(), 1, 1);
  const uint32_t second[] = {0x12345678u, 0x12345600u, 0x12340000u, 0x12000000u, 0x02345678u};
  const ReadKind kinds[] = {ReadKind::Scalar, ReadKind::Bytes3, ReadKind::Bytes2, ReadKind::Bytes1,
                            ReadKind::Bytes0};
  for (unsigned n = 0; n < 5; ++n) {
    Lanes v = filled(0x12345678u);
    v[17] = second[n];
    s.write(0, 0, v.data(), kFullMask);
    ReadKind k;
    const AccessCost c = s.read(0, 0, kFullMask, &k);
    EXPECT_EQ(k, kinds[n]) << n;
    EXPECT_EQ(c.arrays, n == 0 ? 0u : 2 * n) << n;
    EXPECT_EQ(c.crossbarBytes, n == 0 ? 4u : 32 * n) << n;
    EXPECT_EQ(readKind(s, 0, 0, 0x0000FFFFu), ReadKind::Divergent) << n;  // a divergent reader's own bar
    EXPECT_EQ(decompressed(s, 0, 0), v) << n;
  }
}

TEST(GscalarRegisterState, UnwrittenRegisterReadsAsUncompressedZero) {
  RegisterState s(bytePrefix(), 2, 3);
  ReadKind k;
  EXPECT_EQ(cost(s.read(1, 2, kFullMask, &k)), (Cost{8, 128, true, false, true}));
  EXPECT_EQ(k, ReadKind::Bytes0);
  EXPECT_EQ(storedOf(s, 1, 2), (StoredBytes{128, 0, 38}));
  EXPECT_EQ(decompressed(s, 1, 2), filled(0));
  EXPECT_FALSE(s.needsSpecialMove(1, 2, 0x1u));
}

TEST(GscalarRegisterState, ResetSlotForgetsOnlyThatSlot) {
  RegisterState s(bytePrefix(), 2, 2);
  const Lanes v = workedExample();
  s.write(0, 1, v.data(), kFullMask);
  s.write(1, 1, v.data(), kFullMask);
  s.resetSlot(1);
  EXPECT_FALSE(s.meta(1, 1).written);
  EXPECT_EQ(held(s, 1, 1), filled(0));
  EXPECT_EQ(decompressed(s, 1, 1), filled(0));
  EXPECT_EQ(s.meta(0, 1).common[0], 3);
  EXPECT_EQ(decompressed(s, 0, 1), v);
}

// --- divergence (Sec. 3.3, 4.2) ---

TEST(GscalarRegisterState, Fig6DivergentWriteIsScalarOverItsActiveLanes) {
  RegisterState s(bytePrefix(), 1, 1);
  const uint32_t A = 0xAAAA0001u, B = 0xBBBB0002u, C = 0xCCCC0003u;
  Lanes v = filled(C);  // lanes 8-31: anything
  const uint32_t pattern[8] = {A, A, A, B, A, A, B, C};
  for (unsigned l = 0; l < 8; ++l) v[l] = pattern[l];
  const uint32_t mask = 0b00110101u;  // lanes 0, 2, 4, 5
  EXPECT_EQ(cost(s.write(0, 0, v.data(), mask)), (Cost{8, 16, true, false, true}));
  const Metadata& m = s.meta(0, 0);
  EXPECT_TRUE(m.divergent);
  EXPECT_EQ(m.common[0], 4);
  EXPECT_EQ(m.bvr[0], mask);
  EXPECT_FALSE(m.fullScalar);
  Lanes expect = filled(0);  // unwritten before: inactive lanes keep zero
  for (unsigned l : {0u, 2u, 4u, 5u}) expect[l] = A;
  EXPECT_EQ(held(s, 0, 0), expect);
  EXPECT_EQ(decompressed(s, 0, 0), expect);
  ReadKind k;
  EXPECT_EQ(cost(s.read(0, 0, mask, &k)), (Cost{8, 128, true, false, false}));  // all operands still read
  EXPECT_EQ(k, ReadKind::Divergent);
  EXPECT_EQ(readKind(s, 0, 0, kFullMask), ReadKind::Divergent);
  EXPECT_EQ(storedOf(s, 0, 0), (StoredBytes{128, 0, 38}));
}

TEST(GscalarRegisterState, Fig7bMaskMismatchStillDecodesExactValues) {
  RegisterState s(bytePrefix(), 1, 3);
  const uint32_t r2 = 2;
  Lanes before = filled(2);  // r2 before: 2 in the lanes M1 doubles
  before[4] = static_cast<uint32_t>(-2);
  before[5] = 0;
  before[6] = 1;
  s.write(0, r2, before.data(), kFullMask);
  ASSERT_EQ(s.meta(0, r2).common[0], 0);  // 0xFFFFFFFE vs 0: uncompressed, no move needed
  const uint32_t m1 = 0b10001111u, m2 = 0b01110000u;
  ASSERT_FALSE(s.needsSpecialMove(0, r2, m1));
  const Lanes doubled = filled(4);
  EXPECT_EQ(cost(s.write(0, r2, doubled.data(), m1)), (Cost{8, 20, true, false, true}));
  EXPECT_EQ(s.meta(0, r2).common[0], 4);
  EXPECT_EQ(s.meta(0, r2).bvr[0], m1);
  Lanes expect = before;
  for (unsigned l : {0u, 1u, 2u, 3u, 7u}) expect[l] = 4;
  EXPECT_EQ(decompressed(s, 0, r2), expect);
  EXPECT_EQ(static_cast<int32_t>(decompressed(s, 0, r2)[4]), -2);
  EXPECT_EQ(decompressed(s, 0, r2)[5], 0u);
  EXPECT_EQ(decompressed(s, 0, r2)[6], 1u);
  const SourceView src{&s.meta(0, r2)};
  EXPECT_EQ(decideScalar(&src, 1, m2, ScalarClass::Alu, true, Encoding::BytePrefix, false, ScalarSwitches{}),
            Scalarity::Vector);
  EXPECT_EQ(decideScalar(&src, 1, m1, ScalarClass::Alu, true, Encoding::BytePrefix, false, ScalarSwitches{}),
            Scalarity::Divergent);
}

TEST(GscalarRegisterState, DivergentWriteToCompressedRegisterNeedsTheSpecialMove) {
  RegisterState s(bytePrefix(), 2, 4);
  const Lanes v = workedExample();
  s.write(1, 3, v.data(), kFullMask);
  EXPECT_TRUE(s.needsSpecialMove(1, 3, 0x0000000Fu));
  EXPECT_FALSE(s.needsSpecialMove(1, 3, kFullMask));
  const Lanes w = filled(7);
  try {
    s.write(1, 3, w.data(), 0x0000000Fu);
    FAIL() << "expected std::logic_error";
  } catch (const std::logic_error& e) {
    EXPECT_STREQ(e.what(), "gscalar: divergent write under mask 0x0000000f to compressed register 3 of warp "
                           "slot 1 without the special move first");
  }
  EXPECT_THROW(s.writeScalar(1, 3, 7, 0x0000000Fu), std::logic_error);
  EXPECT_EQ(held(s, 1, 3), v);  // the refused writes changed nothing
  EXPECT_EQ(decompressed(s, 1, 3), v);

  // Read (2 arrays, 32 B) + an uncompressed full write (8 arrays, 128 B).
  EXPECT_EQ(cost(s.specialMove(1, 3)), (Cost{10, 160, true, false, true}));
  const Metadata& m = s.meta(1, 3);
  EXPECT_FALSE(m.divergent);
  EXPECT_EQ(m.common[0], 0);
  EXPECT_EQ(m.common[1], 0);
  EXPECT_EQ(m.bvr[0], v[0]);
  EXPECT_EQ(decompressed(s, 1, 3), v);
  EXPECT_EQ(held(s, 1, 3), v);
  EXPECT_FALSE(s.needsSpecialMove(1, 3, 0x0000000Fu));
  EXPECT_EQ(cost(s.write(1, 3, w.data(), 0x0000000Fu)), (Cost{8, 16, true, false, true}));
  Lanes expect = v;
  for (unsigned l = 0; l < 4; ++l) expect[l] = 7;
  EXPECT_EQ(decompressed(s, 1, 3), expect);
  EXPECT_EQ(held(s, 1, 3), expect);
}

TEST(GscalarRegisterState, SpecialMoveIsNeededOnlyForCompressedNonDivergentRegisters) {
  RegisterState s(bytePrefix(), 1, 4);
  Lanes uncompressed = workedExample();
  uncompressed[5] = 0x00000001u;
  s.write(0, 0, uncompressed.data(), kFullMask);
  EXPECT_FALSE(s.needsSpecialMove(0, 0, 0xFFu));  // n = 0: the arrays hold every byte
  const Lanes scalar = filled(3);
  s.write(0, 1, scalar.data(), kFullMask);
  EXPECT_TRUE(s.needsSpecialMove(0, 1, 0xFFu));
  EXPECT_FALSE(s.needsSpecialMove(0, 1, 0u));  // nothing would be written
  s.write(0, 2, scalar.data(), 0xF0u);
  EXPECT_FALSE(s.needsSpecialMove(0, 2, 0x0Fu));  // D = 1: already uncompressed
  EXPECT_FALSE(s.needsSpecialMove(0, 3, 0x0Fu));  // never written
}

TEST(GscalarRegisterState, ScalarResultsSkipTheCompressor) {
  RegisterState s(bytePrefix(), 1, 2);
  EXPECT_EQ(cost(s.writeScalar(0, 0, 0x600DF00Du, kFullMask)), (Cost{0, 4, true, false, false}));
  const Metadata& m = s.meta(0, 0);
  EXPECT_EQ(m.common[0], 4);
  EXPECT_EQ(m.common[1], 0);
  EXPECT_EQ(m.bvr[0], 0x600DF00Du);
  EXPECT_FALSE(m.fullScalar);
  EXPECT_FALSE(m.divergent);
  EXPECT_EQ(decompressed(s, 0, 0), filled(0x600DF00Du));
  EXPECT_EQ(held(s, 0, 0), filled(0x600DF00Du));

  const uint32_t mask = 0x0F0F0000u;
  EXPECT_EQ(cost(s.writeScalar(0, 1, 9, mask)), (Cost{8, 32, true, false, false}));
  EXPECT_TRUE(s.meta(0, 1).divergent);
  EXPECT_EQ(s.meta(0, 1).common[0], 4);
  EXPECT_EQ(s.meta(0, 1).bvr[0], mask);
  Lanes expect = filled(0);
  for (unsigned l = 0; l < kLanes; ++l) expect[l] = mask >> l & 1u ? 9 : 0;
  EXPECT_EQ(decompressed(s, 0, 1), expect);
  const SourceView src{&s.meta(0, 1)};
  EXPECT_EQ(decideScalar(&src, 1, mask, ScalarClass::Sfu, true, Encoding::BytePrefix, false, ScalarSwitches{}),
            Scalarity::Divergent);
}

TEST(GscalarRegisterState, DivergentWriteArraysFollowTheOption) {
  StateOptions o = bytePrefix();
  o.divergentWriteAllArrays = false;
  RegisterState s(o, 1, 1);
  const Lanes v = workedExample();
  EXPECT_EQ(s.write(0, 0, v.data(), 0x0000000Fu).arrays, 4);  // one half: its four byte arrays
  EXPECT_EQ(s.write(0, 0, v.data(), 0x00010001u).arrays, 8);  // lanes in both halves
  EXPECT_EQ(s.writeScalar(0, 0, 1, 0x80000000u).arrays, 4);
}

// --- half-register mode (Sec. 4.3) ---

TEST(GscalarRegisterState, HalfModeCompressesEachHalfOnItsOwn) {
  RegisterState s(bytePrefix(true), 1, 3);
  Lanes v;
  for (unsigned l = 0; l < kLanes; ++l) v[l] = l < 16 ? 0xABCD0000u + l * 0x0101u : 0x77777777u;
  EXPECT_EQ(cost(s.write(0, 0, v.data(), kFullMask)), (Cost{2, 32, true, false, true}));
  const Metadata& m = s.meta(0, 0);
  EXPECT_EQ(thermometer(m.common[0]), 0b1100);
  EXPECT_EQ(thermometer(m.common[1]), 0b1111);
  EXPECT_EQ(m.bvr[0], 0xABCD0000u);
  EXPECT_EQ(m.bvr[1], 0x77777777u);
  EXPECT_FALSE(m.fullScalar);
  ReadKind k;
  EXPECT_EQ(cost(s.read(0, 0, kFullMask, &k)), (Cost{2, 32, true, false, true}));
  EXPECT_EQ(k, ReadKind::Bytes2);
  EXPECT_EQ(storedOf(s, 0, 0), (StoredBytes{32, 6, 76}));
  EXPECT_EQ(decompressed(s, 0, 0), v);
  const SourceView src{&s.meta(0, 0)};
  EXPECT_EQ(decideScalar(&src, 1, kFullMask, ScalarClass::Alu, true, Encoding::BytePrefix, true, ScalarSwitches{}),
            Scalarity::HalfHigh);

  Lanes two;
  for (unsigned l = 0; l < kLanes; ++l) two[l] = l < 16 ? 0x01020305u : 0x01020306u;
  EXPECT_EQ(cost(s.write(0, 1, two.data(), kFullMask)), (Cost{0, 8, true, false, true}));  // two BVRs
  EXPECT_FALSE(s.meta(0, 1).fullScalar);
  EXPECT_EQ(cost(s.read(0, 1, kFullMask, &k)), (Cost{0, 8, true, false, true}));  // both BVRs
  EXPECT_EQ(k, ReadKind::Bytes3);  // the two halves' values share three bytes
  EXPECT_EQ(storedOf(s, 0, 1), (StoredBytes{0, 8, 76}));
  EXPECT_EQ(decompressed(s, 0, 1), two);
  const SourceView both{&s.meta(0, 1)};
  EXPECT_EQ(decideScalar(&both, 1, kFullMask, ScalarClass::Alu, true, Encoding::BytePrefix, true, ScalarSwitches{}),
            Scalarity::HalfBoth);

  const Lanes same = filled(0x01020305u);
  s.write(0, 2, same.data(), kFullMask);
  EXPECT_TRUE(s.meta(0, 2).fullScalar);
  EXPECT_EQ(cost(s.read(0, 2, kFullMask, &k)), (Cost{0, 4, true, false, true}));
  EXPECT_EQ(k, ReadKind::Scalar);
  const SourceView full{&s.meta(0, 2)};
  EXPECT_EQ(decideScalar(&full, 1, kFullMask, ScalarClass::Alu, true, Encoding::BytePrefix, true, ScalarSwitches{}),
            Scalarity::Full);
}

TEST(GscalarRegisterState, HalfModeScalarAndDivergentWrites) {
  RegisterState s(bytePrefix(true), 1, 2);
  EXPECT_EQ(cost(s.writeScalar(0, 0, 42, kFullMask)), (Cost{0, 4, true, false, false}));
  const Metadata& m = s.meta(0, 0);
  EXPECT_EQ(m.common[0], 4);
  EXPECT_EQ(m.common[1], 4);
  EXPECT_EQ(m.bvr[1], 42u);
  EXPECT_TRUE(m.fullScalar);
  EXPECT_TRUE(s.needsSpecialMove(0, 0, 0xFFFF0000u));

  Lanes v = filled(0x12345600u);
  v[3] = 0x12345601u;
  EXPECT_EQ(cost(s.write(0, 1, v.data(), 0x0000FF0Fu)), (Cost{8, 48, true, false, true}));
  EXPECT_EQ(s.meta(0, 1).common[0], 3);  // whole warp, active lanes only
  EXPECT_EQ(s.meta(0, 1).common[1], 0);
  Lanes expect = filled(0);
  for (unsigned l = 0; l < kLanes; ++l) expect[l] = 0x0000FF0Fu >> l & 1u ? v[l] : 0;
  EXPECT_EQ(decompressed(s, 0, 1), expect);

  EXPECT_EQ(cost(s.specialMove(0, 0)), (Cost{8, 132, true, false, true}));
  EXPECT_EQ(s.meta(0, 0).bvr[1], 42u);
  EXPECT_FALSE(s.meta(0, 0).fullScalar);
  EXPECT_EQ(decompressed(s, 0, 0), filled(42));
}

TEST(GscalarRegisterState, HalfModeNeedsTheBytePrefixEncoding) {
  StateOptions o = encoded(Encoding::Bdi);
  o.halfRegister = true;
  EXPECT_THROW(RegisterState(o, 1, 1), std::invalid_argument);
}

// --- BDI (Warped-Compression) ---

TEST(GscalarRegisterState, BdiDeltaSizesSetArraysAndKinds) {
  RegisterState s(encoded(Encoding::Bdi), 1, 1);
  struct Case {
    int32_t step;
    unsigned delta, arrays, crossbar;
    ReadKind kind;
  };
  const Case cases[] = {{0, 0, 1, 4, ReadKind::Scalar},
                        {4, 1, 3, 36, ReadKind::Bytes3},       // 100 .. 224
                        {-4, 1, 3, 36, ReadKind::Bytes3},      // 100 .. -24
                        {1000, 2, 5, 68, ReadKind::Bytes2},    // up to +31000
                        {-1056, 2, 5, 68, ReadKind::Bytes2},   // down to -32736
                        {1100, 4, 8, 128, ReadKind::Bytes0}};  // +34100 fits no delta
  for (const Case& c : cases) {
    Lanes v;
    for (unsigned l = 0; l < kLanes; ++l) v[l] = static_cast<uint32_t>(100 + c.step * static_cast<int32_t>(l));
    ASSERT_EQ(bdiDeltaBytes(v.data()), c.delta) << c.step;
    EXPECT_EQ(cost(s.write(0, 0, v.data(), kFullMask)), (Cost{c.arrays, c.crossbar, true, false, true})) << c.step;
    EXPECT_EQ(s.meta(0, 0).common[0], c.delta == 4 ? 0 : 4 - c.delta) << c.step;
    EXPECT_EQ(s.meta(0, 0).bvr[0], 100u) << c.step;
    ReadKind k;
    EXPECT_EQ(cost(s.read(0, 0, kFullMask, &k)), (Cost{c.arrays, c.crossbar, true, false, c.delta < 4})) << c.step;
    EXPECT_EQ(k, c.kind) << c.step;
    EXPECT_EQ(storedOf(s, 0, 0), (StoredBytes{c.delta == 4 ? 128 : 4 + 32 * c.delta, 0, 2})) << c.step;
    EXPECT_EQ(decompressed(s, 0, 0), v) << c.step;
  }
}

TEST(GscalarRegisterState, CarryBoundaryCostsBytePrefixMoreThanBdi) {
  Lanes v;
  for (unsigned l = 0; l < kLanes; ++l) v[l] = l % 2 ? 0x0100u : 0x00FFu;
  RegisterState prefix(bytePrefix(), 1, 1), bdi(encoded(Encoding::Bdi), 1, 1);
  EXPECT_EQ(prefix.write(0, 0, v.data(), kFullMask).arrays, 4);  // n = 2: byte[1:0] arrays
  EXPECT_EQ(prefix.meta(0, 0).common[0], 2);
  EXPECT_EQ(bdi.write(0, 0, v.data(), kFullMask).arrays, 3);  // d = 1: ceil(36 / 16)
  EXPECT_EQ(bdi.meta(0, 0).common[0], 3);
  EXPECT_EQ(decompressed(prefix, 0, 0), v);
  EXPECT_EQ(decompressed(bdi, 0, 0), v);
}

TEST(GscalarRegisterState, BdiDivergentWriteIsLaneSlicedAndUncompressed) {
  RegisterState s(encoded(Encoding::Bdi), 1, 1);
  Lanes v;
  for (unsigned l = 0; l < kLanes; ++l) v[l] = 5000 + l;
  s.write(0, 0, v.data(), kFullMask);
  const uint32_t mask = 0x00000101u;  // lanes 0 and 8: arrays 0 and 2
  EXPECT_TRUE(s.needsSpecialMove(0, 0, mask));
  const Lanes w = filled(0xFFFFFFFFu);
  EXPECT_THROW(s.write(0, 0, w.data(), mask), std::logic_error);
  EXPECT_EQ(cost(s.specialMove(0, 0)), (Cost{11, 164, true, false, true}));
  EXPECT_EQ(decompressed(s, 0, 0), v);
  EXPECT_EQ(cost(s.write(0, 0, w.data(), mask)), (Cost{2, 8, true, false, false}));
  EXPECT_TRUE(s.meta(0, 0).divergent);
  ReadKind k;
  EXPECT_EQ(cost(s.read(0, 0, kFullMask, &k)), (Cost{8, 128, true, false, false}));
  EXPECT_EQ(k, ReadKind::Divergent);
  Lanes expect = v;
  expect[0] = expect[8] = 0xFFFFFFFFu;
  EXPECT_EQ(decompressed(s, 0, 0), expect);
}

// --- word-level scalar register file ---

TEST(GscalarRegisterState, WordScalarsLiveInTheScalarRegisterFile) {
  RegisterState s(encoded(Encoding::Word), 1, 3);
  const Lanes u = filled(77);
  EXPECT_EQ(cost(s.write(0, 0, u.data(), kFullMask)), (Cost{0, 4, false, true, false}));
  EXPECT_EQ(s.meta(0, 0).common[0], 4);
  ReadKind k;
  EXPECT_EQ(cost(s.read(0, 0, kFullMask, &k)), (Cost{0, 4, false, true, false}));
  EXPECT_EQ(k, ReadKind::Scalar);
  EXPECT_EQ(storedOf(s, 0, 0), (StoredBytes{0, 4, 1}));
  EXPECT_EQ(decompressed(s, 0, 0), u);

  const Lanes v = workedExample();  // three common bytes mean nothing to a word comparator
  EXPECT_EQ(cost(s.write(0, 1, v.data(), kFullMask)), (Cost{8, 128, false, false, false}));
  EXPECT_EQ(s.meta(0, 1).common[0], 0);
  EXPECT_EQ(cost(s.read(0, 1, kFullMask, &k)), (Cost{8, 128, false, false, false}));
  EXPECT_EQ(k, ReadKind::Bytes0);
  EXPECT_EQ(storedOf(s, 0, 1), (StoredBytes{128, 0, 1}));
  EXPECT_EQ(decompressed(s, 0, 1), v);

  EXPECT_EQ(cost(s.writeScalar(0, 2, 5, kFullMask)), (Cost{0, 4, false, true, false}));
  EXPECT_EQ(decompressed(s, 0, 2), filled(5));
}

TEST(GscalarRegisterState, WordDivergentWriteTouchesActiveLaneGroups) {
  RegisterState s(encoded(Encoding::Word), 1, 1);
  s.writeScalar(0, 0, 3, kFullMask);
  const uint32_t mask = 0x000000F1u;  // lanes 0, 4-7: arrays 0 and 1
  EXPECT_TRUE(s.needsSpecialMove(0, 0, mask));
  // Read from the scalar RF (4 B) + an uncompressed write (8 arrays, 128 B); no metadata array.
  EXPECT_EQ(cost(s.specialMove(0, 0)), (Cost{8, 132, false, true, true}));
  EXPECT_EQ(decompressed(s, 0, 0), filled(3));
  Lanes w;
  for (unsigned l = 0; l < kLanes; ++l) w[l] = 100 + l;
  EXPECT_EQ(cost(s.write(0, 0, w.data(), mask)), (Cost{2, 20, false, false, false}));
  EXPECT_TRUE(s.meta(0, 0).divergent);
  EXPECT_EQ(s.meta(0, 0).bvr[0], mask);
  Lanes expect = filled(3);
  for (unsigned l : {0u, 4u, 5u, 6u, 7u}) expect[l] = 100 + l;
  EXPECT_EQ(decompressed(s, 0, 0), expect);
  EXPECT_EQ(cost(s.read(0, 0, kFullMask, nullptr)), (Cost{8, 128, false, false, false}));
}

// --- the shadow invariant ---

// Values of the kinds the encodings care about: uniform, shared upper bytes, small deltas
// around a base, halves, and random.
Lanes randomValues(std::mt19937& rng) {
  Lanes v;
  const uint32_t base = rng(), other = rng();
  const unsigned kind = rng() % 6;
  for (unsigned l = 0; l < kLanes; ++l) {
    const uint32_t r = rng();
    switch (kind) {
      case 0: v[l] = base; break;
      case 1: v[l] = (base & 0xFFFFFF00u) | (r & 0xFFu); break;
      case 2: v[l] = (base & 0xFFFF0000u) | (r & 0xFFFFu); break;
      case 3: v[l] = base + static_cast<uint32_t>(static_cast<int32_t>(r % 256) - 128); break;
      case 4: v[l] = l < 16 ? base : ((l % 3) ? other : (other & 0xFF000000u) | (r & 0xFFFFFFu)); break;
      default: v[l] = r; break;
    }
  }
  return v;
}

uint32_t randomMask(std::mt19937& rng) {
  switch (rng() % 4) {
    case 0: return kFullMask;
    case 1: return rng() & 0x0000FFFFu;
    case 2: return rng() | 1u;
    default: return rng() & rng();
  }
}

TEST(GscalarRegisterState, DecompressMatchesTheShadowAfterEveryOperation) {
  const StateOptions configs[] = {bytePrefix(false), bytePrefix(true), encoded(Encoding::Word),
                                  encoded(Encoding::Bdi)};
  for (const StateOptions& options : configs) {
    SCOPED_TRACE(static_cast<int>(options.encoding) * 10 + options.halfRegister);
    std::mt19937 rng(2024);
    constexpr uint32_t kSlots = 2, kRegs = 3;
    RegisterState s(options, kSlots, kRegs);
    std::array<Lanes, kSlots * kRegs> shadow{};
    unsigned moves = 0, divergentWrites = 0, compressedReads = 0;
    for (unsigned op = 0; op < 3000; ++op) {
      const uint32_t slot = rng() % kSlots, reg = rng() % kRegs;
      Lanes& expect = shadow[slot * kRegs + reg];
      const unsigned what = rng() % 16;
      if (what == 0) {
        s.resetSlot(slot);
        for (uint32_t r = 0; r < kRegs; ++r) shadow[slot * kRegs + r].fill(0);
      } else {
        uint32_t mask = randomMask(rng);
        if (mask == 0) mask = 1u << (rng() % 32);
        if (s.needsSpecialMove(slot, reg, mask)) {
          s.specialMove(slot, reg);
          ++moves;
          ASSERT_EQ(decompressed(s, slot, reg), expect) << "after the move, op " << op;
        }
        divergentWrites += mask != kFullMask;
        const bool scalar = what < 5;
        const Lanes v = scalar ? filled(rng()) : randomValues(rng);
        if (scalar) s.writeScalar(slot, reg, v[0], mask);
        else s.write(slot, reg, v.data(), mask);
        for (unsigned l = 0; l < kLanes; ++l) {
          if (mask >> l & 1u) expect[l] = v[l];
        }
      }
      for (uint32_t r = 0; r < kRegs; ++r) {
        const Lanes& e = shadow[slot * kRegs + r];
        ASSERT_EQ(decompressed(s, slot, r), e) << "op " << op << " reg " << r;
        ASSERT_EQ(held(s, slot, r), e) << "op " << op << " reg " << r;
      }
      const AccessCost rc = s.read(slot, reg, kFullMask, nullptr);
      compressedReads += rc.arrays < 8;
      ASSERT_EQ(rc.arrays * 16u, (s.stored(slot, reg).arrayBytes + 15) / 16 * 16) << "op " << op;
    }
    // The sequence must have exercised the paths the invariant guards.
    EXPECT_GT(moves, 100u);
    EXPECT_GT(divergentWrites, 1500u);
    EXPECT_GT(compressedReads, 200u);
  }
}

}  // namespace
}  // namespace warpsim::mech::gscalar
