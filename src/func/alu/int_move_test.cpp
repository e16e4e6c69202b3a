// mov: registers, immediates, predicates, vector pack/unpack, and the sources left to the engine.
#include <gtest/gtest.h>

#include <cstdint>

#include "func/alu/int_test_support.h"

namespace warpsim::func::testing {
namespace {

using ir::Op;
using ir::Type;

TEST(Mov, RegisterToRegisterAllWidths) {
  EXPECT_EQ(evalUniform(Op::Mov, Type::U32, {0x89ABCDEFu}), 0x89ABCDEFu);
  EXPECT_EQ(evalUniform(Op::Mov, Type::B64, {0x0123456789ABCDEFull}), 0x0123456789ABCDEFull);
  EXPECT_EQ(evalUniform(Op::Mov, Type::U16, {0xBEEF}), 0xBEEFu);
  EXPECT_EQ(evalUniform(Op::Mov, Type::F32, {0x3F800000u}), 0x3F800000u);
  EXPECT_EQ(evalUniform(Op::Mov, Type::F64, {0x7FF8000000000001ull}), 0x7FF8000000000001ull);
  EXPECT_EQ(evalUniform(Op::Mov, Type::F16, {0x3C00}), 0x3C00u);
  EXPECT_EQ(evalUniform(Op::Mov, Type::F16x2, {0x3C00BC00u}), 0x3C00BC00u);
  EXPECT_EQ(evalUniform(Op::Mov, Type::BF16x2, {0x3F80BF80u}), 0x3F80BF80u);
}

TEST(Mov, MasksToNarrowerOfTypeAndRegister) {
  OpOptions o;
  o.dstBits = 64;
  o.srcBits = 64;
  // mov.u32 into a 64-bit register keeps only the low 32 bits.
  EXPECT_EQ(evalUniform(Op::Mov, Type::U32, {0xFFFFFFFF00000001ull}, o), 1u);
  // mov.b64 into a 32-bit register keeps the register's width.
  o.dstBits = 32;
  EXPECT_EQ(evalUniform(Op::Mov, Type::B64, {0xFFFFFFFF00000002ull}, o), 2u);
}

TEST(Mov, ImmediateAndMask) {
  AluHarness h;
  h.setAll(0, 7);
  ir::Instr in = AluHarness::make(Op::Mov, Type::S32, {AluHarness::R(0)}, {h.Imm(0xFFFFFFFFu)});
  h.run(in, 0x80000001u);
  EXPECT_EQ(h.get(0, 0), 0xFFFFFFFFu);
  EXPECT_EQ(h.get(0, 1), 7u);
  EXPECT_EQ(h.get(0, 31), 0xFFFFFFFFu);
}

TEST(Mov, PredicateFromPredicateAndImmediate) {
  AluHarness h;
  h.setPred(1, 0x12345678u);
  h.setPred(0, 0);
  ir::Instr in = AluHarness::make(Op::Mov, Type::Pred, {AluHarness::P(0)}, {AluHarness::P(1)});
  h.run(in, 0xFFFF0000u);
  EXPECT_EQ(h.pred(0), 0x12340000u);

  ir::Instr one = AluHarness::make(Op::Mov, Type::Pred, {AluHarness::P(2)}, {h.Imm(1)});
  h.run(one, 0x000000FFu);
  EXPECT_EQ(h.pred(2), 0x000000FFu);
  ir::Instr zero = AluHarness::make(Op::Mov, Type::Pred, {AluHarness::P(2)}, {h.Imm(0)});
  h.run(zero, 0x0000000Fu);
  EXPECT_EQ(h.pred(2), 0x000000F0u);
}

TEST(Mov, PackTwo32IntoB64) {
  AluHarness h;
  for (unsigned l = 0; l < kWarpSize; ++l) {
    h.setLane(1, l, 0x11111111u * (l % 15));
    h.setLane(2, l, 0xA0000000u + l);
  }
  ir::Instr in = AluHarness::make(Op::Mov, Type::B64, {AluHarness::R(0, 64)}, {AluHarness::V({1, 2}, 32)});
  h.run(in);
  for (unsigned l = 0; l < kWarpSize; ++l) {
    EXPECT_EQ(h.get(0, l), (uint64_t{0xA0000000u + l} << 32) | (0x11111111u * (l % 15))) << l;
  }
}

TEST(Mov, PackShapes) {
  AluHarness h;
  h.setAll(1, 0x1111);
  h.setAll(2, 0x2222);
  h.setAll(3, 0x3333);
  h.setAll(4, 0x4444);
  h.setAll(5, 0xAB);
  h.setAll(6, 0xCD);
  h.run(AluHarness::make(Op::Mov, Type::B32, {AluHarness::R(0)}, {AluHarness::V({1, 2}, 16)}));
  EXPECT_EQ(h.get(0), 0x22221111u);
  h.run(AluHarness::make(Op::Mov, Type::B64, {AluHarness::R(0, 64)}, {AluHarness::V({1, 2, 3, 4}, 16)}));
  EXPECT_EQ(h.get(0), 0x4444333322221111ull);
  h.run(AluHarness::make(Op::Mov, Type::B16, {AluHarness::R(0, 16)}, {AluHarness::V({5, 6}, 16)}));
  EXPECT_EQ(h.get(0), 0xCDABu);
  h.run(AluHarness::make(Op::Mov, Type::B32, {AluHarness::R(0)}, {AluHarness::V({5, 6, 5, 6}, 16)}));
  EXPECT_EQ(h.get(0), 0xCDABCDABu);
}

TEST(Mov, UnpackWithSink) {
  AluHarness h;
  h.setAll(0, 0x8877665544332211ull);
  h.setAll(1, 0xFFFF);
  h.setAll(2, 0xFFFF);
  h.setAll(3, 0xFFFF);
  h.setAll(4, 0xFFFF);
  h.run(AluHarness::make(Op::Mov, Type::B64, {AluHarness::V({1, ir::kNoReg, 3, 4}, 16)},
                         {AluHarness::R(0, 64)}));
  EXPECT_EQ(h.get(1), 0x2211u);
  EXPECT_EQ(h.get(2), 0xFFFFu);  // sink: untouched
  EXPECT_EQ(h.get(3), 0x6655u);
  EXPECT_EQ(h.get(4), 0x8877u);

  h.run(AluHarness::make(Op::Mov, Type::B64, {AluHarness::V({5, 6}, 32)}, {AluHarness::R(0, 64)}));
  EXPECT_EQ(h.get(5), 0x44332211u);
  EXPECT_EQ(h.get(6), 0x88776655u);

  h.setAll(7, 0xBEEF1234u);
  h.run(AluHarness::make(Op::Mov, Type::B32, {AluHarness::V({8, 9}, 16)}, {AluHarness::R(7)}),
        0x2u);
  EXPECT_EQ(h.get(8, 1), 0x1234u);
  EXPECT_EQ(h.get(9, 1), 0xBEEFu);
  EXPECT_EQ(h.get(8, 0), 0u);  // outside the mask
}

TEST(Mov, UnpackMayReuseSourceAsLastElement) {
  AluHarness h;
  h.setAll(0, 0x0000000200000001ull);
  h.run(AluHarness::make(Op::Mov, Type::B64, {AluHarness::V({1, 0}, 64)}, {AluHarness::R(0, 64)}));
  EXPECT_EQ(h.get(1), 1u);
  EXPECT_EQ(h.get(0), 2u);
}

TEST(Mov, EngineSourcesAreNotClaimed) {
  ir::Operand special;
  special.kind = ir::OperandKind::Special;
  special.sreg = ir::SpecialReg::Tid;
  ir::Operand symbol;
  symbol.kind = ir::OperandKind::Symbol;
  for (const ir::Operand& src : {special, symbol}) {
    ir::Instr in = AluHarness::make(Op::Mov, Type::U32, {AluHarness::R(0)}, {src});
    std::string err = "x";
    EXPECT_EQ(bindIntAlu(in, &err), nullptr);
    EXPECT_EQ(err, "");
  }
}

TEST(Mov, RejectsBadShapes) {
  std::string err;
  // pred <- value register
  ir::Instr a = AluHarness::make(Op::Mov, Type::Pred, {AluHarness::P(0)}, {AluHarness::R(1)});
  EXPECT_EQ(bindIntAlu(a, &err), nullptr);
  EXPECT_NE(err, "");
  // pack of 3 elements
  ir::Instr b = AluHarness::make(Op::Mov, Type::B64, {AluHarness::R(0, 64)}, {AluHarness::V({1, 2, 3})});
  EXPECT_EQ(bindIntAlu(b, &err), nullptr);
  EXPECT_NE(err, "");
  // unpack whose first element overwrites the source before the second is read
  ir::Instr c = AluHarness::make(Op::Mov, Type::B64, {AluHarness::V({0, 1}, 32)}, {AluHarness::R(0, 64)});
  EXPECT_EQ(bindIntAlu(c, &err), nullptr);
  EXPECT_NE(err, "");
  // 128-bit move has no register to hold it
  ir::Instr d = AluHarness::make(Op::Mov, Type::B128, {AluHarness::R(0, 64)}, {AluHarness::R(1, 64)});
  EXPECT_EQ(bindIntAlu(d, &err), nullptr);
  EXPECT_NE(err, "");
}

TEST(Sink, ScalarSinkDestinationDoesNothing) {
  AluHarness h;
  ir::Operand sink;
  sink.kind = ir::OperandKind::Sink;
  ir::Instr in = AluHarness::make(Op::Add, Type::U32, {sink}, {AluHarness::R(1), AluHarness::R(2)});
  h.setAll(1, 1);
  h.run(in);
  EXPECT_EQ(h.get(1), 1u);
}

}  // namespace
}  // namespace warpsim::func::testing
