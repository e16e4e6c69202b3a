// Liveness of value registers on hand-built functions.
#include <gtest/gtest.h>

#include "ir/liveness.h"
#include "ir/module.h"

namespace warpsim::ir {
namespace {

Operand reg(uint32_t r) {
  Operand o;
  o.kind = OperandKind::Reg;
  o.reg = r;
  o.regBits = 32;
  return o;
}
Operand imm(uint32_t constReg, int64_t v) {
  Operand o;
  o.kind = OperandKind::Imm;
  o.reg = constReg;
  o.imm = v;
  return o;
}
Instr add(Operand d, Operand a, Operand b) {
  Instr in;
  in.op = Op::Add;
  in.type = Type::S32;
  in.numDst = 1;
  in.numSrc = 2;
  in.ops[0] = d;
  in.ops[1] = a;
  in.ops[2] = b;
  return in;
}
bool liveIn(const Function& f, uint32_t block, uint32_t r) {
  return (f.liveIn[block][r / 64] >> (r % 64)) & 1;
}

TEST(Liveness, StraightLineCountsPeakAndIgnoresConstants) {
  Function f;
  f.regs.resize(6);
  f.constRegs.push_back({5, 7, kNoSymbol});
  f.code.push_back(add(reg(2), reg(0), imm(5, 7)));  // r2 = r0 + 7
  f.code.push_back(add(reg(3), reg(1), reg(2)));     // r3 = r1 + r2   (r0 dead, r1, r2 live)
  f.code.push_back(add(reg(4), reg(3), reg(0)));     // r0 used again: r0 live throughout
  Instr ret;
  ret.op = Op::Ret;
  f.code.push_back(ret);
  analyzeFunction(f);
  ASSERT_EQ(f.blocks.size(), 1u);
  EXPECT_TRUE(liveIn(f, 0, 0));
  EXPECT_TRUE(liveIn(f, 0, 1));
  EXPECT_FALSE(liveIn(f, 0, 2));
  EXPECT_FALSE(liveIn(f, 0, 5));  // constant register never tracked
  // After instr 0: r0 r1 r2 live = 3; after instr 1: r0 r3 = 2 ; dead def r4 = 1.
  EXPECT_EQ(f.maxLiveRegs, 3u);
}

TEST(Liveness, LoopCarriedRegisterIsLiveAtHeadAndGuardedDefDoesNotKill) {
  Function f;
  f.regs.resize(4);
  f.code.push_back(add(reg(1), reg(0), reg(0)));  // 0 B0: r1 = r0 + r0
  f.code.push_back(add(reg(1), reg(1), reg(1)));  // 1 B1 head: r1 = r1 + r1 (loop carried)
  Instr g = add(reg(2), reg(1), reg(1));          // 2 B1: @p r2 = ...  (guarded: no kill)
  g.guard = 0;
  f.code.push_back(g);
  Instr bra;
  bra.op = Op::Bra;
  bra.guard = 0;
  bra.target = 1;
  f.code.push_back(bra);                           // 3 B1
  f.code.push_back(add(reg(3), reg(2), reg(2)));  // 4 B2: reads r2
  Instr ex;
  ex.op = Op::Exit;
  f.code.push_back(ex);                            // 5
  analyzeFunction(f);
  ASSERT_EQ(f.blocks.size(), 3u);
  EXPECT_TRUE(liveIn(f, 0, 0));
  EXPECT_FALSE(liveIn(f, 0, 1));
  EXPECT_TRUE(liveIn(f, 1, 1));
  EXPECT_TRUE(liveIn(f, 1, 2));   // guarded def may not happen, so r2 flows in from outside
  EXPECT_TRUE(liveIn(f, 0, 2));
  EXPECT_TRUE(liveIn(f, 2, 2));
  EXPECT_FALSE(liveIn(f, 2, 1));
}

TEST(Liveness, VectorAndAddressOperandsAreUses) {
  Instr st;
  st.op = Op::St;
  st.numSrc = 2;
  st.ops[0].kind = OperandKind::Address;
  st.ops[0].reg = 7;
  st.ops[1].kind = OperandKind::Vector;
  st.ops[1].count = 4;
  st.ops[1].vec[0] = 1;
  st.ops[1].vec[1] = 2;
  st.ops[1].vec[2] = kNoReg;
  st.ops[1].vec[3] = 4;
  RegUses u = regUses(st);
  EXPECT_EQ(u.numDefs, 0u);
  ASSERT_EQ(u.numUses, 4u);
  EXPECT_EQ(u.uses[0], 7u);
  EXPECT_EQ(u.uses[3], 4u);

  Instr ld;
  ld.op = Op::Ld;
  ld.numDst = 1;
  ld.numSrc = 1;
  ld.ops[0].kind = OperandKind::Vector;
  ld.ops[0].count = 2;
  ld.ops[0].vec[0] = 3;
  ld.ops[0].vec[1] = kNoReg;
  ld.ops[1].kind = OperandKind::Address;
  ld.ops[1].reg = kNoReg;
  u = regUses(ld);
  ASSERT_EQ(u.numDefs, 1u);
  EXPECT_EQ(u.defs[0], 3u);
  EXPECT_EQ(u.numUses, 0u);
}

}  // namespace
}  // namespace warpsim::ir
