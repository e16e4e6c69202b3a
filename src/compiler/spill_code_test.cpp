// Synthesized spill loads and stores have exactly the form the parser gives ld/st.local.
#include "compiler/spill_code.h"

#include <gtest/gtest.h>

#include "ptx/parser.h"

namespace warpsim::compiler {
namespace {

void expectSameForm(const ir::Instr& a, const ir::Instr& b) {
  EXPECT_EQ(a.op, b.op);
  EXPECT_EQ(a.type, b.type);
  EXPECT_EQ(a.space, b.space);
  EXPECT_EQ(a.vec, b.vec);
  EXPECT_EQ(a.numDst, b.numDst);
  EXPECT_EQ(a.numSrc, b.numSrc);
  EXPECT_EQ(a.guard, b.guard);
  for (unsigned k = 0; k < a.numDst + a.numSrc; ++k) {
    EXPECT_EQ(a.ops[k].kind, b.ops[k].kind) << k;
    EXPECT_EQ(a.ops[k].base, b.ops[k].base) << k;
    EXPECT_EQ(a.ops[k].reg, b.ops[k].reg) << k;
    EXPECT_EQ(a.ops[k].imm, b.ops[k].imm) << k;
    EXPECT_EQ(a.ops[k].regBits, b.ops[k].regBits) << k;
  }
}

TEST(SpillCode, LoadsAndStoresLookParsed) {
  const ir::Module m = ptx::parseModule(
      ".version 8.0\n.target sm_80\n.address_size 64\n"
      ".visible .entry k()\n{\n.local .align 8 .b8 __local_depot0[32];\n.reg .b32 %r<2>; .reg .b64 %rd<2>;\n"
      "ld.local.b32 %r1, [__local_depot0+8];\nst.local.b32 [__local_depot0+12], %r1;\n"
      "ld.local.b64 %rd1, [__local_depot0+16];\nst.local.b64 [__local_depot0+24], %rd1;\nret;\n}\n",
      "t.ptx");
  const ir::Function& f = m.functions[0];
  const uint32_t r1 = 1, rd1 = 3;
  ASSERT_EQ(f.regs[r1].name, "%r1");
  ASSERT_EQ(f.regs[rd1].name, "%rd1");
  expectSameForm(spillLoad(r1, 32, 8, f.code[0]), f.code[0]);
  expectSameForm(spillStore(r1, 32, 12, f.code[1]), f.code[1]);
  expectSameForm(spillLoad(rd1, 64, 16, f.code[2]), f.code[2]);
  expectSameForm(spillStore(rd1, 64, 24, f.code[3]), f.code[3]);
  EXPECT_TRUE(spillLoad(r1, 32, 8, f.code[0]).has(ir::kSpill));
  EXPECT_EQ(spillLoad(r1, 32, 8, f.code[2]).line, f.code[2].line);
}

TEST(SpillCode, SlotsAreNaturallyAligned) {
  SpillArea area;
  EXPECT_EQ(area.newSlot(4), 0u);
  EXPECT_EQ(area.newSlot(8), 8u);
  EXPECT_EQ(area.newSlot(4), 16u);
  EXPECT_EQ(area.newSlot(16), 32u);
  EXPECT_EQ(area.bytes(), 48u);
  EXPECT_EQ(area.slots(), 4u);
  EXPECT_EQ(area.alignment(), 16u);
}

}  // namespace
}  // namespace warpsim::compiler
