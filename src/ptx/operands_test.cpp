// Operand forms: registers, immediates and constant registers, special registers, addresses,
// symbols, vectors, predicates, sinks, guards, labels, .loc.
#include <gtest/gtest.h>

#include "ptx/test_util.h"

namespace warpsim::ptx {
namespace {

using ir::AddrBase;
using ir::OperandKind;
using testing::F;
using testing::FD;
using testing::parseKernel;
using testing::parseOne;
using testing::R;
using testing::RD;
using testing::RS;

const ir::Function& kernel(const ir::Module& m) { return m.functions.at(m.findFunction("k")); }

TEST(Operands, RegistersCarryTheirDeclaredWidth) {
  ir::Instr in = parseOne("add.s32 %r1, %r2, %r3;");
  EXPECT_EQ(in.dst().kind, OperandKind::Reg);
  EXPECT_EQ(in.dst().reg, R(1));
  EXPECT_EQ(in.dst().regBits, 32);
  EXPECT_EQ(in.src(0).reg, R(2));
  EXPECT_EQ(in.src(1).reg, R(3));
  ir::Instr w = parseOne("mul.wide.u16 %r1, %rs2, %rs3;");
  EXPECT_EQ(w.dst().regBits, 32);
  EXPECT_EQ(w.src(0).regBits, 16);
  EXPECT_EQ(w.src(0).reg, RS(2));
}

TEST(Operands, RegisterTableNamesAndTypes) {
  ir::Module m = parseKernel("ret;");
  const auto& f = kernel(m);
  EXPECT_EQ(f.regs[R(3)].name, "%r3");
  EXPECT_EQ(f.regs[R(3)].type, ir::Type::B32);
  EXPECT_EQ(f.regs[F(2)].type, ir::Type::F32);
  EXPECT_EQ(f.regs[RD(7)].bits, 64);
  EXPECT_EQ(f.regs[RS(0)].bits, 16);
  EXPECT_EQ(f.preds.size(), 4u);
  EXPECT_EQ(f.preds[2], "%p2");
  EXPECT_EQ(f.regs.size(), 44u);  // no constants needed by "ret"
}

struct ImmCase {
  const char* text;
  unsigned srcIndex;
  uint64_t bits;
};

class Immediates : public ::testing::TestWithParam<ImmCase> {};

TEST_P(Immediates, ConvertToOperandType) {
  const ImmCase& c = GetParam();
  ir::Module m = parseKernel(c.text);
  const auto& f = kernel(m);
  const ir::Instr& in = f.code[0];
  const ir::Operand& o = in.src(c.srcIndex);
  ASSERT_EQ(o.kind, OperandKind::Imm);
  EXPECT_EQ(static_cast<uint64_t>(o.imm), c.bits);
  ASSERT_NE(o.reg, ir::kNoReg);
  ASSERT_LT(o.reg, f.regs.size());
  EXPECT_EQ(f.regs[o.reg].name, "");
  ASSERT_EQ(f.constRegs.size(), 1u);
  EXPECT_EQ(f.constRegs[0].reg, o.reg);
  EXPECT_EQ(static_cast<uint64_t>(f.constRegs[0].value), c.bits);
  EXPECT_EQ(f.constRegs[0].symbol, ir::kNoSymbol);
}

const ImmCase kImms[] = {
    {"add.f32 %f1, %f2, 1.0;", 1, 0x3F800000u},
    {"add.f32 %f1, %f2, 0f3F800000;", 1, 0x3F800000u},
    {"add.f32 %f1, %f2, 2;", 1, 0x40000000u},
    {"add.f32 %f1, %f2, -0f3F800000;", 1, 0xBF800000u},
    {"add.f32 %f1, %f2, 0d3FF0000000000000;", 1, 0x3F800000u},
    {"add.f64 %fd1, %fd2, 0f3F800000;", 1, 0x3FF0000000000000ull},
    {"add.f64 %fd1, %fd2, -2;", 1, 0xC000000000000000ull},
    {"add.f64 %fd1, %fd2, 0.5;", 1, 0x3FE0000000000000ull},
    {"add.s32 %r1, %r2, -1;", 1, 0xFFFFFFFFu},
    {"add.s64 %rd1, %rd2, -1;", 1, 0xFFFFFFFFFFFFFFFFull},
    {"add.u16 %rs1, %rs2, 0x1FFFF;", 1, 0xFFFFu},
    {"mov.b32 %r1, 0f3F800000;", 0, 0x3F800000u},
    {"mov.b64 %rd1, 0dBFF0000000000000;", 0, 0xBFF0000000000000ull},
    {"add.rn.f16 %rs1, %rs2, 0f3F800000;", 1, 0x3C00u},
    {"mul.rn.bf16 %rs1, %rs2, 0f40000000;", 1, 0x4000u},
    {"add.f16 %rs1, %rs2, 1;", 1, 0x3C00u},
    {"shl.b64 %rd1, %rd2, 3;", 1, 3u},
    {"mad.wide.s32 %rd1, %r2, %r3, -1;", 2, 0xFFFFFFFFFFFFFFFFull},
    {"selp.b32 %r1, 7, %r2, %p1;", 0, 7u},
    {"setp.lt.f32 %p1, %f1, 0f00000000;", 1, 0u},
    {"lop3.b32 %r1, %r2, %r3, %r4, 0x96;", 3, 0x96u},
    {"cvt.rn.f32.s32 %f1, 5;", 0, 5u},
    {"st.global.u32 [%rd1], 9;", 1, 9u},
};

INSTANTIATE_TEST_SUITE_P(All, Immediates, ::testing::ValuesIn(kImms));

TEST(Operands, PredicateImmediatesInMov) {
  ir::Instr in = parseOne("mov.pred %p1, 1;");
  EXPECT_EQ(in.dst().kind, OperandKind::Pred);
  EXPECT_EQ(in.src(0).kind, OperandKind::Imm);
  EXPECT_EQ(in.src(0).imm, 1);
  EXPECT_EQ(in.src(0).regBits, 1);
  // nvcc writes true as -1 (mummer.ptx): the same immediate 1.
  ir::Instr allOnes = parseOne("mov.pred %p1, -1;");
  EXPECT_EQ(allOnes.src(0).kind, OperandKind::Imm);
  EXPECT_EQ(allOnes.src(0).imm, 1);
  EXPECT_EQ(allOnes.src(0).regBits, 1);
  EXPECT_EQ(testing::kernelError("mov.pred %p1, 2;"),
            "t.ptx:10: error: 'mov.pred' needs a predicate or 0/1 (or -1, true)");
  EXPECT_EQ(testing::kernelError("mov.pred %p1, -2;"),
            "t.ptx:10: error: 'mov.pred' needs a predicate or 0/1 (or -1, true)");
}

TEST(Operands, IdenticalImmediatesShareOneConstantRegister) {
  ir::Module m = parseKernel(
      "add.s32 %r1, %r2, 1;\n"
      "add.s64 %rd1, %rd2, 1;\n"
      "add.s32 %r1, %r2, 2;\n"
      "mov.f32 %f1, 0f3F800000;\n"
      "add.f32 %f1, %f2, 1.0;\n");
  const auto& f = kernel(m);
  EXPECT_EQ(f.code[0].src(1).reg, f.code[1].src(1).reg);
  EXPECT_NE(f.code[0].src(1).reg, f.code[2].src(1).reg);
  EXPECT_EQ(f.code[3].src(0).reg, f.code[4].src(1).reg);
  EXPECT_EQ(f.constRegs.size(), 3u);
  EXPECT_EQ(f.regs.size(), 44u + 3u);
}

TEST(Operands, SpecialRegisters) {
  struct {
    const char* text;
    ir::SpecialReg reg;
    uint8_t comp;
  } cases[] = {
      {"mov.u32 %r1, %tid.x;", ir::SpecialReg::Tid, 0},
      {"mov.u32 %r1, %ntid.y;", ir::SpecialReg::Ntid, 1},
      {"mov.u32 %r1, %ctaid.z;", ir::SpecialReg::Ctaid, 2},
      {"mov.u32 %r1, %nctaid.x;", ir::SpecialReg::Nctaid, 0},
      {"mov.u32 %r1, %laneid;", ir::SpecialReg::LaneId, 0},
      {"mov.u32 %r1, %warpid;", ir::SpecialReg::WarpId, 0},
      {"mov.u32 %r1, %lanemask_lt;", ir::SpecialReg::LaneMaskLt, 0},
      {"mov.u32 %r1, %clock;", ir::SpecialReg::Clock, 0},
      {"mov.u64 %rd1, %clock64;", ir::SpecialReg::Clock64, 0},
      {"mov.u64 %rd1, %globaltimer;", ir::SpecialReg::GlobalTimer, 0},
      {"mov.u32 %r1, %envreg3;", ir::SpecialReg::EnvReg, 3},
      {"mov.u32 %r1, %envreg31;", ir::SpecialReg::EnvReg, 31},
      {"mov.u32 %r1, %dynamic_smem_size;", ir::SpecialReg::DynamicSmemSize, 0},
      {"mov.u32 %r1, %smid;", ir::SpecialReg::SmId, 0},
      {"mov.u64 %rd1, %gridid;", ir::SpecialReg::GridId, 0},
  };
  for (const auto& c : cases) {
    ir::Instr in = parseOne(c.text);
    ASSERT_EQ(in.src(0).kind, OperandKind::Special) << c.text;
    EXPECT_EQ(in.src(0).sreg, c.reg) << c.text;
    EXPECT_EQ(in.src(0).comp, c.comp) << c.text;
  }
}

TEST(Operands, Addresses) {
  ir::Module m = parseKernel(
      "ld.global.u32 %r1, [%rd1+16];\n"
      "ld.global.u32 %r1, [%rd1+-4];\n"
      "ld.global.u32 %r1, [%rd1-8];\n"
      "ld.param.u32 %r1, [k_param_1];\n"
      "ld.param.u32 %r1, [k_param_0+4];\n"
      "ld.global.u32 %r1, [gv+8];\n"
      "ld.global.u32 %r1, [0x100];\n"
      "ld.shared.u32 %r1, [%r2];\n",
      ".global .align 4 .u32 gv[4];");
  const auto& f = kernel(m);
  auto addr = [&](int i) { return f.code[i].src(0); };
  EXPECT_EQ(addr(0).kind, OperandKind::Address);
  EXPECT_EQ(addr(0).reg, RD(1));
  EXPECT_EQ(addr(0).base, AddrBase::None);
  EXPECT_EQ(addr(0).imm, 16);
  EXPECT_EQ(addr(1).imm, -4);
  EXPECT_EQ(addr(2).imm, -8);
  EXPECT_EQ(addr(3).base, AddrBase::KernelParam);
  EXPECT_EQ(addr(3).reg, ir::kNoReg);
  EXPECT_EQ(addr(3).imm, 8);  // k_param_1 follows the 8-byte k_param_0
  EXPECT_EQ(addr(4).imm, 4);
  EXPECT_EQ(addr(5).base, AddrBase::ModuleSymbol);
  EXPECT_EQ(addr(5).symbol, 0u);
  EXPECT_EQ(addr(5).imm, 8);
  EXPECT_EQ(addr(6).base, AddrBase::None);
  EXPECT_EQ(addr(6).reg, ir::kNoReg);
  EXPECT_EQ(addr(6).imm, 0x100);
  EXPECT_EQ(addr(7).regBits, 32);
  EXPECT_EQ(f.kernelParamBytes, 12u);
}

TEST(Operands, SymbolAddressesAsValues) {
  ir::Module m = parseKernel(
      "mov.u64 %rd1, gv;\n"
      "mov.u64 %rd2, gv+4;\n"
      "mov.u32 %r1, sh;\n"
      "cvta.global.u64 %rd3, gv;\n"
      "mov.u64 %rd4, gv;\n",
      ".global .align 4 .u32 gv[4]; .shared .align 4 .u32 sh[4];");
  const auto& f = kernel(m);
  const ir::Operand& s0 = f.code[0].src(0);
  EXPECT_EQ(s0.kind, OperandKind::Symbol);
  EXPECT_EQ(s0.base, AddrBase::ModuleSymbol);
  EXPECT_EQ(s0.symbol, 0u);
  EXPECT_EQ(s0.imm, 0);
  const ir::Operand& s1 = f.code[1].src(0);
  EXPECT_EQ(s1.imm, 4);
  EXPECT_NE(s0.reg, s1.reg);
  EXPECT_EQ(f.code[2].src(0).symbol, 1u);
  EXPECT_EQ(f.code[3].src(0).kind, OperandKind::Symbol);
  EXPECT_EQ(f.code[4].src(0).reg, s0.reg);  // same symbol+offset: same constant register
  ASSERT_EQ(f.constRegs.size(), 3u);
  EXPECT_EQ(f.constRegs[0].reg, s0.reg);
  EXPECT_EQ(f.constRegs[0].symbol, 0u);
  EXPECT_EQ(f.constRegs[1].value, 4);
}

TEST(Operands, Vectors) {
  ir::Module m = parseKernel(
      "ld.global.v4.f32 {%f1, %f2, _, %f4}, [%rd1];\n"
      "st.global.v2.f32 [%rd1], {%f1, 0f00000000};\n"
      "mov.b64 %rd1, {%r1, %r2};\n"
      "mov.b32 {%rs1, %rs2}, %r3;\n");
  const auto& f = kernel(m);
  const ir::Operand& v = f.code[0].dst();
  EXPECT_EQ(v.kind, OperandKind::Vector);
  EXPECT_EQ(v.count, 4);
  EXPECT_EQ(v.regBits, 32);
  EXPECT_EQ(v.vec[0], F(1));
  EXPECT_EQ(v.vec[1], F(2));
  EXPECT_EQ(v.vec[2], ir::kNoReg);
  EXPECT_EQ(v.vec[3], F(4));
  const ir::Operand& sv = f.code[1].src(1);
  EXPECT_EQ(sv.count, 2);
  EXPECT_EQ(sv.vec[0], F(1));
  ASSERT_EQ(f.constRegs.size(), 1u);
  EXPECT_EQ(sv.vec[1], f.constRegs[0].reg);
  const ir::Operand& pack = f.code[2].src(0);
  EXPECT_EQ(pack.kind, OperandKind::Vector);
  EXPECT_EQ(pack.vec[0], R(1));
  EXPECT_EQ(pack.vec[1], R(2));
  const ir::Operand& unpack = f.code[3].dst();
  EXPECT_EQ(unpack.kind, OperandKind::Vector);
  EXPECT_EQ(unpack.regBits, 16);
  EXPECT_EQ(unpack.vec[1], RS(2));
}

TEST(Operands, PredicatesSinksAndGuards) {
  ir::Module m = parseKernel(
      "setp.ne.and.s32 %p1|%p2, %r1, 0, !%p3;\n"
      "@%p1 add.s32 %r1, %r1, 1;\n"
      "@!%p2 atom.global.add.u32 _, [%rd1], 1;\n");
  const auto& f = kernel(m);
  const ir::Instr& s = f.code[0];
  EXPECT_EQ(s.dst(0).kind, OperandKind::Pred);
  EXPECT_EQ(s.dst(0).reg, 1u);
  EXPECT_EQ(s.dst(1).reg, 2u);
  EXPECT_EQ(s.src(2).kind, OperandKind::Pred);
  EXPECT_EQ(s.src(2).reg, 3u);
  EXPECT_TRUE(s.src(2).negate);
  EXPECT_EQ(s.guard, ir::kNoReg);
  EXPECT_EQ(f.code[1].guard, 1u);
  EXPECT_FALSE(f.code[1].guardNegate);
  EXPECT_EQ(f.code[2].guard, 2u);
  EXPECT_TRUE(f.code[2].guardNegate);
  EXPECT_EQ(f.code[2].dst().kind, OperandKind::Sink);
}

TEST(Operands, LabelsResolveForwardAndBackward) {
  ir::Module m = parseKernel(
      "@%p1 bra $L__BB0_2;\n"
      "add.s32 %r1, %r1, 1;\n"
      "$L__BB0_2:\n"
      "bra.uni $L__entry;\n"
      "$L__BB0_3:\n"
      "ret;\n");
  const auto& f = kernel(m);
  EXPECT_EQ(f.code[0].target, 2u);
  EXPECT_EQ(f.code[2].target, 0u);
  EXPECT_EQ(f.code[0].guard, 1u);
}

TEST(Operands, LocRecordsFileAndLine) {
  ir::Module m = parseKernel(
      "add.s32 %r1, %r1, 1;\n"
      ".loc 1 23 5\n"
      "add.s32 %r1, %r1, 2;\n"
      ".loc 1 24 7, function_name $L__info_string0, inlined_at 1 10 3\n"
      "ret;\n",
      ".file 1 \"a.cu\"");
  const auto& f = kernel(m);
  EXPECT_EQ(f.code[0].locFile, 0u);
  EXPECT_EQ(f.code[1].locFile, 1u);
  EXPECT_EQ(f.code[1].locLine, 23u);
  EXPECT_EQ(f.code[1].line, testing::kBodyLine + 2);
  EXPECT_EQ(f.code[2].locLine, 24u);
  EXPECT_EQ(m.files[1], "a.cu");
}

TEST(Operands, InlineAsmScopesDeclareLocalRegisters) {
  ir::Module m = parseKernel(
      "{\n.reg.b16 hl, hu;\nmov.b32 {hl, hu}, %r5;\n}\n"
      "{\n.reg .b16 hl;\nmov.b16 hl, %rs1;\n}\n");
  const auto& f = kernel(m);
  EXPECT_EQ(f.code[0].dst().vec[0], 44u);
  EXPECT_EQ(f.code[1].dst().reg, 46u);  // a new register for the second scope's hl
  EXPECT_EQ(f.regs[46].name, "hl");
}

}  // namespace
}  // namespace warpsim::ptx
