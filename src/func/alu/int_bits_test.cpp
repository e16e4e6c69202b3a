// Bit-manipulation, shift and logic executors: popc clz bfind brev bfe bfi bmsk prmt shl shr shf
// lop3 and/or/xor/not/cnot (bit types and .pred).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "func/alu/int_test_support.h"

namespace warpsim::func::testing {
namespace {

using ir::Op;
using ir::Type;

struct BitCase {
  const char* name;
  Op op;
  Type type;
  std::vector<uint64_t> srcs;
  uint64_t want;
  OpOptions opts = {};
};

constexpr uint64_t kNone = 0xFFFFFFFFu;  // bfind: no bit found

OpOptions dst32() {
  OpOptions o;
  o.dstBits = 32;
  return o;
}
OpOptions shiftAmt() {
  OpOptions o;
  o.flags = ir::kShiftAmt;
  o.dstBits = 32;
  return o;
}
OpOptions sub(uint8_t s, uint32_t flags = 0) {
  OpOptions o;
  o.sub = s;
  o.flags = flags;
  return o;
}
OpOptions srcs32() {  // bfe/bfi position and length are .u32 even for 64-bit types
  OpOptions o;
  o.srcBits = 64;
  return o;
}

void PrintTo(const BitCase& c, std::ostream* os) { *os << c.name; }

class BitTable : public ::testing::TestWithParam<BitCase> {};

TEST_P(BitTable, ExactResult) {
  const BitCase& c = GetParam();
  uint64_t got = 0;
  switch (c.srcs.size()) {
    case 1: got = evalUniform(c.op, c.type, {c.srcs[0]}, c.opts); break;
    case 2: got = evalUniform(c.op, c.type, {c.srcs[0], c.srcs[1]}, c.opts); break;
    case 3: got = evalUniform(c.op, c.type, {c.srcs[0], c.srcs[1], c.srcs[2]}, c.opts); break;
    default:
      got = evalUniform(c.op, c.type, {c.srcs[0], c.srcs[1], c.srcs[2], c.srcs[3]}, c.opts);
      break;
  }
  EXPECT_EQ(got, c.want) << c.name << std::hex << " got 0x" << got << " want 0x" << c.want;
}

const BitCase kCount[] = {
    {"popc.b32 all ones", Op::Popc, Type::B32, {kU32Max}, 32},
    {"popc.b32 zero", Op::Popc, Type::B32, {0}, 0},
    {"popc.b64 all ones", Op::Popc, Type::B64, {kU64Max}, 64, dst32()},
    {"popc.b64 sparse", Op::Popc, Type::B64, {0x8000000100000001ull}, 3, dst32()},
    {"clz.b32 zero is 32", Op::Clz, Type::B32, {0}, 32},
    {"clz.b32 one", Op::Clz, Type::B32, {1}, 31},
    {"clz.b64 zero is 64", Op::Clz, Type::B64, {0}, 64, dst32()},
    {"clz.b64 top bit", Op::Clz, Type::B64, {0x8000000000000000ull}, 0, dst32()},
    {"clz.b64 one", Op::Clz, Type::B64, {1}, 63, dst32()},
    {"bfind.u32 zero", Op::Bfind, Type::U32, {0}, kNone},
    {"bfind.u32 one", Op::Bfind, Type::U32, {1}, 0},
    {"bfind.u32 top", Op::Bfind, Type::U32, {0x80000000u}, 31},
    {"bfind.shiftamt.u32 top", Op::Bfind, Type::U32, {0x80000000u}, 0, shiftAmt()},
    {"bfind.shiftamt.u32 one", Op::Bfind, Type::U32, {1}, 31, shiftAmt()},
    {"bfind.shiftamt.u32 zero", Op::Bfind, Type::U32, {0}, kNone, shiftAmt()},
    {"bfind.s32 minus one has no non-sign bit", Op::Bfind, Type::S32, {kU32Max}, kNone},
    {"bfind.s32 minus two", Op::Bfind, Type::S32, {0xFFFFFFFEu}, 0},
    {"bfind.s32 min", Op::Bfind, Type::S32, {0x80000000u}, 30},
    {"bfind.s32 positive", Op::Bfind, Type::S32, {0x00010000u}, 16},
    {"bfind.s32 zero", Op::Bfind, Type::S32, {0}, kNone},
    {"bfind.u64 bit 40", Op::Bfind, Type::U64, {1ull << 40}, 40, dst32()},
    {"bfind.shiftamt.u64 bit 40", Op::Bfind, Type::U64, {1ull << 40}, 23, shiftAmt()},
    {"bfind.s64 min", Op::Bfind, Type::S64, {0x8000000000000000ull}, 62, dst32()},
    {"bfind.s64 minus one", Op::Bfind, Type::S64, {kU64Max}, kNone, dst32()},
    {"brev.b32 one", Op::Brev, Type::B32, {1}, 0x80000000u},
    {"brev.b32 pattern", Op::Brev, Type::B32, {0x12345678u}, 0x1E6A2C48u},
    {"brev.b64 one", Op::Brev, Type::B64, {1}, 0x8000000000000000ull},
    {"brev.b64 pattern", Op::Brev, Type::B64, {0x0123456789ABCDEFull}, 0xF7B3D591E6A2C480ull},
};
INSTANTIATE_TEST_SUITE_P(Count, BitTable, ::testing::ValuesIn(kCount));

const BitCase kField[] = {
    {"bfe.u32 middle", Op::Bfe, Type::U32, {0xF0F0F0F0u, 4, 8}, 0x0F},
    {"bfe.u32 clipped at top", Op::Bfe, Type::U32, {0xF0F0F0F0u, 28, 8}, 0xF},
    {"bfe.s32 clipped at top fills with msb", Op::Bfe, Type::S32, {0xF0F0F0F0u, 28, 8}, kU32Max},
    {"bfe.s32 positive field", Op::Bfe, Type::S32, {0xF0F0F0F0u, 4, 8}, 0x0F},
    {"bfe.s32 negative field", Op::Bfe, Type::S32, {0xF0F0F0F0u, 0, 8}, 0xFFFFFFF0u},
    {"bfe.s32 len 0 is 0", Op::Bfe, Type::S32, {kU32Max, 4, 0}, 0},
    {"bfe.u32 len 0 is 0", Op::Bfe, Type::U32, {kU32Max, 0, 0}, 0},
    {"bfe.u32 pos beyond width", Op::Bfe, Type::U32, {kU32Max, 32, 8}, 0},
    {"bfe.s32 pos beyond width, negative", Op::Bfe, Type::S32, {0x80000000u, 40, 8}, kU32Max},
    {"bfe.s32 pos beyond width, positive", Op::Bfe, Type::S32, {0x7FFFFFFFu, 40, 8}, 0},
    {"bfe.u32 whole word", Op::Bfe, Type::U32, {0x89ABCDEFu, 0, 32}, 0x89ABCDEFu},
    {"bfe.u32 len 255", Op::Bfe, Type::U32, {0x89ABCDEFu, 0, 255}, 0x89ABCDEFu},
    {"bfe.s32 len 255", Op::Bfe, Type::S32, {0x89ABCDEFu, 0, 255}, 0x89ABCDEFu},
    {"bfe.u32 only low 8 bits of pos and len", Op::Bfe, Type::U32, {0xF0F0F0F0u, 0x104, 0x308},
     0x0F},
    {"bfe.u64 clipped", Op::Bfe, Type::U64, {0xF000000000000000ull, 60, 8}, 0xF, srcs32()},
    {"bfe.s64 clipped", Op::Bfe, Type::S64, {0xF000000000000000ull, 60, 8}, kU64Max, srcs32()},
    {"bfe.s64 whole", Op::Bfe, Type::S64, {0x8123456789ABCDEFull, 0, 64}, 0x8123456789ABCDEFull,
     srcs32()},
    {"bfe.s64 field 33 bits", Op::Bfe, Type::S64, {0x0000000100000000ull, 0, 33},
     0xFFFFFFFF00000000ull, srcs32()},
    {"bfi.b32 middle", Op::Bfi, Type::B32, {0xFF, 0, 4, 4}, 0xF0},
    {"bfi.b32 keeps other bits", Op::Bfi, Type::B32, {0, kU32Max, 8, 8}, 0xFFFF00FFu},
    {"bfi.b32 clipped at top", Op::Bfi, Type::B32, {0xFF, 1, 28, 8}, 0xF0000001u},
    {"bfi.b32 len 0 is b", Op::Bfi, Type::B32, {0xFF, 0x1234, 4, 0}, 0x1234},
    {"bfi.b32 pos beyond width is b", Op::Bfi, Type::B32, {0xFF, 0x1234, 32, 8}, 0x1234},
    {"bfi.b32 whole word", Op::Bfi, Type::B32, {0x89ABCDEFu, 0x1234, 0, 32}, 0x89ABCDEFu},
    {"bfi.b32 only low 8 bits of pos", Op::Bfi, Type::B32, {0xFF, 0, 0x204, 4}, 0xF0},
    {"bfi.b64 top", Op::Bfi, Type::B64, {0xFFFF, 1, 56, 16}, 0xFF00000000000001ull, srcs32()},
};
INSTANTIATE_TEST_SUITE_P(Field, BitTable, ::testing::ValuesIn(kField));

constexpr uint8_t prmtMode(ir::PrmtMode m) { return static_cast<uint8_t>(m); }
using M = ir::PrmtMode;
constexpr uint64_t kPa = 0x33221100u, kPb = 0x77665544u;

const BitCase kPrmt[] = {
    {"prmt default", Op::Prmt, Type::B32, {0x03020100u, 0x07060504u, 0x7531}, 0x07050301u},
    {"prmt default identity", Op::Prmt, Type::B32, {kPa, kPb, 0x3210}, kPa},
    {"prmt default upper word", Op::Prmt, Type::B32, {kPa, kPb, 0x7654}, kPb},
    {"prmt default ignores selector bits above 15", Op::Prmt, Type::B32, {kPa, kPb, 0xFFFF3210},
     kPa},
    {"prmt default sign replicate", Op::Prmt, Type::B32, {0x807F01FFu, 0, 0x89AB}, 0xFF0000FFu},
    {"prmt.f4e 0", Op::Prmt, Type::B32, {kPa, kPb, 0}, 0x33221100u, sub(prmtMode(M::F4e))},
    {"prmt.f4e 1", Op::Prmt, Type::B32, {kPa, kPb, 1}, 0x44332211u, sub(prmtMode(M::F4e))},
    {"prmt.f4e 3 (only c[1:0])", Op::Prmt, Type::B32, {kPa, kPb, 0xFF}, 0x66554433u,
     sub(prmtMode(M::F4e))},
    {"prmt.b4e 0", Op::Prmt, Type::B32, {kPa, kPb, 0}, 0x55667700u, sub(prmtMode(M::B4e))},
    {"prmt.b4e 1", Op::Prmt, Type::B32, {kPa, kPb, 1}, 0x66770011u, sub(prmtMode(M::B4e))},
    {"prmt.b4e 2", Op::Prmt, Type::B32, {kPa, kPb, 2}, 0x77001122u, sub(prmtMode(M::B4e))},
    {"prmt.b4e 3", Op::Prmt, Type::B32, {kPa, kPb, 3}, 0x00112233u, sub(prmtMode(M::B4e))},
    {"prmt.rc8 0", Op::Prmt, Type::B32, {kPa, kPb, 0}, 0x00000000u, sub(prmtMode(M::Rc8))},
    {"prmt.rc8 2", Op::Prmt, Type::B32, {kPa, kPb, 2}, 0x22222222u, sub(prmtMode(M::Rc8))},
    {"prmt.ecl 1", Op::Prmt, Type::B32, {kPa, kPb, 1}, 0x33221111u, sub(prmtMode(M::Ecl))},
    {"prmt.ecl 2", Op::Prmt, Type::B32, {kPa, kPb, 2}, 0x33222222u, sub(prmtMode(M::Ecl))},
    {"prmt.ecr 1", Op::Prmt, Type::B32, {kPa, kPb, 1}, 0x11111100u, sub(prmtMode(M::Ecr))},
    {"prmt.ecr 2", Op::Prmt, Type::B32, {kPa, kPb, 2}, 0x22221100u, sub(prmtMode(M::Ecr))},
    {"prmt.rc16 0", Op::Prmt, Type::B32, {kPa, kPb, 0}, 0x11001100u, sub(prmtMode(M::Rc16))},
    {"prmt.rc16 1", Op::Prmt, Type::B32, {kPa, kPb, 1}, 0x33223322u, sub(prmtMode(M::Rc16))},
    {"prmt.rc16 2", Op::Prmt, Type::B32, {kPa, kPb, 2}, 0x11001100u, sub(prmtMode(M::Rc16))},
};
INSTANTIATE_TEST_SUITE_P(Prmt, BitTable, ::testing::ValuesIn(kPrmt));

// bmsk d, a, b: b bits from bit a (PTX ISA 9.0, "bmsk"; the ISA's own example is wrap 1, 2).
OpOptions clamp() { return sub(0, ir::kClamp); }
const BitCase kBmsk[] = {
    {"bmsk.wrap 1 2 (the ISA's example)", Op::Bmsk, Type::B32, {1, 2}, 0x6},
    {"bmsk.wrap 0 0 is empty", Op::Bmsk, Type::B32, {0, 0}, 0},
    {"bmsk.wrap 4 0 is empty", Op::Bmsk, Type::B32, {4, 0}, 0},
    {"bmsk.wrap 0 31", Op::Bmsk, Type::B32, {0, 31}, 0x7FFFFFFFu},
    {"bmsk.wrap 8 8", Op::Bmsk, Type::B32, {8, 8}, 0xFF00u},
    {"bmsk.wrap 28 8 is cut at bit 31", Op::Bmsk, Type::B32, {28, 8}, 0xF0000000u},
    {"bmsk.wrap 33 2 wraps the start to 1", Op::Bmsk, Type::B32, {33, 2}, 0x6},
    {"bmsk.wrap 0 32 wraps the width to 0", Op::Bmsk, Type::B32, {0, 32}, 0},
    {"bmsk.wrap 3 35 wraps the width to 3", Op::Bmsk, Type::B32, {3, 35}, 0x38},
    {"bmsk.clamp 1 2", Op::Bmsk, Type::B32, {1, 2}, 0x6, clamp()},
    {"bmsk.clamp 0 32 is everything", Op::Bmsk, Type::B32, {0, 32}, kU32Max, clamp()},
    {"bmsk.clamp 4 100 reaches the top", Op::Bmsk, Type::B32, {4, 100}, 0xFFFFFFF0u, clamp()},
    {"bmsk.clamp 32 4 is empty", Op::Bmsk, Type::B32, {32, 4}, 0, clamp()},
    {"bmsk.clamp 40 40 is empty", Op::Bmsk, Type::B32, {40, 40}, 0, clamp()},
    {"bmsk.clamp 31 1", Op::Bmsk, Type::B32, {31, 1}, 0x80000000u, clamp()},
    {"bmsk.clamp 5 0 is empty", Op::Bmsk, Type::B32, {5, 0}, 0, clamp()},
};
INSTANTIATE_TEST_SUITE_P(Bmsk, BitTable, ::testing::ValuesIn(kBmsk));

TEST(Prmt, ImmediateSelectorMatchesRegisterSelector) {
  const uint32_t selectors[] = {0x3210, 0x7654, 0x0000, 0x89AB, 0xFEDC, 0x1357, 0xC840, 1, 2, 3};
  for (uint8_t m = 0; m <= static_cast<uint8_t>(M::Rc16); ++m) {
    for (uint32_t c : selectors) {
      AluHarness h;
      for (unsigned l = 0; l < kWarpSize; ++l) {
        h.setLane(1, l, 0x8F7E6D5Cu ^ (l * 0x01030507u));
        h.setLane(2, l, 0x4B3A2918u + l * 0x10204080u);
        h.setLane(3, l, c);
      }
      ir::Instr viaReg = AluHarness::make(Op::Prmt, Type::B32, {AluHarness::R(4)},
                                          {AluHarness::R(1), AluHarness::R(2), AluHarness::R(3)});
      viaReg.sub = m;
      ir::Instr viaImm = AluHarness::make(Op::Prmt, Type::B32, {AluHarness::R(5)},
                                          {AluHarness::R(1), AluHarness::R(2), h.Imm(c)});
      viaImm.sub = m;
      h.run(viaReg);
      h.run(viaImm, 0x7FFFFFFEu);
      for (unsigned l = 1; l < kWarpSize - 1; ++l) {
        ASSERT_EQ(h.get(5, l), h.get(4, l)) << "mode " << int(m) << " selector " << c << " lane " << l;
      }
      EXPECT_EQ(h.get(5, 0), 0u);  // outside the mask
      EXPECT_EQ(h.get(5, 31), 0u);
    }
  }
}

constexpr uint8_t kLeft = static_cast<uint8_t>(ir::ShfDir::Left);
constexpr uint8_t kRight = static_cast<uint8_t>(ir::ShfDir::Right);
OpOptions count32() {  // shift counts are .u32 even for 64-bit shifts
  OpOptions o;
  o.srcBits = 64;
  return o;
}

const BitCase kShift[] = {
    {"shl.b32 31", Op::Shl, Type::B32, {1, 31}, 0x80000000u},
    {"shl.b32 32 is 0", Op::Shl, Type::B32, {1, 32}, 0},
    {"shl.b32 huge count is 0", Op::Shl, Type::B32, {1, kU32Max}, 0},
    {"shl.b16 drops high bits", Op::Shl, Type::B16, {0xFFFF, 4}, 0xFFF0},
    {"shl.b16 16 is 0", Op::Shl, Type::B16, {1, 16}, 0},
    {"shl.b64 63", Op::Shl, Type::B64, {1, 63}, 0x8000000000000000ull, count32()},
    {"shl.b64 64 is 0", Op::Shl, Type::B64, {1, 64}, 0, count32()},
    {"shr.u32 31", Op::Shr, Type::U32, {0x80000000u, 31}, 1},
    {"shr.u32 32 is 0", Op::Shr, Type::U32, {0x80000000u, 32}, 0},
    {"shr.b32 is logical", Op::Shr, Type::B32, {0x80000000u, 4}, 0x08000000u},
    {"shr.s32 sign fill", Op::Shr, Type::S32, {0x80000000u, 31}, kU32Max},
    {"shr.s32 count beyond width sign fills", Op::Shr, Type::S32, {0x80000000u, 100}, kU32Max},
    {"shr.s32 positive beyond width is 0", Op::Shr, Type::S32, {0x40000000u, 100}, 0},
    {"shr.s16 sign fill", Op::Shr, Type::S16, {0x8000, 16}, 0xFFFF},
    {"shr.s16 by 4", Op::Shr, Type::S16, {0x8000, 4}, 0xF800},
    {"shr.u16 by 4", Op::Shr, Type::U16, {0x8000, 4}, 0x0800},
    {"shr.s64 beyond width", Op::Shr, Type::S64, {0x8000000000000000ull, 64}, kU64Max, count32()},
    {"shr.u64 beyond width", Op::Shr, Type::U64, {kU64Max, 64}, 0, count32()},
    {"shr.u64 63", Op::Shr, Type::U64, {kU64Max, 63}, 1, count32()},
    {"shf.l.wrap 8", Op::Shf, Type::B32, {0x89ABCDEFu, 0x01234567u, 8}, 0x23456789u, sub(kLeft)},
    {"shf.l.wrap 40 wraps to 8", Op::Shf, Type::B32, {0x89ABCDEFu, 0x01234567u, 40}, 0x23456789u,
     sub(kLeft)},
    {"shf.l.clamp 40 clamps to 32", Op::Shf, Type::B32, {0x89ABCDEFu, 0x01234567u, 40},
     0x89ABCDEFu, sub(kLeft, ir::kClamp)},
    {"shf.l 0", Op::Shf, Type::B32, {0x89ABCDEFu, 0x01234567u, 0}, 0x01234567u, sub(kLeft)},
    {"shf.r.wrap 8", Op::Shf, Type::B32, {0x89ABCDEFu, 0x01234567u, 8}, 0x6789ABCDu, sub(kRight)},
    {"shf.r.wrap 32 wraps to 0", Op::Shf, Type::B32, {0x89ABCDEFu, 0x01234567u, 32}, 0x89ABCDEFu,
     sub(kRight)},
    {"shf.r.clamp 32", Op::Shf, Type::B32, {0x89ABCDEFu, 0x01234567u, 32}, 0x01234567u,
     sub(kRight, ir::kClamp)},
    {"shf.r.clamp huge", Op::Shf, Type::B32, {0x89ABCDEFu, 0x01234567u, kU32Max}, 0x01234567u,
     sub(kRight, ir::kClamp)},
};
INSTANTIATE_TEST_SUITE_P(Shift, BitTable, ::testing::ValuesIn(kShift));

const BitCase kLogic[] = {
    {"and.b32", Op::And, Type::B32, {0xF0F0F0F0u, 0xFF00FF00u}, 0xF000F000u},
    {"or.b16", Op::Or, Type::B16, {0xF000, 0x000F}, 0xF00F},
    {"xor.b64", Op::Xor, Type::B64, {kU64Max, 0x00FF00FF00FF00FFull}, 0xFF00FF00FF00FF00ull},
    {"not.b16", Op::Not, Type::B16, {0x00FF}, 0xFF00},
    {"not.b32 stays 32-bit", Op::Not, Type::B32, {0}, kU32Max},
    {"not.b64", Op::Not, Type::B64, {0}, kU64Max},
    {"cnot.b32 zero", Op::Cnot, Type::B32, {0}, 1},
    {"cnot.b32 nonzero", Op::Cnot, Type::B32, {0x80000000u}, 0},
    {"cnot.b64 high bit only", Op::Cnot, Type::B64, {0x8000000000000000ull}, 0},
    {"cnot.b16 zero", Op::Cnot, Type::B16, {0}, 1},
};
INSTANTIATE_TEST_SUITE_P(Logic, BitTable, ::testing::ValuesIn(kLogic));

// ---- lop3 -----------------------------------------------------------------------------------

class Lop3 : public ::testing::TestWithParam<uint32_t> {};

uint32_t lop3Reference(uint32_t a, uint32_t b, uint32_t c, uint32_t lut) {
  uint32_t r = 0;
  for (unsigned bit = 0; bit < 32; ++bit) {
    unsigned idx = (((a >> bit) & 1u) << 2) | (((b >> bit) & 1u) << 1) | ((c >> bit) & 1u);
    r |= ((lut >> idx) & 1u) << bit;
  }
  return r;
}

TEST(Lop3Named, CommonTables) {
  const uint32_t a = 0x12345678u, b = 0x0F0F0F0Fu, c = 0xFF00FF00u;
  struct { uint32_t lut; uint32_t want; } cases[] = {
      {0x96, a ^ b ^ c},
      {0xE8, (a & b) | (a & c) | (b & c)},  // majority
      {0xF0, a},
      {0xCC, b},
      {0xAA, c},
      {0x00, 0},
      {0xFF, 0xFFFFFFFFu},
      {0x80, a & b & c},
      {0xFE, a | b | c},
      {0xCA, (a & b) | (~a & c)},  // a ? b : c
      {0x6A, (a & b) ^ c},
      {0x3C, a ^ b},
  };
  for (const auto& t : cases) {
    AluHarness h;
    h.setAll(1, a);
    h.setAll(2, b);
    h.setAll(3, c);
    ir::Instr in = AluHarness::make(Op::Lop3, Type::B32, {AluHarness::R(0)},
                                    {AluHarness::R(1), AluHarness::R(2), AluHarness::R(3), h.Imm(t.lut)});
    h.run(in);
    EXPECT_EQ(h.get(0, 7), t.want) << "lut 0x" << std::hex << t.lut;
  }
}

TEST_P(Lop3, EveryLutMatchesTruthTable) {
  const uint32_t lut = GetParam();
  AluHarness h;
  for (unsigned l = 0; l < kWarpSize; ++l) {
    h.setLane(1, l, 0xF0F0F0F0u ^ (l * 0x01010101u));
    h.setLane(2, l, 0xCCCCCCCCu + l);
    h.setLane(3, l, 0xAAAAAAAAu * (l + 1));
  }
  ir::Instr in = AluHarness::make(Op::Lop3, Type::B32, {AluHarness::R(0)},
                                  {AluHarness::R(1), AluHarness::R(2), AluHarness::R(3), h.Imm(lut)});
  h.run(in);
  for (unsigned l = 0; l < kWarpSize; ++l) {
    uint32_t want = lop3Reference(static_cast<uint32_t>(h.get(1, l)), static_cast<uint32_t>(h.get(2, l)),
                                  static_cast<uint32_t>(h.get(3, l)), lut);
    ASSERT_EQ(h.get(0, l), want) << "lut " << lut << " lane " << l;
  }
}
INSTANTIATE_TEST_SUITE_P(AllLuts, Lop3, ::testing::Range(0u, 256u, 7u));

TEST(Lop3Bind, RequiresImmediateLutAndB32) {
  AluHarness h;
  ir::Instr in = AluHarness::make(Op::Lop3, Type::B32, {AluHarness::R(0)},
                                  {AluHarness::R(1), AluHarness::R(2), AluHarness::R(3), AluHarness::R(4)});
  EXPECT_NE(h.tryRun(in), "");  // LUT in a register
  in.ops[4] = h.Imm(0x96);
  in.type = Type::B64;
  EXPECT_NE(h.tryRun(in), "");
  in.type = Type::B32;
  in.boolOp = ir::BoolOp::Or;
  EXPECT_NE(h.tryRun(in), "");
}

// ---- predicate logic ------------------------------------------------------------------------

TEST(PredLogic, AndOrXorNot) {
  struct { Op op; uint32_t want; } cases[] = {
      {Op::And, 0xF000F000u}, {Op::Or, 0xFFF0FFF0u}, {Op::Xor, 0x0FF00FF0u}, {Op::Not, 0x0F0F0F0Fu},
  };
  for (const auto& t : cases) {
    AluHarness h;
    h.setPred(1, 0xF0F0F0F0u);
    h.setPred(2, 0xFF00FF00u);
    h.setPred(0, 0x12345678u);
    ir::Instr in = t.op == Op::Not
                       ? AluHarness::make(t.op, Type::Pred, {AluHarness::P(0)}, {AluHarness::P(1)})
                       : AluHarness::make(t.op, Type::Pred, {AluHarness::P(0)},
                                          {AluHarness::P(1), AluHarness::P(2)});
    h.run(in);
    EXPECT_EQ(h.pred(0), t.want) << ir::opName(t.op);
    // masked: only lanes 0..15 change
    h.setPred(0, 0x12345678u);
    h.run(in, 0x0000FFFFu);
    EXPECT_EQ(h.pred(0), (0x12340000u | (t.want & 0xFFFFu))) << ir::opName(t.op);
  }
}

TEST(PredLogic, NegatedSource) {
  AluHarness h;
  h.setPred(1, 0xF0F0F0F0u);
  h.setPred(2, 0xFF00FF00u);
  ir::Instr in = AluHarness::make(Op::And, Type::Pred, {AluHarness::P(0)},
                                  {AluHarness::P(1, true), AluHarness::P(2)});
  h.run(in);
  EXPECT_EQ(h.pred(0), 0x0F000F00u);
}

TEST(BitBind, RejectsInvalidVariants) {
  EXPECT_NE(bindError(Op::Popc, Type::B16, 1), "");
  EXPECT_NE(bindError(Op::Bfe, Type::U16, 3), "");
  EXPECT_NE(bindError(Op::Prmt, Type::B64, 3), "");
  EXPECT_NE(bindError(Op::Shf, Type::B64, 3), "");
  EXPECT_NE(bindError(Op::Cnot, Type::Pred, 1), "");
  EXPECT_NE(bindError(Op::Bfi, Type::B32, 3), "");  // needs 4 sources
  EXPECT_NE(bindError(Op::Prmt, Type::B32, 3, sub(42)), "");
  EXPECT_NE(bindError(Op::And, Type::Pred, 2), "");  // value registers given for .pred
}

TEST(Shift, PerLaneCounts) {
  AluHarness h;
  for (unsigned l = 0; l < kWarpSize; ++l) {
    h.setLane(1, l, 0x80000001u);
    h.setLane(2, l, l + 16);  // counts 16..47, crossing the width
  }
  ir::Instr in = AluHarness::make(Op::Shr, Type::S32, {AluHarness::R(0)}, {AluHarness::R(1), AluHarness::R(2)});
  h.run(in);
  for (unsigned l = 0; l < kWarpSize; ++l) {
    unsigned n = l + 16 > 31 ? 31 : l + 16;
    uint32_t want = static_cast<uint32_t>(static_cast<int32_t>(0x80000001u) >> n);
    EXPECT_EQ(h.get(0, l), want) << "lane " << l;
  }
}

}  // namespace
}  // namespace warpsim::func::testing
