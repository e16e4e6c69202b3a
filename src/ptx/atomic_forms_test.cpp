// atom/red forms beyond the scalar integer ones: vector atomics (.v2/.v4/.v8), floating-point
// .min/.max, .noftz, and the target and type checks (PTX ISA, atom and red).
#include <gtest/gtest.h>

#include "ptx/test_util.h"

namespace warpsim::ptx {
namespace {

using ir::Op;
using ir::Type;
using testing::F;
using testing::R;
using testing::RD;
using testing::RS;

// kernelText() for sm_90 (the vector forms' target).
std::string sm90(const std::string& body) {
  std::string t = testing::kernelText(body);
  t.replace(t.find("sm_80"), 5, "sm_90");
  return t;
}
ir::Instr parse90(const std::string& line) {
  ir::Module m = parseModule(sm90(line), "t.ptx");
  return m.functions.at(m.findFunction("k")).code.at(0);
}
std::string error90(const std::string& line) { return testing::errorOf(sm90(line)); }
std::string atFirstLine(const std::string& msg) {
  return "t.ptx:" + std::to_string(testing::kBodyLine) + ": error: " + msg;
}

TEST(AtomicForms, VectorF32AddAsNvccEmitsIt) {
  // atomicAdd(float4*, float4) with nvcc 13 for sm_90.
  const ir::Instr in = parse90("atom.global.add.v4.f32 {%f0, %f1, %f2, %f3}, [%rd1], {%f4, %f5, %f6, %f7};");
  EXPECT_EQ(in.op, Op::Atom);
  EXPECT_EQ(in.type, Type::F32);
  EXPECT_EQ(in.space, ir::Space::Global);
  EXPECT_EQ(in.sub, static_cast<uint8_t>(ir::AtomOp::Add));
  EXPECT_EQ(in.vec, 4);
  ASSERT_EQ(in.numDst, 1);
  ASSERT_EQ(in.numSrc, 2);
  EXPECT_EQ(in.ops[0].kind, ir::OperandKind::Vector);
  EXPECT_EQ(in.ops[0].count, 4);
  EXPECT_EQ(in.ops[0].vec[3], F(3));
  EXPECT_EQ(in.ops[1].kind, ir::OperandKind::Address);
  EXPECT_EQ(in.ops[1].reg, RD(1));
  EXPECT_EQ(in.ops[2].vec[0], F(4));
  EXPECT_EQ(in.ops[2].vec[3], F(7));
  EXPECT_FALSE(in.has(ir::kNoFtz));
}

TEST(AtomicForms, V8SplitsEachDataVectorIntoTwoOperands) {
  const ir::Instr in = parse90(
      "atom.global.v8.f16.max.noftz {%rs0, %rs1, %rs2, %rs3, %rs4, %rs5, %rs6, _}, [%rd2], "
      "{%rs7, %rs6, %rs5, %rs4, %rs3, %rs2, %rs1, %rs0};");
  EXPECT_EQ(in.vec, 8);
  EXPECT_EQ(in.sub, static_cast<uint8_t>(ir::AtomOp::Max));
  EXPECT_TRUE(in.has(ir::kNoFtz));
  ASSERT_EQ(in.numDst, 2);
  ASSERT_EQ(in.numSrc, 3);
  EXPECT_EQ(in.ops[0].vec[0], RS(0));
  EXPECT_EQ(in.ops[1].vec[2], RS(6));
  EXPECT_EQ(in.ops[1].vec[3], ir::kNoReg);  // the sink
  EXPECT_EQ(in.ops[2].kind, ir::OperandKind::Address);
  EXPECT_EQ(in.ops[3].vec[0], RS(7));
  EXPECT_EQ(in.ops[4].vec[3], RS(0));

  const ir::Instr red = parse90("red.global.v8.bf16.add.noftz [%rd2], {%rs0, %rs1, %rs2, %rs3, %rs4, %rs5, %rs6, %rs7};");
  EXPECT_EQ(red.op, Op::Red);
  ASSERT_EQ(red.numDst, 0);
  ASSERT_EQ(red.numSrc, 3);
  EXPECT_EQ(red.ops[2].vec[3], RS(7));
}

TEST(AtomicForms, PackedHalfVectorsAndGenericAddresses) {
  const ir::Instr in = parse90("red.v2.bf16x2.min.noftz [%rd1], {%r1, %r2};");
  EXPECT_EQ(in.space, ir::Space::Generic);
  EXPECT_EQ(in.type, Type::BF16x2);
  EXPECT_EQ(in.vec, 2);
  EXPECT_EQ(in.ops[1].vec[1], R(2));
}

TEST(AtomicForms, NoftzF32IsKept) {
  EXPECT_TRUE(parse90("atom.global.add.noftz.f32 %f0, [%rd1], %f1;").has(ir::kNoFtz));
  EXPECT_EQ(testing::kernelError("atom.global.add.noftz.f32 %f0, [%rd1], %f1;"),
            atFirstLine("'atom.global.add.noftz.f32': .noftz on .f32 requires .target sm_90 or "
                        "higher (the module targets sm_80)"));
}

TEST(AtomicForms, TargetChecks) {
  EXPECT_EQ(testing::kernelError("atom.global.add.v2.f32 {%f0, %f1}, [%rd1], {%f2, %f3};"),
            atFirstLine("'atom.global.add.v2.f32': a vector atomic requires .target sm_90 or "
                        "higher (the module targets sm_80)"));
  EXPECT_EQ(testing::kernelError("red.global.v4.f16x2.max.noftz [%rd1], {%r0, %r1, %r2, %r3};"),
            atFirstLine("'red.global.v4.f16x2.max.noftz': a vector atomic requires .target sm_90 "
                        "or higher (the module targets sm_80)"));
}

TEST(AtomicForms, TypeSpaceAndOperationChecks) {
  EXPECT_EQ(error90("atom.global.min.f32 %f0, [%rd1], %f1;"),
            atFirstLine("'atom.global.min.f32': .min and .max take .u32, .s32, .u64, .s64, or "
                        ".f16, .bf16, .f16x2, .bf16x2 in a vector form"));
  EXPECT_EQ(error90("red.shared.max.f64 [%rd1], %fd0;"),
            atFirstLine("'red.shared.max.f64': .min and .max take .u32, .s32, .u64, .s64, or .f16, "
                        ".bf16, .f16x2, .bf16x2 in a vector form"));
  EXPECT_EQ(error90("atom.global.min.noftz.bf16 %rs0, [%rd1], %rs1;"),
            atFirstLine("'atom.global.min.noftz.bf16': floating-point .min and .max need a vector "
                        "qualifier (.v2, .v4, .v8)"));
  EXPECT_EQ(error90("atom.global.v2.f16.min {%rs0, %rs1}, [%rd1], {%rs2, %rs3};"),
            atFirstLine("'atom.global.v2.f16.min': .f16 needs .noftz"));
  EXPECT_EQ(error90("atom.global.add.f16x2 %r0, [%rd1], %r1;"),
            atFirstLine("'atom.global.add.f16x2': .f16x2 needs .noftz"));
  EXPECT_EQ(error90("atom.global.v2.f32.min {%f0, %f1}, [%rd1], {%f2, %f3};"),
            atFirstLine("'atom.global.v2.f32.min': .min and .max take .u32, .s32, .u64, .s64, or "
                        ".f16, .bf16, .f16x2, .bf16x2 in a vector form"));
  EXPECT_EQ(error90("atom.shared.v2.f32.add {%f0, %f1}, [%rd1], {%f2, %f3};"),
            atFirstLine("'atom.shared.v2.f32.add': a vector atomic needs the .global space"));
  EXPECT_EQ(error90("atom.global.v8.f32.add {%f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7}, [%rd1], "
                    "{%f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7};"),
            atFirstLine("'atom.global.v8.f32.add': .v8 takes .f16 or .bf16 (the vector is at most "
                        "128 bits)"));
  EXPECT_EQ(error90("atom.global.v2.u32.add {%r0, %r1}, [%rd1], {%r2, %r3};"),
            atFirstLine("'atom.global.v2.u32.add': a vector atomic takes .f32, .f16, .bf16, .f16x2 "
                        "or .bf16x2"));
  EXPECT_EQ(error90("atom.global.v2.f32.exch {%f0, %f1}, [%rd1], {%f2, %f3};"),
            atFirstLine("'atom.global.v2.f32.exch': a vector atomic of .f32 does only .add"));
  EXPECT_EQ(error90("atom.global.add.noftz.u32 %r0, [%rd1], %r1;"),
            atFirstLine("'atom.global.add.noftz.u32': .noftz applies to .add, .min and .max of "
                        "floating-point types"));
  EXPECT_EQ(error90("atom.global.v4.f32.add {%f0, %f1, %f2}, [%rd1], {%f4, %f5, %f6, %f7};"),
            atFirstLine("vector in 'atom.global.v4.f32.add' has 3 elements, expected 4"));
  EXPECT_EQ(error90("atom.global.v8.f16.add.noftz {%rs0, %rs1}, [%rd1], {%rs0, %rs1, %rs2, %rs3, %rs4, "
                    "%rs5, %rs6, %rs7};"),
            atFirstLine("vector in 'atom.global.v8.f16.add.noftz' has 2 elements, expected 8"));
  EXPECT_EQ(error90("atom.global.v2.f32.add {%f0, %f1}, [%rd1], {%rd2, %f3};"),
            atFirstLine("register '%rd2' in 'atom.global.v2.f32.add' is 64 bits wide, "
                        "expected 32"));
}

}  // namespace
}  // namespace warpsim::ptx
