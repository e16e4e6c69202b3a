// ir::analyze on hand-built functions: blocks, edges, post-dominators, reconvergence points.
#include <gtest/gtest.h>

#include "ir/liveness.h"
#include "ir/module.h"

namespace warpsim::ir {
namespace {

// A tiny assembler for control-flow shapes: every instruction is an add, a guarded bra, or a
// terminator; registers are not important here.
struct Builder {
  Function f;
  Builder() { f.regs.resize(8); }
  static Operand reg(uint32_t r) {
    Operand o;
    o.kind = OperandKind::Reg;
    o.reg = r;
    o.regBits = 32;
    return o;
  }
  uint32_t add(uint32_t d = 0, uint32_t a = 1, uint32_t b = 2) {
    Instr in;
    in.op = Op::Add;
    in.type = Type::S32;
    in.numDst = 1;
    in.numSrc = 2;
    in.ops[0] = reg(d);
    in.ops[1] = reg(a);
    in.ops[2] = reg(b);
    return push(in);
  }
  uint32_t bra(uint32_t target, bool conditional) {
    Instr in;
    in.op = Op::Bra;
    in.target = target;
    if (conditional) in.guard = 0;
    return push(in);
  }
  uint32_t op(Op o, bool conditional = false) {
    Instr in;
    in.op = o;
    if (conditional) in.guard = 0;
    return push(in);
  }
  uint32_t push(const Instr& in) {
    f.code.push_back(in);
    return static_cast<uint32_t>(f.code.size() - 1);
  }
  Function& done() {
    analyzeFunction(f);
    return f;
  }
};

TEST(Cfg, IfElseDiamondReconvergesAtJoin) {
  Builder b;
  b.add();              // 0  B0
  b.bra(5, true);       // 1  B0: @p bra ELSE
  b.add();              // 2  B1 (then)
  b.add();              // 3  B1
  b.bra(6, false);      // 4  B1: bra JOIN
  b.add();              // 5  B2 (else)
  b.add();              // 6  B3 (join)
  b.op(Op::Exit);       // 7  B3
  Function& f = b.done();
  ASSERT_EQ(f.blocks.size(), 4u);
  EXPECT_EQ(f.blocks[0].first, 0u);
  EXPECT_EQ(f.blocks[0].last, 1u);
  EXPECT_EQ(f.blocks[1].first, 2u);
  EXPECT_EQ(f.blocks[2].first, 5u);
  EXPECT_EQ(f.blocks[3].first, 6u);
  EXPECT_EQ(f.blocks[0].succs, (std::vector<uint32_t>{2, 1}));
  EXPECT_EQ(f.blocks[3].preds, (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(f.blocks[0].ipdom, 3u);
  EXPECT_EQ(f.blocks[1].ipdom, 3u);
  EXPECT_EQ(f.blocks[2].ipdom, 3u);
  EXPECT_EQ(f.blocks[3].ipdom, kNoTarget);
  EXPECT_EQ(f.reconvergePc[1], 6u);
  EXPECT_EQ(f.reconvergePc[0], 6u);
  EXPECT_EQ(f.reconvergePc[7], kNoTarget);
  EXPECT_EQ(f.blockOf, (std::vector<uint32_t>{0, 0, 1, 1, 1, 2, 3, 3}));
}

TEST(Cfg, LoopBreakReconvergesAfterTheLoop) {
  Builder b;
  b.add();              // 0  B0
  b.add();              // 1  B1 loop head
  b.bra(5, true);       // 2  B1: @p bra OUT (break)
  b.add();              // 3  B2
  b.bra(1, true);       // 4  B2: @p bra HEAD
  b.add();              // 5  B3 out
  b.op(Op::Ret);        // 6  B3
  Function& f = b.done();
  ASSERT_EQ(f.blocks.size(), 4u);
  EXPECT_EQ(f.reconvergePc[2], 5u);  // break
  EXPECT_EQ(f.reconvergePc[4], 5u);  // back edge
  EXPECT_EQ(f.blocks[2].succs, (std::vector<uint32_t>{1, 3}));
}

TEST(Cfg, GuardedExitFallsThroughAndLeaves) {
  Builder b;
  b.add();               // 0 B0
  b.op(Op::Exit, true);  // 1 B0: @p exit
  b.add();               // 2 B1
  b.op(Op::Ret);         // 3 B1
  Function& f = b.done();
  ASSERT_EQ(f.blocks.size(), 2u);
  EXPECT_EQ(f.blocks[0].succs, (std::vector<uint32_t>{1}));
  // Exiting lanes vanish: the lanes that stay reconverge at the fall-through.
  EXPECT_EQ(f.blocks[0].ipdom, 1u);
  EXPECT_EQ(f.reconvergePc[1], 2u);
}

TEST(Cfg, BranchAroundAnExitReconvergesWhereTheSurvivorsMeet) {
  Builder b;
  b.bra(4, true);        // 0 B0: @p bra SKIP
  b.add();               // 1 B1
  b.bra(4, true);        // 2 B1: @q bra SKIP
  b.op(Op::Exit);        // 3 B2: exit (a dead end)
  b.add();               // 4 B3: SKIP
  b.op(Op::Ret);         // 5 B3
  Function& f = b.done();
  ASSERT_EQ(f.blocks.size(), 4u);
  EXPECT_EQ(f.reconvergePc[0], 4u);  // not the function exit, despite the exit in between
  EXPECT_EQ(f.blocks[2].ipdom, kNoTarget);
}

TEST(Cfg, KernelEndingOnlyInExitStillReconverges) {
  Builder b;
  b.bra(3, true);   // 0 B0
  b.add();          // 1 B1
  b.bra(4, false);  // 2 B1
  b.add();          // 3 B2
  b.add();          // 4 B3 join
  b.op(Op::Exit);   // 5 B3
  Function& f = b.done();
  ASSERT_EQ(f.blocks.size(), 4u);
  EXPECT_EQ(f.reconvergePc[0], 4u);
  EXPECT_EQ(f.blocks[3].ipdom, kNoTarget);
}

TEST(Cfg, CallDoesNotEndABlockButBranchTargetsDo) {
  Builder b;
  b.add();               // 0
  b.op(Op::Call);        // 1
  b.add();               // 2
  b.bra(2, true);        // 3 loop to 2
  b.op(Op::Trap);        // 4
  Function& f = b.done();
  ASSERT_EQ(f.blocks.size(), 3u);
  EXPECT_EQ(f.blocks[0].first, 0u);
  EXPECT_EQ(f.blocks[0].last, 1u);
  EXPECT_EQ(f.blocks[1].first, 2u);
  EXPECT_EQ(f.blocks[1].last, 3u);
  EXPECT_EQ(f.blocks[0].succs, (std::vector<uint32_t>{1}));
  EXPECT_EQ(f.blocks[1].succs, (std::vector<uint32_t>{1, 2}));
  EXPECT_TRUE(f.blocks[2].succs.empty());  // trap leaves the function
}

TEST(Cfg, InfiniteLoopStillReconvergesInsideTheLoop) {
  Builder b;
  b.add();               // 0 B0
  b.add();               // 1 B1 loop head
  b.bra(4, true);        // 2 B1: @p bra ELSE
  b.bra(5, false);       // 3 B2: bra JOIN
  b.add();               // 4 B3 else
  b.add();               // 5 B4 join
  b.bra(1, false);       // 6 B4: back edge, no way out
  Function& f = b.done();
  ASSERT_EQ(f.blocks.size(), 5u);
  EXPECT_EQ(f.reconvergePc[2], 5u);
  EXPECT_EQ(f.blocks[4].ipdom, kNoTarget);
}

TEST(Cfg, UnreachableCodeAndFallOffTheEnd) {
  Builder b;
  b.bra(2, false);  // 0 B0
  b.add();          // 1 B1 unreachable
  b.add();          // 2 B2, falls off the end
  Function& f = b.done();
  ASSERT_EQ(f.blocks.size(), 3u);
  EXPECT_EQ(f.blocks[0].ipdom, 2u);
  EXPECT_EQ(f.blocks[1].ipdom, 2u);
  EXPECT_EQ(f.blocks[2].ipdom, kNoTarget);
  EXPECT_TRUE(f.blocks[1].preds.empty());
}

TEST(Cfg, NestedIfInsideLoopWithContinue) {
  Builder b;
  b.add();          // 0 B0
  b.add();          // 1 B1 head
  b.bra(6, true);   // 2 B1 @p bra LATCH (continue)
  b.add();          // 3 B2
  b.bra(5, true);   // 4 B2 @p bra SKIP
  b.add();          // 5?? -> B3: leader (target) actually index 5 is a target
  b.add();          // 6 B4 latch
  b.bra(1, true);   // 7 B4
  b.op(Op::Exit);   // 8 B5
  Function& f = b.done();
  // Blocks: [0] [1,2] [3,4] [5] [6,7] [8]
  ASSERT_EQ(f.blocks.size(), 6u);
  EXPECT_EQ(f.reconvergePc[2], 6u);
  EXPECT_EQ(f.reconvergePc[4], 5u);
  EXPECT_EQ(f.reconvergePc[7], 8u);
}

TEST(Cfg, EmptyFunctionHasNoBlocks) {
  Module m;
  m.functions.emplace_back();
  m.functions[0].isExtern = true;
  analyze(m);
  EXPECT_TRUE(m.functions[0].blocks.empty());
  EXPECT_TRUE(m.functions[0].reconvergePc.empty());
}

}  // namespace
}  // namespace warpsim::ir
