// Decoded fields of a broad table of opcodes (one instruction per case).
#include <gtest/gtest.h>

#include "ptx/test_util.h"

namespace warpsim::ptx {
namespace {

using ir::CmpOp;
using ir::MulMode;
using ir::Op;
using ir::Round;
using ir::Space;
using ir::Type;

struct Case {
  const char* text;
  Op op;
  Type type = Type::None;
  Type type2 = Type::None;
  uint8_t numDst = 1, numSrc = 2;
  uint32_t flags = 0;
  Round round = Round::None;
  MulMode mul = MulMode::None;
  Space space = Space::None;
  uint8_t sub = 0;
  CmpOp cmp = CmpOp::None;
  ir::BoolOp boolOp = ir::BoolOp::None;
  uint8_t vec = 1;
};

class OpcodeTable : public ::testing::TestWithParam<Case> {};

TEST_P(OpcodeTable, Decodes) {
  const Case& c = GetParam();
  ir::Instr in = testing::parseOne(c.text);
  EXPECT_EQ(in.op, c.op) << ir::opName(in.op);
  EXPECT_EQ(in.type, c.type);
  EXPECT_EQ(in.type2, c.type2);
  EXPECT_EQ(in.numDst, c.numDst);
  EXPECT_EQ(in.numSrc, c.numSrc);
  EXPECT_EQ(in.flags, c.flags);
  EXPECT_EQ(in.round, c.round);
  EXPECT_EQ(in.mulMode, c.mul);
  EXPECT_EQ(in.space, c.space);
  EXPECT_EQ(in.sub, c.sub);
  EXPECT_EQ(in.cmp, c.cmp);
  EXPECT_EQ(in.boolOp, c.boolOp);
  EXPECT_EQ(in.vec, c.vec);
  EXPECT_EQ(in.line, testing::kBodyLine);
}

constexpr uint32_t kFtz = ir::kFtz, kSat = ir::kSat, kApprox = ir::kApprox, kFull = ir::kFull,
                   kCC = ir::kSetsCC, kUni = ir::kUni, kRelu = ir::kRelu;
constexpr auto u8 = [](auto v) { return static_cast<uint8_t>(v); };

const Case kCases[] = {
    // integer arithmetic
    {.text = "add.s32 %r1, %r2, %r3;", .op = Op::Add, .type = Type::S32},
    {.text = "add.sat.s32 %r1, %r2, 5;", .op = Op::Add, .type = Type::S32, .flags = kSat},
    {.text = "add.cc.u32 %r1, %r2, %r3;", .op = Op::Add, .type = Type::U32, .flags = kCC},
    {.text = "addc.cc.u32 %r1, %r2, %r3;", .op = Op::AddC, .type = Type::U32, .flags = kCC},
    {.text = "sub.cc.u32 %r1, %r2, %r3;", .op = Op::Sub, .type = Type::U32, .flags = kCC},
    {.text = "subc.u32 %r1, %r2, %r3;", .op = Op::SubC, .type = Type::U32},
    {.text = "mul.lo.s32 %r1, %r2, %r3;", .op = Op::Mul, .type = Type::S32, .mul = MulMode::Lo},
    {.text = "mul.hi.u32 %r1, %r2, %r3;", .op = Op::Mul, .type = Type::U32, .mul = MulMode::Hi},
    {.text = "mul.wide.s32 %rd1, %r2, 4;", .op = Op::Mul, .type = Type::S32, .mul = MulMode::Wide},
    {.text = "mul.wide.u16 %r1, %rs2, %rs3;", .op = Op::Mul, .type = Type::U16, .mul = MulMode::Wide},
    {.text = "mad.lo.s32 %r1, %r2, %r3, %r4;", .op = Op::Mad, .type = Type::S32, .numSrc = 3, .mul = MulMode::Lo},
    {.text = "mad.wide.u32 %rd1, %r2, %r3, %rd4;", .op = Op::Mad, .type = Type::U32, .numSrc = 3, .mul = MulMode::Wide},
    {.text = "mad.hi.cc.u32 %r1, %r2, %r3, %r4;", .op = Op::Mad, .type = Type::U32, .numSrc = 3, .flags = kCC, .mul = MulMode::Hi},
    {.text = "madc.lo.cc.u32 %r1, %r2, %r3, %r4;", .op = Op::MadC, .type = Type::U32, .numSrc = 3, .flags = kCC, .mul = MulMode::Lo},
    {.text = "mul24.lo.s32 %r1, %r2, %r3;", .op = Op::Mul24, .type = Type::S32, .mul = MulMode::Lo},
    {.text = "mad24.hi.u32 %r1, %r2, %r3, %r4;", .op = Op::Mad24, .type = Type::U32, .numSrc = 3, .mul = MulMode::Hi},
    {.text = "sad.u32 %r1, %r2, %r3, %r4;", .op = Op::Sad, .type = Type::U32, .numSrc = 3},
    {.text = "div.s32 %r1, %r2, %r3;", .op = Op::Div, .type = Type::S32},
    {.text = "rem.u64 %rd1, %rd2, %rd3;", .op = Op::Rem, .type = Type::U64},
    {.text = "abs.s32 %r1, %r2;", .op = Op::Abs, .type = Type::S32, .numSrc = 1},
    {.text = "neg.s64 %rd1, %rd2;", .op = Op::Neg, .type = Type::S64, .numSrc = 1},
    {.text = "min.u32 %r1, %r2, %r3;", .op = Op::Min, .type = Type::U32},
    {.text = "max.s16 %rs1, %rs2, %rs3;", .op = Op::Max, .type = Type::S16},
    {.text = "min.relu.s32 %r1, %r2, %r3;", .op = Op::Min, .type = Type::S32, .flags = kRelu},
    {.text = "popc.b64 %r1, %rd2;", .op = Op::Popc, .type = Type::B64, .numSrc = 1},
    {.text = "clz.b32 %r1, %r2;", .op = Op::Clz, .type = Type::B32, .numSrc = 1},
    {.text = "bfind.u32 %r1, %r2;", .op = Op::Bfind, .type = Type::U32, .numSrc = 1},
    {.text = "bfind.shiftamt.u32 %r1, %r2;", .op = Op::Bfind, .type = Type::U32, .numSrc = 1, .flags = ir::kShiftAmt},
    {.text = "brev.b32 %r1, %r2;", .op = Op::Brev, .type = Type::B32, .numSrc = 1},
    {.text = "bfe.u32 %r1, %r2, 8, 4;", .op = Op::Bfe, .type = Type::U32, .numSrc = 3},
    {.text = "bfe.s64 %rd1, %rd2, %r3, %r4;", .op = Op::Bfe, .type = Type::S64, .numSrc = 3},
    {.text = "bfi.b32 %r1, %r2, %r3, 0, 8;", .op = Op::Bfi, .type = Type::B32, .numSrc = 4},
    {.text = "bmsk.clamp.b32 %r1, %r2, %r3;", .op = Op::Bmsk, .type = Type::B32, .numSrc = 2, .flags = ir::kClamp},
    {.text = "bmsk.wrap.b32 %r1, 1, 2;", .op = Op::Bmsk, .type = Type::B32, .numSrc = 2},
    {.text = "prmt.b32 %r1, %r2, %r3, 0x3210;", .op = Op::Prmt, .type = Type::B32, .numSrc = 3},
    {.text = "prmt.b32.f4e %r1, %r2, %r3, %r4;", .op = Op::Prmt, .type = Type::B32, .numSrc = 3, .sub = u8(ir::PrmtMode::F4e)},
    {.text = "prmt.b32.rc16 %r1, %r2, %r3, %r4;", .op = Op::Prmt, .type = Type::B32, .numSrc = 3, .sub = u8(ir::PrmtMode::Rc16)},
    {.text = "shl.b32 %r1, %r2, 3;", .op = Op::Shl, .type = Type::B32},
    {.text = "shr.u64 %rd1, %rd2, %r3;", .op = Op::Shr, .type = Type::U64},
    {.text = "shr.s16 %rs1, %rs2, 1;", .op = Op::Shr, .type = Type::S16},
    {.text = "shf.l.wrap.b32 %r1, %r2, %r3, %r4;", .op = Op::Shf, .type = Type::B32, .numSrc = 3, .sub = u8(ir::ShfDir::Left)},
    {.text = "shf.r.clamp.b32 %r1, %r2, %r3, 7;", .op = Op::Shf, .type = Type::B32, .numSrc = 3, .flags = ir::kClamp, .sub = u8(ir::ShfDir::Right)},
    {.text = "lop3.b32 %r1, %r2, %r3, %r4, 0x96;", .op = Op::Lop3, .type = Type::B32, .numSrc = 4},
    {.text = "and.b32 %r1, %r2, 255;", .op = Op::And, .type = Type::B32},
    {.text = "or.pred %p1, %p2, %p3;", .op = Op::Or, .type = Type::Pred},
    {.text = "xor.b64 %rd1, %rd2, %rd3;", .op = Op::Xor, .type = Type::B64},
    {.text = "not.pred %p1, %p2;", .op = Op::Not, .type = Type::Pred, .numSrc = 1},
    {.text = "not.b16 %rs1, %rs2;", .op = Op::Not, .type = Type::B16, .numSrc = 1},
    {.text = "cnot.b32 %r1, %r2;", .op = Op::Cnot, .type = Type::B32, .numSrc = 1},
    {.text = "dp4a.u32.s32 %r1, %r2, %r3, %r4;", .op = Op::Dp4a, .type = Type::U32, .type2 = Type::S32, .numSrc = 3},
    {.text = "dp2a.hi.s32.s32 %r1, %r2, %r3, %r4;", .op = Op::Dp2a, .type = Type::S32, .type2 = Type::S32, .numSrc = 3, .mul = MulMode::Hi},
    // floating point
    {.text = "add.rn.f32 %f1, %f2, %f3;", .op = Op::Add, .type = Type::F32, .round = Round::Rn},
    {.text = "add.ftz.sat.f32 %f1, %f2, %f3;", .op = Op::Add, .type = Type::F32, .flags = kFtz | kSat},
    {.text = "sub.rz.f64 %fd1, %fd2, %fd3;", .op = Op::Sub, .type = Type::F64, .round = Round::Rz},
    {.text = "mul.rn.bf16 %rs1, %rs2, %rs3;", .op = Op::Mul, .type = Type::BF16, .round = Round::Rn},
    {.text = "fma.rn.f32 %f1, %f2, %f3, %f4;", .op = Op::Fma, .type = Type::F32, .numSrc = 3, .round = Round::Rn},
    {.text = "fma.rn.relu.f16 %rs1, %rs2, %rs3, %rs4;", .op = Op::Fma, .type = Type::F16, .numSrc = 3, .flags = kRelu, .round = Round::Rn},
    {.text = "fma.rn.f16x2 %r1, %r2, %r3, %r4;", .op = Op::Fma, .type = Type::F16x2, .numSrc = 3, .round = Round::Rn},
    {.text = "mad.rn.f64 %fd1, %fd2, %fd3, %fd1;", .op = Op::Mad, .type = Type::F64, .numSrc = 3, .round = Round::Rn},
    {.text = "add.rn.f16x2 %r1, %r2, %r3;", .op = Op::Add, .type = Type::F16x2, .round = Round::Rn},
    {.text = "div.rn.f64 %fd1, %fd2, %fd3;", .op = Op::Div, .type = Type::F64, .round = Round::Rn},
    {.text = "div.full.f32 %f1, %f2, %f3;", .op = Op::Div, .type = Type::F32, .flags = kFull},
    {.text = "div.approx.ftz.f32 %f1, %f2, %f3;", .op = Op::Div, .type = Type::F32, .flags = kFtz | kApprox},
    {.text = "rcp.rn.f64 %fd1, %fd2;", .op = Op::Rcp, .type = Type::F64, .numSrc = 1, .round = Round::Rn},
    {.text = "rcp.approx.ftz.f64 %fd1, %fd2;", .op = Op::Rcp, .type = Type::F64, .numSrc = 1, .flags = kFtz | kApprox},
    {.text = "sqrt.rn.f32 %f1, %f2;", .op = Op::Sqrt, .type = Type::F32, .numSrc = 1, .round = Round::Rn},
    {.text = "rsqrt.approx.f32 %f1, %f2;", .op = Op::Rsqrt, .type = Type::F32, .numSrc = 1, .flags = kApprox},
    {.text = "ex2.approx.ftz.f32 %f1, %f2;", .op = Op::Ex2, .type = Type::F32, .numSrc = 1, .flags = kFtz | kApprox},
    {.text = "ex2.approx.f16x2 %r1, %r2;", .op = Op::Ex2, .type = Type::F16x2, .numSrc = 1, .flags = kApprox},
    {.text = "lg2.approx.f32 %f1, %f2;", .op = Op::Lg2, .type = Type::F32, .numSrc = 1, .flags = kApprox},
    {.text = "sin.approx.f32 %f1, %f2;", .op = Op::Sin, .type = Type::F32, .numSrc = 1, .flags = kApprox},
    {.text = "cos.approx.ftz.f32 %f1, %f2;", .op = Op::Cos, .type = Type::F32, .numSrc = 1, .flags = kFtz | kApprox},
    {.text = "tanh.approx.f32 %f1, %f2;", .op = Op::Tanh, .type = Type::F32, .numSrc = 1, .flags = kApprox},
    {.text = "copysign.f32 %f1, %f2, %f3;", .op = Op::Copysign, .type = Type::F32},
    {.text = "testp.finite.f32 %p1, %f2;", .op = Op::Testp, .type = Type::F32, .numSrc = 1, .sub = u8(ir::TestpClass::Finite)},
    {.text = "testp.notanumber.f64 %p1, %fd2;", .op = Op::Testp, .type = Type::F64, .numSrc = 1, .sub = u8(ir::TestpClass::NotANumber)},
    {.text = "neg.f32 %f1, %f2;", .op = Op::Neg, .type = Type::F32, .numSrc = 1},
    {.text = "abs.ftz.f32 %f1, %f2;", .op = Op::Abs, .type = Type::F32, .numSrc = 1, .flags = kFtz},
    {.text = "max.ftz.f32 %f1, %f2, %f3;", .op = Op::Max, .type = Type::F32, .flags = kFtz},
    // compare and select
    {.text = "setp.lt.s32 %p1, %r1, %r2;", .op = Op::Setp, .type = Type::S32, .cmp = CmpOp::Lt},
    {.text = "setp.lt.and.s32 %p1, %r1, %r2, %p2;", .op = Op::Setp, .type = Type::S32, .numSrc = 3, .cmp = CmpOp::Lt, .boolOp = ir::BoolOp::And},
    {.text = "setp.ne.s32 %p1|%p2, %r1, 0;", .op = Op::Setp, .type = Type::S32, .numDst = 2, .cmp = CmpOp::Ne},
    {.text = "setp.gtu.ftz.f32 %p1, %f1, %f2;", .op = Op::Setp, .type = Type::F32, .flags = kFtz, .cmp = CmpOp::Gtu},
    {.text = "setp.hs.u64 %p1, %rd1, %rd2;", .op = Op::Setp, .type = Type::U64, .cmp = CmpOp::Hs},
    {.text = "setp.nan.or.f64 %p1, %fd1, %fd2, !%p3;", .op = Op::Setp, .type = Type::F64, .numSrc = 3, .cmp = CmpOp::Nan, .boolOp = ir::BoolOp::Or},
    {.text = "set.lt.u32.f32 %r1, %f1, %f2;", .op = Op::Set, .type = Type::U32, .type2 = Type::F32, .cmp = CmpOp::Lt},
    {.text = "selp.b32 %r1, 1, 0, %p1;", .op = Op::Selp, .type = Type::B32, .numSrc = 3},
    {.text = "selp.f64 %fd1, %fd2, %fd3, %p1;", .op = Op::Selp, .type = Type::F64, .numSrc = 3},
    {.text = "slct.s32.s32 %r1, %r2, %r3, %r4;", .op = Op::Slct, .type = Type::S32, .type2 = Type::S32, .numSrc = 3},
    {.text = "slct.ftz.f32.f32 %f1, %f2, %f3, %f4;", .op = Op::Slct, .type = Type::F32, .type2 = Type::F32, .numSrc = 3, .flags = kFtz},
    // data movement and conversion
    {.text = "mov.u32 %r1, %r2;", .op = Op::Mov, .type = Type::U32, .numSrc = 1},
    {.text = "mov.f32 %f1, 0f3F800000;", .op = Op::Mov, .type = Type::F32, .numSrc = 1},
    {.text = "mov.pred %p1, %p2;", .op = Op::Mov, .type = Type::Pred, .numSrc = 1},
    {.text = "mov.b64 %rd1, {%r1, %r2};", .op = Op::Mov, .type = Type::B64, .numSrc = 1},
    {.text = "mov.b32 {%rs1, %rs2}, %r1;", .op = Op::Mov, .type = Type::B32, .numSrc = 1},
    {.text = "cvt.rn.f32.s32 %f1, %r1;", .op = Op::Cvt, .type = Type::F32, .type2 = Type::S32, .numSrc = 1, .round = Round::Rn},
    {.text = "cvt.rzi.s32.f32 %r1, %f1;", .op = Op::Cvt, .type = Type::S32, .type2 = Type::F32, .numSrc = 1, .round = Round::Rzi},
    {.text = "cvt.u32.u64 %r1, %rd1;", .op = Op::Cvt, .type = Type::U32, .type2 = Type::U64, .numSrc = 1},
    {.text = "cvt.u64.u32 %rd1, %r1;", .op = Op::Cvt, .type = Type::U64, .type2 = Type::U32, .numSrc = 1},
    {.text = "cvt.u32.u8 %r1, %r2;", .op = Op::Cvt, .type = Type::U32, .type2 = Type::U8, .numSrc = 1},
    {.text = "cvt.rn.f16.f32 %rs1, %f1;", .op = Op::Cvt, .type = Type::F16, .type2 = Type::F32, .numSrc = 1, .round = Round::Rn},
    {.text = "cvt.f32.f16 %f1, %rs1;", .op = Op::Cvt, .type = Type::F32, .type2 = Type::F16, .numSrc = 1},
    {.text = "cvt.rn.f16x2.f32 %r1, %f1, %f2;", .op = Op::Cvt, .type = Type::F16x2, .type2 = Type::F32, .numSrc = 2, .round = Round::Rn},
    {.text = "cvt.rn.bf16.f32 %rs1, %f1;", .op = Op::Cvt, .type = Type::BF16, .type2 = Type::F32, .numSrc = 1, .round = Round::Rn},
    {.text = "cvt.rn.relu.bf16.f32 %rs1, %f1;", .op = Op::Cvt, .type = Type::BF16, .type2 = Type::F32, .numSrc = 1, .flags = kRelu, .round = Round::Rn},
    {.text = "cvt.sat.f32.f32 %f1, %f2;", .op = Op::Cvt, .type = Type::F32, .type2 = Type::F32, .numSrc = 1, .flags = kSat},
    {.text = "cvt.rni.f32.f32 %f1, %f2;", .op = Op::Cvt, .type = Type::F32, .type2 = Type::F32, .numSrc = 1, .round = Round::Rni},
    {.text = "cvt.rmi.ftz.f32.f32 %f1, %f2;", .op = Op::Cvt, .type = Type::F32, .type2 = Type::F32, .numSrc = 1, .flags = kFtz, .round = Round::Rmi},
    {.text = "cvt.rn.f64.s64 %fd1, %rd1;", .op = Op::Cvt, .type = Type::F64, .type2 = Type::S64, .numSrc = 1, .round = Round::Rn},
    {.text = "cvta.to.global.u64 %rd1, %rd2;", .op = Op::Cvta, .type = Type::U64, .numSrc = 1, .flags = ir::kToSpace, .space = Space::Global},
    {.text = "cvta.to.shared.u64 %rd1, %rd2;", .op = Op::Cvta, .type = Type::U64, .numSrc = 1, .flags = ir::kToSpace, .space = Space::Shared},
    {.text = "cvta.local.u64 %rd1, %rd2;", .op = Op::Cvta, .type = Type::U64, .numSrc = 1, .space = Space::Local},
    {.text = "cvta.shared.u32 %r1, %r2;", .op = Op::Cvta, .type = Type::U32, .numSrc = 1, .space = Space::Shared},
    {.text = "isspacep.global %p1, %rd1;", .op = Op::Isspacep, .type = Type::U64, .numSrc = 1, .space = Space::Global},
    // memory
    {.text = "ld.global.u32 %r1, [%rd1];", .op = Op::Ld, .type = Type::U32, .numSrc = 1, .space = Space::Global},
    {.text = "ld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+16];", .op = Op::Ld, .type = Type::F32, .numSrc = 1, .flags = ir::kNonCoherent, .space = Space::Global, .vec = 4},
    {.text = "ld.global.nc.L1::no_allocate.L2::128B.f32 %f1, [%rd1];", .op = Op::Ld, .type = Type::F32, .numSrc = 1, .flags = ir::kNonCoherent, .space = Space::Global},
    {.text = "ld.global.ca.u8 %rs1, [%rd1];", .op = Op::Ld, .type = Type::U8, .numSrc = 1, .space = Space::Global},
    {.text = "ld.param.u64 %rd1, [k_param_0];", .op = Op::Ld, .type = Type::U64, .numSrc = 1, .space = Space::KernelParam},
    {.text = "ld.shared.v2.u32 {%r1, %r2}, [%r3+8];", .op = Op::Ld, .type = Type::U32, .numSrc = 1, .space = Space::Shared, .vec = 2},
    {.text = "ld.local.u32 %r1, [%rd1];", .op = Op::Ld, .type = Type::U32, .numSrc = 1, .space = Space::Local},
    {.text = "ld.const.f64 %fd1, [%rd1];", .op = Op::Ld, .type = Type::F64, .numSrc = 1, .space = Space::Const},
    {.text = "ld.u32 %r1, [%rd1];", .op = Op::Ld, .type = Type::U32, .numSrc = 1, .space = Space::Generic},
    {.text = "ld.volatile.shared.u32 %r1, [%rd1];", .op = Op::Ld, .type = Type::U32, .numSrc = 1, .flags = ir::kVolatile, .space = Space::Shared},
    {.text = "ld.global.cg.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1];", .op = Op::Ld, .type = Type::U32, .numSrc = 1, .flags = ir::kL2Only, .space = Space::Global, .vec = 4},
    {.text = "ld.cv.global.f32 %f1, [%rd1];", .op = Op::Ld, .type = Type::F32, .numSrc = 1, .flags = ir::kL2Only, .space = Space::Global},
    {.text = "ld.relaxed.gpu.global.u32 %r1, [%rd1];", .op = Op::Ld, .type = Type::U32, .numSrc = 1, .space = Space::Global},
    {.text = "ld.acquire.sys.u64 %rd1, [%rd2];", .op = Op::Ld, .type = Type::U64, .numSrc = 1, .space = Space::Generic},
    {.text = "ldu.global.f32 %f1, [%rd1];", .op = Op::Ldu, .type = Type::F32, .numSrc = 1, .space = Space::Global},
    {.text = "st.global.v4.f32 [%rd1], {%f1, %f2, %f3, %f4};", .op = Op::St, .type = Type::F32, .numDst = 0, .space = Space::Global, .vec = 4},
    {.text = "st.shared.u16 [%rd1+2], %rs1;", .op = Op::St, .type = Type::U16, .numDst = 0, .space = Space::Shared},
    {.text = "st.global.wb.u8 [%rd1], %r1;", .op = Op::St, .type = Type::U8, .numDst = 0, .space = Space::Global},
    {.text = "st.release.gpu.u32 [%rd1], %r1;", .op = Op::St, .type = Type::U32, .numDst = 0, .space = Space::Generic},
    {.text = "atom.global.add.f32 %f1, [%rd1], %f2;", .op = Op::Atom, .type = Type::F32, .space = Space::Global, .sub = u8(ir::AtomOp::Add)},
    {.text = "atom.shared.cas.b32 %r1, [%rd1], %r2, %r3;", .op = Op::Atom, .type = Type::B32, .numSrc = 3, .space = Space::Shared, .sub = u8(ir::AtomOp::Cas)},
    {.text = "atom.global.add.u64 %rd1, [%rd2], 1;", .op = Op::Atom, .type = Type::U64, .space = Space::Global, .sub = u8(ir::AtomOp::Add)},
    {.text = "atom.inc.u32 %r1, [%rd1], 100;", .op = Op::Atom, .type = Type::U32, .space = Space::Generic, .sub = u8(ir::AtomOp::Inc)},
    {.text = "atom.exch.b32 %r1, [%rd1], %r2;", .op = Op::Atom, .type = Type::B32, .space = Space::Generic, .sub = u8(ir::AtomOp::Exch)},
    {.text = "atom.global.gpu.relaxed.max.s32 %r1, [%rd1], %r2;", .op = Op::Atom, .type = Type::S32, .space = Space::Global, .sub = u8(ir::AtomOp::Max)},
    {.text = "atom.acq_rel.sys.global.or.b64 %rd1, [%rd2], %rd3;", .op = Op::Atom, .type = Type::B64, .space = Space::Global, .sub = u8(ir::AtomOp::Or)},
    {.text = "atom.global.add.noftz.f16 %rs1, [%rd1], %rs2;", .op = Op::Atom, .type = Type::F16, .flags = ir::kNoFtz, .space = Space::Global, .sub = u8(ir::AtomOp::Add)},
    {.text = "atom.global.dec.u32 _, [%rd1], 3;", .op = Op::Atom, .type = Type::U32, .space = Space::Global, .sub = u8(ir::AtomOp::Dec)},
    {.text = "red.global.add.u32 [%rd1], %r1;", .op = Op::Red, .type = Type::U32, .numDst = 0, .space = Space::Global, .sub = u8(ir::AtomOp::Add)},
    {.text = "red.shared.xor.b32 [%r1], 5;", .op = Op::Red, .type = Type::B32, .numDst = 0, .space = Space::Shared, .sub = u8(ir::AtomOp::Xor)},
    {.text = "prefetch.global.L2 [%rd1];", .op = Op::Prefetch, .numDst = 0, .numSrc = 1, .space = Space::Global},
    {.text = "prefetch.global.L2::evict_last [%rd1];", .op = Op::Prefetch, .numDst = 0, .numSrc = 1, .space = Space::Global},
    // synchronisation and warp level
    {.text = "bar.sync 0;", .op = Op::Bar, .numDst = 0, .numSrc = 1, .flags = ir::kAligned, .sub = u8(ir::BarOp::Sync)},
    {.text = "bar.sync 1, 64;", .op = Op::Bar, .numDst = 0, .numSrc = 2, .flags = ir::kAligned | ir::kHasBarCount, .sub = u8(ir::BarOp::Sync)},
    {.text = "barrier.sync 0;", .op = Op::Bar, .numDst = 0, .numSrc = 1, .sub = u8(ir::BarOp::Sync)},
    {.text = "barrier.sync.aligned %r1;", .op = Op::Bar, .numDst = 0, .numSrc = 1, .flags = ir::kAligned, .sub = u8(ir::BarOp::Sync)},
    {.text = "bar.arrive 1, 64;", .op = Op::Bar, .numDst = 0, .numSrc = 2, .flags = ir::kAligned | ir::kHasBarCount, .sub = u8(ir::BarOp::Arrive)},
    {.text = "bar.red.popc.u32 %r1, 0, %p1;", .op = Op::Bar, .type = Type::U32, .numSrc = 2, .flags = ir::kAligned, .sub = u8(ir::BarOp::RedPopc)},
    {.text = "bar.red.and.pred %p1, 0, !%p2;", .op = Op::Bar, .type = Type::Pred, .numSrc = 2, .flags = ir::kAligned, .sub = u8(ir::BarOp::RedAnd)},
    {.text = "bar.red.or.pred %p1, 2, 96, %p2;", .op = Op::Bar, .type = Type::Pred, .numSrc = 3, .flags = ir::kAligned | ir::kHasBarCount, .sub = u8(ir::BarOp::RedOr)},
    {.text = "bar.warp.sync -1;", .op = Op::Fence, .numDst = 0, .numSrc = 1},
    {.text = "membar.gl;", .op = Op::Membar, .numDst = 0, .numSrc = 0, .sub = 1},
    {.text = "membar.cta;", .op = Op::Membar, .numDst = 0, .numSrc = 0, .sub = 0},
    {.text = "fence.acq_rel.gpu;", .op = Op::Fence, .numDst = 0, .numSrc = 0, .sub = 1},
    {.text = "fence.sc.cta;", .op = Op::Fence, .numDst = 0, .numSrc = 0, .sub = 0},
    {.text = "shfl.sync.down.b32 %r1|%p1, %r2, 1, 31, -1;", .op = Op::Shfl, .type = Type::B32, .numDst = 2, .numSrc = 4, .sub = u8(ir::ShflMode::Down)},
    {.text = "shfl.sync.idx.b32 %r1, %r2, %r3, 31, %r4;", .op = Op::Shfl, .type = Type::B32, .numSrc = 4, .sub = u8(ir::ShflMode::Idx)},
    {.text = "shfl.sync.bfly.b32 %r1, %r2, 16, 31, -1;", .op = Op::Shfl, .type = Type::B32, .numSrc = 4, .sub = u8(ir::ShflMode::Bfly)},
    {.text = "vote.sync.ballot.b32 %r1, %p1, -1;", .op = Op::Vote, .type = Type::B32, .sub = u8(ir::VoteMode::Ballot)},
    {.text = "vote.sync.any.pred %p2, %p1, -1;", .op = Op::Vote, .type = Type::Pred, .sub = u8(ir::VoteMode::Any)},
    {.text = "vote.sync.all.pred %p2, !%p1, %r1;", .op = Op::Vote, .type = Type::Pred, .sub = u8(ir::VoteMode::All)},
    {.text = "match.any.sync.b32 %r1, %r2, -1;", .op = Op::Match, .type = Type::B32, .sub = u8(ir::MatchMode::Any)},
    {.text = "match.all.sync.b64 %r1|%p1, %rd2, -1;", .op = Op::Match, .type = Type::B64, .numDst = 2, .sub = u8(ir::MatchMode::All)},
    {.text = "activemask.b32 %r1;", .op = Op::Activemask, .type = Type::B32, .numSrc = 0},
    // control
    {.text = "bra.uni $L__entry;", .op = Op::Bra, .numDst = 0, .numSrc = 0, .flags = kUni},
    {.text = "ret;", .op = Op::Ret, .numDst = 0, .numSrc = 0},
    {.text = "exit;", .op = Op::Exit, .numDst = 0, .numSrc = 0},
    {.text = "trap;", .op = Op::Trap, .numDst = 0, .numSrc = 0},
    {.text = "brkpt;", .op = Op::Brkpt, .numDst = 0, .numSrc = 0},
    {.text = "nanosleep.u32 100;", .op = Op::Nanosleep, .type = Type::U32, .numDst = 0, .numSrc = 1},
};

INSTANTIATE_TEST_SUITE_P(All, OpcodeTable, ::testing::ValuesIn(kCases));

TEST(OpNames, NamesAndClasses) {
  EXPECT_STREQ(ir::opName(Op::Add), "add");
  EXPECT_STREQ(ir::opName(Op::Nanosleep), "nanosleep");
  EXPECT_STREQ(ir::opName(Op::Lop3), "lop3");
  auto cls = [](const char* text) { return ir::opClass(testing::parseOne(text)); };
  EXPECT_EQ(cls("add.s32 %r1, %r2, %r3;"), ir::OpClass::IntAlu);
  EXPECT_EQ(cls("mul.lo.s32 %r1, %r2, %r3;"), ir::OpClass::IntMul);
  EXPECT_EQ(cls("mad.wide.u32 %rd1, %r2, %r3, %rd4;"), ir::OpClass::IntMul);
  EXPECT_EQ(cls("add.f32 %f1, %f2, %f3;"), ir::OpClass::FpAlu);
  EXPECT_EQ(cls("fma.rn.f64 %fd1, %fd2, %fd3, %fd1;"), ir::OpClass::Fp64);
  EXPECT_EQ(cls("ex2.approx.f32 %f1, %f2;"), ir::OpClass::Sfu);
  EXPECT_EQ(cls("div.approx.f32 %f1, %f2, %f3;"), ir::OpClass::Sfu);
  EXPECT_EQ(cls("rcp.approx.ftz.f64 %fd1, %fd2;"), ir::OpClass::Sfu);
  EXPECT_EQ(cls("add.rn.f16x2 %r1, %r2, %r3;"), ir::OpClass::Half);
  EXPECT_EQ(cls("cvt.rn.f32.s32 %f1, %r1;"), ir::OpClass::Conversion);
  EXPECT_EQ(cls("mov.u32 %r1, %tid.x;"), ir::OpClass::Move);
  EXPECT_EQ(cls("setp.lt.s32 %p1, %r1, %r2;"), ir::OpClass::Predicate);
  EXPECT_EQ(cls("selp.b32 %r1, 1, 0, %p1;"), ir::OpClass::Predicate);
  EXPECT_EQ(cls("and.pred %p1, %p2, %p3;"), ir::OpClass::Predicate);
  EXPECT_EQ(cls("ld.global.u32 %r1, [%rd1];"), ir::OpClass::Load);
  EXPECT_EQ(cls("st.global.u32 [%rd1], %r1;"), ir::OpClass::Store);
  EXPECT_EQ(cls("red.global.add.u32 [%rd1], %r1;"), ir::OpClass::Atomic);
  EXPECT_EQ(cls("bar.sync 0;"), ir::OpClass::Barrier);
  EXPECT_EQ(cls("vote.sync.any.pred %p2, %p1, -1;"), ir::OpClass::WarpSync);
  EXPECT_EQ(cls("ret;"), ir::OpClass::Control);
  EXPECT_STREQ(ir::opClassName(ir::OpClass::WarpSync), "warp_sync");
  EXPECT_STREQ(ir::opClassName(ir::OpClass::Fp64), "fp64");
}

}  // namespace
}  // namespace warpsim::ptx
