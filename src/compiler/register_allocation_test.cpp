// Hand-made kernels: the allocation's exact shape (registers, spill code) and that the
// allocated program computes what the virtual one does.
#include "compiler/register_allocation.h"

#include <gtest/gtest.h>

#include "compiler/testing/module_runner.h"

namespace warpsim::compiler {
namespace {

using testing::kHeader;
using testing::runOutIn;

size_t countOf(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

// A kernel k(out, in) with the usual prologue: %rd1 = out + 4*tid, %rd2 = in + 4*tid, %r1 = tid.
std::string kernel(const std::string& regs, const std::string& body, const std::string& extra = "") {
  return std::string(kHeader) + extra +
         ".visible .entry k(.param .u64 k_out, .param .u64 k_in)\n{\n" + regs +
         "\n"
         "ld.param.u64 %rd10, [k_out];\n"
         "ld.param.u64 %rd11, [k_in];\n"
         "cvta.to.global.u64 %rd12, %rd10;\n"
         "cvta.to.global.u64 %rd13, %rd11;\n"
         "mov.u32 %r1, %tid.x;\n"
         "mul.wide.u32 %rd14, %r1, 4;\n"
         "add.s64 %rd1, %rd12, %rd14;\n"
         "add.s64 %rd2, %rd13, %rd14;\n" +
         body + "\nret;\n}\n";
}

const char* kRegs = ".reg .pred %p<16>; .reg .b32 %r<64>; .reg .b64 %rd<32>;";

TEST(RegisterAllocation, DiamondValuesOnBothArmsGetDistinctRegisters) {
  const std::string ptx = kernel(".reg .pred %p<4>; .reg .b32 %r<8>; .reg .b64 %rd<16>;",
                                 "ld.global.u32 %r2, [%rd2];\n"
                                 "setp.lt.u32 %p1, %r1, 16;\n"
                                 "@%p1 bra THEN;\n"
                                 "add.s32 %r3, %r2, 5;\n"
                                 "st.global.u32 [%rd1], %r3;\n"
                                 "bra JOIN;\n"
                                 "THEN:\n"
                                 "mul.lo.s32 %r4, %r2, 3;\n"
                                 "st.global.u32 [%rd1], %r4;\n"
                                 "JOIN:\n"
                                 "st.global.u32 [%rd1+128], %r2;\n");
  std::string text;
  const auto allocated = runOutIn(ptx, RegisterBudget::limit(8), 32, 64, 256, &text);
  EXPECT_EQ(allocated, runOutIn(ptx, RegisterBudget::off(), 32, 64));
  SCOPED_TRACE(text);
  // %rd1 (live everywhere) and %r2 (live on both arms) differ; %r3 and %r4 live on exclusive
  // arms share the lowest register free there.
  EXPECT_NE(text.find("ld.global.u32 %R1, [%RD2];"), std::string::npos);
  EXPECT_NE(text.find("add.s32 %R0, %R1, 5;"), std::string::npos);
  EXPECT_NE(text.find("mul.lo.s32 %R0, %R1, 3;"), std::string::npos);
  EXPECT_NE(text.find("st.global.u32 [%RD4+128], %R1;"), std::string::npos);
}

// Sum of in[tid + 32*i] * i over 12 iterations, with 6 more values live across the loop.
const std::string kLoop = kernel(kRegs,
                                 "ld.global.u32 %r10, [%rd2];\n"
                                 "add.s32 %r11, %r10, 1; add.s32 %r12, %r10, 2; add.s32 %r13, %r10, 3;\n"
                                 "xor.b32 %r14, %r10, 77; mul.lo.s32 %r15, %r10, 5; mov.u32 %r16, 12345;\n"
                                 "mov.u32 %r2, 0; mov.u32 %r3, 0; mov.u64 %rd3, %rd2;\n"
                                 "LOOP:\n"
                                 "ld.global.u32 %r4, [%rd3];\n"
                                 "mad.lo.s32 %r2, %r4, %r3, %r2;\n"
                                 "add.s64 %rd3, %rd3, 128;\n"
                                 "add.s32 %r3, %r3, 1;\n"
                                 "setp.lt.u32 %p1, %r3, 12;\n"
                                 "@%p1 bra LOOP;\n"
                                 "add.s32 %r2, %r2, %r11; add.s32 %r2, %r2, %r12; add.s32 %r2, %r2, %r13;\n"
                                 "add.s32 %r2, %r2, %r14; add.s32 %r2, %r2, %r15; add.s32 %r2, %r2, %r16;\n"
                                 "st.global.u32 [%rd1], %r2;\n");

TEST(RegisterAllocation, LoopCarriedAccumulatorKeepsItsValue) {
  const auto expected = runOutIn(kLoop, RegisterBudget::off(), 32, 32, 512);
  std::string text;
  EXPECT_EQ(runOutIn(kLoop, RegisterBudget::minimal(), 32, 32, 512, &text), expected);
  EXPECT_EQ(countOf(text, " spill\n"), 0u) << text;
  for (uint32_t budget : {16u, 8u, 5u, 4u}) {
    testing::ModuleRunner run(kLoop, RegisterBudget::limit(budget));
    EXPECT_LE(run.stats("k").registers, budget);
    EXPECT_EQ(runOutIn(kLoop, RegisterBudget::limit(budget), 32, 32, 512, &text), expected) << text;
  }
  testing::ModuleRunner tight(kLoop, RegisterBudget::limit(4));
  EXPECT_GT(tight.stats("k").spillLoads, 0u);
  EXPECT_GT(tight.stats("k").rounds, 1u);
  EXPECT_EQ(tight.function("k").localBytes, tight.stats("k").spillBase + tight.stats("k").spillBytes);
}

TEST(RegisterAllocation, RematerialisesConstantsInsteadOfSpilling) {
  testing::ModuleRunner run(kLoop, RegisterBudget::limit(5));
  const std::string text = run.text("k");
  // 12345 has one def (a mov of an immediate) and one use: recomputed right before it.
  EXPECT_GE(run.stats("k").rematerialised, 1u) << text;
  EXPECT_NE(text.find(", 12345;  // line 28 remat"), std::string::npos) << text;
  EXPECT_EQ(countOf(text, "12345"), 1u) << text;
}

TEST(RegisterAllocation, SavesValuesLiveAcrossCalls) {
  const std::string callee =
      ".func (.param .b32 func_retval0) twice(.param .b32 twice_param_0)\n{\n.reg .b32 %r<3>;\n"
      "ld.param.u32 %r1, [twice_param_0];\nshl.b32 %r2, %r1, 1;\nst.param.b32 [func_retval0], %r2;\nret;\n}\n";
  const std::string ptx = kernel(kRegs,
                                 "ld.global.u32 %r2, [%rd2];\n"
                                 "{\n.param .b32 param0;\nst.param.b32 [param0], %r2;\n.param .b32 retval0;\n"
                                 "call.uni (retval0), twice, (param0);\nld.param.b32 %r3, [retval0];\n}\n"
                                 "add.s32 %r4, %r3, %r2;\n"
                                 "add.s32 %r4, %r4, %r1;\n"
                                 "st.global.u32 [%rd1], %r4;\n",
                                 callee);
  std::string text;
  const auto expected = runOutIn(ptx, RegisterBudget::off(), 32, 32);
  EXPECT_EQ(runOutIn(ptx, RegisterBudget::minimal(), 32, 32, 256, &text), expected);
  testing::ModuleRunner run(ptx, RegisterBudget::minimal());
  // Live across the call: %rd1 (out + 4 tid), %r2 and %r1.
  EXPECT_EQ(run.stats("k").callSaves, 3u) << text;
  const size_t call = text.find("call twice");
  ASSERT_NE(call, std::string::npos) << text;
  const size_t before = text.rfind("\n", text.rfind("\n", call) - 1);
  EXPECT_NE(text.substr(before, call - before).find("st.local"), std::string::npos) << text;
  EXPECT_EQ(text.substr(call, text.find("\n", text.find("\n", call) + 1) - call).find("ld.local") != std::string::npos, true)
      << text;
  EXPECT_EQ(runOutIn(ptx, RegisterBudget::limit(4), 32, 32), expected);
}

TEST(RegisterAllocation, SixtyFourBitValuesTakeAlignedPairs) {
  const std::string ptx = kernel(kRegs,
                                 "ld.global.u32 %r2, [%rd2];\n"
                                 "cvt.u64.u32 %rd3, %r2;\n"
                                 "add.s32 %r3, %r2, 7;\n"
                                 "mul.lo.s64 %rd4, %rd3, 3;\n"
                                 "add.s32 %r5, %r3, %r2;\n"
                                 "xor.b64 %rd5, %rd4, %rd3;\n"
                                 "cvt.u32.u64 %r6, %rd5;\n"
                                 "add.s32 %r6, %r6, %r5;\n"
                                 "add.s32 %r6, %r6, %r3;\n"
                                 "st.global.u32 [%rd1], %r6;\n");
  const auto expected = runOutIn(ptx, RegisterBudget::off(), 32, 32);
  for (RegisterBudget b : {RegisterBudget::minimal(), RegisterBudget::limit(7), RegisterBudget::limit(5)}) {
    std::string text;
    EXPECT_EQ(runOutIn(ptx, b, 32, 32, 256, &text), expected) << text;
    for (size_t p = text.find("%RD"); p != std::string::npos; p = text.find("%RD", p + 1))
      EXPECT_EQ(std::stoi(text.substr(p + 3)) % 2, 0) << text;
  }
}

TEST(RegisterAllocation, SpillsPredicatesThroughValueRegisters) {
  std::string body = "ld.global.u32 %r2, [%rd2];\n";
  for (int i = 1; i <= 9; ++i)
    body += "setp.gt.u32 %p" + std::to_string(i) + ", %r2, " + std::to_string(i * 400000000u) + ";\n";
  body += "mov.u32 %r3, 0;\n";
  for (int i = 1; i <= 9; ++i)
    body += "selp.b32 %r4, " + std::to_string(1 << i) + ", 0, %p" + std::to_string(i) + ";\nadd.s32 %r3, %r3, %r4;\n";
  body += "st.global.u32 [%rd1], %r3;\n";
  const std::string ptx = kernel(kRegs, body);
  std::string text;
  const auto expected = runOutIn(ptx, RegisterBudget::off(), 32, 32);
  EXPECT_EQ(runOutIn(ptx, RegisterBudget::minimal(), 32, 32, 256, &text), expected) << text;
  testing::ModuleRunner run(ptx, RegisterBudget::minimal());
  EXPECT_LE(run.stats("k").predicates, 7u);
  EXPECT_GE(countOf(text, "selp.u32"), 2u) << text;
  EXPECT_GE(countOf(text, "setp.ne.u32"), 2u) << text;
  EXPECT_NE(text.find("st.local.b32"), std::string::npos) << text;
  EXPECT_EQ(runOutIn(ptx, RegisterBudget::limit(6), 32, 32), expected);
}

TEST(RegisterAllocation, CoalescingRemovesAMove) {
  const std::string ptx = kernel(kRegs,
                                 "ld.global.u32 %r2, [%rd2];\n"
                                 "mov.u32 %r3, %r2;\n"
                                 "add.s32 %r4, %r3, 1;\n"
                                 "st.global.u32 [%rd1], %r4;\n");
  testing::ModuleRunner run(ptx, RegisterBudget::minimal());
  const std::string text = run.text("k");
  EXPECT_EQ(run.stats("k").coalescedMoves, 1u);
  EXPECT_EQ(countOf(text, "mov.u32"), 1u) << text;  // only the %tid.x one is left
  EXPECT_NE(text.find("ld.global.u32 %R0, [%RD0];"), std::string::npos) << text;
  EXPECT_NE(text.find("add.s32 %R0, %R0, 1;"), std::string::npos) << text;
  EXPECT_EQ(runOutIn(ptx, RegisterBudget::minimal(), 32, 32), runOutIn(ptx, RegisterBudget::off(), 32, 32));
}

TEST(RegisterAllocation, BudgetBelowFeasibleMinimumIsAnError) {
  const std::string ptx = kernel(kRegs, "ld.global.u32 %r2, [%rd2];\nst.global.u32 [%rd1], %r2;\n");
  ir::Module m = ptx::parseModule(ptx, "test.ptx");
  try {
    allocateRegisters(m, RegisterBudget::limit(3));
    FAIL() << "no error";
  } catch (const AllocationError& e) {
    EXPECT_STREQ(e.what(),
                 "test.ptx: kernel 'k': a budget of 3 registers cannot hold the operands of the instruction at "
                 "line 14 (it needs 4); the smallest feasible budget is 4");
    EXPECT_EQ(e.feasibleMinimum(), 4u);
  }
  ir::Module ok = ptx::parseModule(ptx, "test.ptx");
  EXPECT_EQ(allocateRegisters(ok, RegisterBudget::limit(4)).functions[0].feasibleMinimum, 4u);
}

TEST(RegisterAllocation, MinimalModeUsesTheChromaticNumberWithoutSpills) {
  // After mul.wide: out, in (pairs) and %rd14 (a pair) are live at once: 6 registers, and 6
  // suffice everywhere.
  const std::string ptx = kernel(kRegs,
                                 "ld.global.u32 %r2, [%rd2];\n"
                                 "add.s32 %r4, %r2, 1;\n"
                                 "st.global.u32 [%rd1], %r4;\n");
  testing::ModuleRunner run(ptx, RegisterBudget::minimal());
  EXPECT_EQ(run.stats("k").registers, 6u);
  EXPECT_EQ(run.stats("k").spillLoads + run.stats("k").spillStores + run.stats("k").rematerialised, 0u);
  EXPECT_EQ(run.function("k").regs.size(), 6u + run.function("k").constRegs.size());
  testing::ModuleRunner five(ptx, RegisterBudget::limit(5));
  EXPECT_GT(five.stats("k").spillStores + five.stats("k").rematerialised, 0u);
}

TEST(RegisterAllocation, IsDeterministic) {
  for (RegisterBudget b : {RegisterBudget::minimal(), RegisterBudget::limit(4)}) {
    testing::ModuleRunner a(kLoop, b), c(kLoop, b);
    EXPECT_EQ(a.text("k"), c.text("k"));
  }
}

TEST(RegisterAllocation, OffLeavesTheModuleAlone) {
  testing::ModuleRunner run(kLoop, RegisterBudget::off());
  EXPECT_FALSE(run.stats("k").allocated);
  EXPECT_EQ(run.function("k").regs[run.function("k").regs.size() - 1].name, "");
}

TEST(RegisterBudgetText, ParsesAndPrints) {
  EXPECT_EQ(parseRegisterBudget("off").mode, RegisterBudget::Mode::Off);
  EXPECT_EQ(parseRegisterBudget("minimal").mode, RegisterBudget::Mode::Minimal);
  EXPECT_EQ(parseRegisterBudget("32").registers, 32u);
  EXPECT_EQ(toString(parseRegisterBudget("255")), "255");
  EXPECT_EQ(toString(RegisterBudget::minimal()), "minimal");
  EXPECT_EQ(toString(RegisterBudget::off()), "off");
  for (const char* bad : {"abc", "0", "256", "", "12x", "-1"}) EXPECT_THROW(parseRegisterBudget(bad), std::invalid_argument);
  try {
    parseRegisterBudget("abc");
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "--max-registers: 'abc' is not a register budget (off, minimal or 1..255)");
  }
}

}  // namespace
}  // namespace warpsim::compiler
