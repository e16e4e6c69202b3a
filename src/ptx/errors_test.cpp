// Malformed instructions: every error names the file and line exactly.
#include <gtest/gtest.h>

#include "ptx/test_util.h"

namespace warpsim::ptx {
namespace {

using testing::kernelError;

std::string at(uint32_t lineOffset, const std::string& msg) {
  return "t.ptx:" + std::to_string(testing::kBodyLine + lineOffset) + ": error: " + msg;
}

TEST(Errors, UnknownAndUnsupportedOpcodes) {
  EXPECT_EQ(kernelError("frobnicate.s32 %r1, %r2;"), at(0, "unknown instruction 'frobnicate.s32'"));
  EXPECT_EQ(kernelError("ret;\ntex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [tex, {%f1, %f2}];"),
            at(1, "unsupported instruction 'tex.2d.v4.f32.f32'"));
  EXPECT_EQ(kernelError("wmma.load.a.sync.aligned.row.m16n16k16.f16 {%r1}, [%rd1];"),
            at(0, "unsupported instruction 'wmma.load.a.sync.aligned.row.m16n16k16.f16'"));
  EXPECT_EQ(kernelError("cp.async.ca.shared.global [%rd1], [%rd2], 16;"),
            at(0, "unsupported instruction 'cp.async.ca.shared.global'"));
  EXPECT_EQ(kernelError("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%rd1], %r1, [%rd2];"),
            at(0, "unsupported instruction 'red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32'"));
  EXPECT_EQ(kernelError("red.async.global.add.u32 [%rd1], %r1;"),
            at(0, "unsupported instruction 'red.async.global.add.u32'"));
  EXPECT_EQ(kernelError("add.bogus.s32 %r1, %r2, %r3;"),
            at(0, "unsupported instruction 'add.bogus.s32' (modifier '.bogus')"));
  EXPECT_EQ(kernelError("redux.sync.add.s32 %r1, %r2, -1;"), at(0, "unsupported instruction 'redux.sync.add.s32'"));
  EXPECT_EQ(kernelError("cvt.pack.sat.u8.s32.b32 %r1, %r2, %r3, %r4;"),
            at(0, "unsupported instruction 'cvt.pack.sat.u8.s32.b32'"));
  EXPECT_EQ(kernelError("min.NaN.f32 %f1, %f2, %f3;"),
            at(0, "unsupported instruction 'min.NaN.f32' (modifier '.NaN')"));
  EXPECT_EQ(kernelError("shfl.down.b32 %r1, %r2, 1, 31;"),
            at(0, "unsupported instruction 'shfl.down.b32' (use shfl.sync)"));
  EXPECT_EQ(kernelError("ld.global.L2::cache_hint.u32 %r1, [%rd1], %rd2;"),
            at(0, "'ld.global.L2::cache_hint.u32' expects 2 operands, found 3"));
  EXPECT_EQ(kernelError("fence.proxy.alias;"), at(0, "unsupported instruction 'fence.proxy.alias'"));
  EXPECT_EQ(kernelError("cvt.rna.tf32.f32 %r1, %f1;"),
            at(0, "unsupported instruction 'cvt.rna.tf32.f32' (modifier '.tf32')"));
  EXPECT_EQ(kernelError("max.s16x2 %r1, %r2, %r3;"),
            at(0, "unsupported instruction 'max.s16x2' (modifier '.s16x2')"));
}

TEST(Errors, OperandCountsAndKinds) {
  EXPECT_EQ(kernelError("add.s32 %r1, %r2;"), at(0, "'add.s32' expects 3 operands, found 2"));
  EXPECT_EQ(kernelError("setp.lt.s32 %p1, %r1;"), at(0, "'setp.lt.s32' expects 3 operands, found 2"));
  EXPECT_EQ(kernelError("add.s32 %r1, %r2, [%rd1];"),
            at(0, "expected a register or immediate in 'add.s32', found '['"));
  EXPECT_EQ(kernelError("ld.global.u32 %r1, %rd1;"),
            at(0, "expected an address [..] in 'ld.global.u32', found '%rd1'"));
  EXPECT_EQ(kernelError("add.s32 %r1, %rd2, %r3;"),
            at(0, "register '%rd2' in 'add.s32' is 64 bits wide, expected 32"));
  EXPECT_EQ(kernelError("ld.global.u64 %r1, [%rd1];"),
            at(0, "register '%r1' in 'ld.global.u64' is 32 bits wide, expected at least 64"));
  EXPECT_EQ(kernelError("add.s32 %p1, %r2, %r3;"), at(0, "expected a register, found '%p1' in 'add.s32'"));
  EXPECT_EQ(kernelError("setp.lt.s32 %r1, %r2, %r3;"),
            at(0, "expected a predicate register, found '%r1' in 'setp.lt.s32'"));
  EXPECT_EQ(kernelError("add.s32 %r1, %tid.x, 1;"),
            at(0, "special register '%tid.x' can only be read by mov (in 'add.s32')"));
  EXPECT_EQ(kernelError("mov.u32 %r1, %clock64;"),
            at(0, "special register '%clock64' in 'mov.u32' is 64 bits wide, expected 32"));
  EXPECT_EQ(kernelError("add.s32 %r1, %r2, 1.5;"),
            at(0, "bad immediate in 'add.s32': a floating-point literal cannot be used for an integer type"));
  EXPECT_EQ(kernelError("add.s32 %r1, k_param_0, 1;"),
            at(0, "'k_param_0' is not a register in 'add.s32' (take a symbol's address with mov)"));
  EXPECT_EQ(kernelError("ld.global.v4.f32 {%f1, %f2}, [%rd1];"),
            at(0, "vector in 'ld.global.v4.f32' has 2 elements, expected 4"));
  EXPECT_EQ(kernelError("mul.s32 %r1, %r2, %r3;"), at(0, "'mul.s32' needs .lo, .hi or .wide"));
  EXPECT_EQ(kernelError("add.s32.u32 %r1, %r2, %r3;"), at(0, "'add.s32.u32' needs 1 type, found 2"));
  EXPECT_EQ(kernelError("rem.f32 %f1, %f2, %f3;"), at(0, "'rem.f32' needs an integer type"));
  EXPECT_EQ(kernelError("sqrt.rn.s32 %r1, %r2;"), at(0, "'sqrt.rn.s32' needs a floating-point type"));
  EXPECT_EQ(kernelError("bmsk.b32 %r1, %r2, %r3;"), at(0, "'bmsk.b32' needs a mode (.clamp/.wrap)"));
  EXPECT_EQ(kernelError("bmsk.wrap.u32 %r1, %r2, %r3;"), at(0, "'bmsk.wrap.u32' needs .b32"));
  EXPECT_EQ(kernelError("lop3.b32 %r1, %r2, %r3, %r4, %r5;"),
            at(0, "expected an immediate in 'lop3.b32', found '%r5'"));
  EXPECT_EQ(kernelError("ld.global.u32 %r1, [k_param_0];"),
            at(0, "parameter 'k_param_0' in 'ld.global.u32' accessed outside the .param space"));
}

TEST(Errors, UndeclaredNames) {
  EXPECT_EQ(kernelError("add.s32 %r1, %r99, 1;"), at(0, "undeclared register '%r99' in 'add.s32'"));
  EXPECT_EQ(kernelError("ret;\n@%q1 bra $L__entry;"), at(1, "undeclared predicate '%q1'"));
  EXPECT_EQ(kernelError("@%r1 bra $L__entry;"), at(0, "guard '%r1' is not a predicate"));
  EXPECT_EQ(kernelError("bra $L__nowhere;\nret;"), at(0, "undefined label '$L__nowhere'"));
  EXPECT_EQ(kernelError("bra $L__end;\n$L__end:"), at(0, "label '$L__end' is not followed by an instruction"));
  EXPECT_EQ(kernelError("ld.global.u32 %r1, [nosym];"), at(0, "undeclared symbol 'nosym' in 'ld.global.u32'"));
  EXPECT_EQ(kernelError("ld.global.u32 %r1, [%rx+4];"), at(0, "undeclared register '%rx' in 'ld.global.u32'"));
  EXPECT_EQ(kernelError("mov.u64 %rd1, nosym;"), at(0, "expected a register or immediate, found 'nosym' in 'mov.u64'"));
  EXPECT_EQ(kernelError("$L__x:\n$L__x:\nret;"), at(1, "duplicate label '$L__x'"));
  EXPECT_EQ(kernelError(".reg .b32 %r1;"), at(0, "redeclaration of '%r1'"));
}

TEST(Errors, Syntax) {
  EXPECT_EQ(kernelError("add.s32 %r1, %r2, %r3\nret;"), at(0, "missing ';' after 'add.s32'"));
  EXPECT_EQ(kernelError("add.s32 %r1 %r2, %r3;"), at(0, "expected ',' or ';' after operand, found '%r2'"));
  EXPECT_EQ(kernelError("ld.global.u32 %r1, [%rd1+];"), at(0, "expected an integer offset in address, found ']'"));
  EXPECT_EQ(kernelError("ld.global.u32 %r1, [%rd1*4];"), at(0, "unexpected character '*'"));
  EXPECT_EQ(kernelError("add.s32 %r1, %r2, -%r3;"), at(0, "expected a number after '-', found '%r3'"));
  EXPECT_EQ(kernelError(".bogus 3;"), at(0, "unknown directive '.bogus' in function body"));
  EXPECT_EQ(kernelError(".reg .b32 %x<100000000>;"), at(0, "register count 100000000 is too large (limit 65536)"));
  EXPECT_EQ(kernelError(".reg .b32 %a<65536>; .reg .b32 %b<65536>; .reg .b32 %c<65536>;\n"
                        ".reg .b32 %d<65536>;"),
            at(1, "too many registers in 'k'"));
  EXPECT_EQ(kernelError("{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{"),
            at(0, "scopes nested too deeply"));
  EXPECT_EQ(kernelError("/* open\n\n"), at(0, "unterminated comment"));
  EXPECT_EQ(kernelError("\xff\xfe"), at(0, "unexpected character '\\xff'"));
  EXPECT_EQ(kernelError("42;"), at(0, "expected an instruction, found '42'"));
}

}  // namespace
}  // namespace warpsim::ptx
