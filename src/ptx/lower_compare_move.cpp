// Comparison, selection, data movement and conversion: setp set selp slct mov cvt cvta isspacep.
#include "ptx/lowering.h"

namespace warpsim::ptx::detail {
namespace {

using ir::Op;
using ir::Type;

void checkCompareType(InstrBuilder& b, Type t) {
  if (t == Type::Pred || t == Type::B128 || t == Type::None)
    b.fail("invalid comparison type in '" + b.opcodeText() + "'");
}

// setp.cmp[.bool][.ftz].type p[|q], a, b[, {!}c]
void lowerSetp(InstrBuilder& b) {
  ir::Instr& in = b.in;
  in.op = Op::Setp;
  auto cmp = b.mods.takeCmp();
  if (!cmp) b.fail("'" + b.opcodeText() + "' needs a comparison (.eq, .lt, ...)");
  in.cmp = *cmp;
  if (auto bo = b.mods.takeBoolOp()) in.boolOp = *bo;
  b.takeFlags(ir::kFtz);
  in.type = b.oneType();
  checkCompareType(b, in.type);
  b.expectCount(in.boolOp == ir::BoolOp::None ? 3 : 4);
  if (b.isPair(0)) {
    b.addDst(b.dstPred(b.raw(0).elems[0]));
    b.addDst(b.dstPred(b.raw(0).elems[1]));
  } else {
    b.addDst(b.dstPred(b.raw(0)));
  }
  b.addSrc(b.src(b.raw(1), in.type));
  b.addSrc(b.src(b.raw(2), in.type));
  if (in.boolOp != ir::BoolOp::None) b.addSrc(b.predSrc(b.raw(3)));
}

// set.cmp[.bool][.ftz].dtype.stype d, a, b[, {!}c]
void lowerSet(InstrBuilder& b) {
  ir::Instr& in = b.in;
  in.op = Op::Set;
  auto cmp = b.mods.takeCmp();
  if (!cmp) b.fail("'" + b.opcodeText() + "' needs a comparison (.eq, .lt, ...)");
  in.cmp = *cmp;
  if (auto bo = b.mods.takeBoolOp()) in.boolOp = *bo;
  b.takeFlags(ir::kFtz);
  auto ts = b.types(2);
  in.type = ts[0];
  in.type2 = ts[1];
  if (in.type != Type::U32 && in.type != Type::S32 && in.type != Type::F32 && in.type != Type::B32)
    b.fail("invalid destination type in '" + b.opcodeText() + "'");
  checkCompareType(b, in.type2);
  b.expectCount(in.boolOp == ir::BoolOp::None ? 3 : 4);
  b.addDst(b.dstReg(b.raw(0), 32));
  b.addSrc(b.src(b.raw(1), in.type2));
  b.addSrc(b.src(b.raw(2), in.type2));
  if (in.boolOp != ir::BoolOp::None) b.addSrc(b.predSrc(b.raw(3)));
}

// selp.type d, a, b, c   /   slct[.ftz].dtype.{s32,f32} d, a, b, c
void lowerSelect(InstrBuilder& b, bool isSlct) {
  ir::Instr& in = b.in;
  in.op = isSlct ? Op::Slct : Op::Selp;
  if (isSlct) {
    b.takeFlags(ir::kFtz);
    auto ts = b.types(2);
    in.type = ts[0];
    in.type2 = ts[1];
    if (in.type2 != Type::S32 && in.type2 != Type::F32)
      b.fail("'" + b.opcodeText() + "' compares .s32 or .f32");
  } else {
    in.type = b.oneType();
  }
  if (in.type == Type::Pred || in.type == Type::B128) b.fail("invalid type in '" + b.opcodeText() + "'");
  b.expectCount(4);
  b.addDst(b.dstReg(b.raw(0), ir::bits(in.type)));
  b.addSrc(b.src(b.raw(1), in.type));
  b.addSrc(b.src(b.raw(2), in.type));
  b.addSrc(isSlct ? b.src(b.raw(3), in.type2) : b.predSrc(b.raw(3)));
}

// mov.type d, a  (a: register, immediate, special register, symbol address, {vector} to pack);
// d may be a {vector} to unpack.
void lowerMov(InstrBuilder& b) {
  ir::Instr& in = b.in;
  in.op = Op::Mov;
  in.type = b.oneType();
  if (in.type == Type::B128) b.fail("unsupported type in '" + b.opcodeText() + "'");
  b.expectCount(2);
  const RawOperand& d = b.raw(0);
  if (in.type == Type::Pred) {
    b.addDst(b.dstPred(d, false));
  } else if (d.kind == RawOperand::Kind::Vector) {
    unsigned n = static_cast<unsigned>(d.elems.size());
    unsigned eb = (n == 2 || n == 4) ? ir::bits(in.type) / n : 0;
    Type et = eb == 8 ? Type::B8 : eb == 16 ? Type::B16 : eb == 32 ? Type::B32 : Type::None;
    if (et == Type::None) b.fail("'" + b.opcodeText() + "' cannot unpack into " + std::to_string(n) + " elements");
    b.addDst(b.vector(d, et, n, true, Width::Exact));
  } else {
    b.addDst(b.dstReg(d, ir::bits(in.type), Width::Exact, false));
  }
  const RawOperand& s = b.raw(1);
  if (in.type == Type::Pred && s.kind == RawOperand::Kind::Literal) {
    // mov.pred %p, 0 / 1: an immediate whose `imm` is the lane value (all lanes); its
    // constant register holds the same 0/1. nvcc writes true as -1 (all bits set): 1.
    RawOperand v = s;
    if (v.lit.kind == Literal::Kind::Int && v.lit.bits == ~uint64_t{0}) {
      v.lit.bits = 1;
      v.lit.negative = false;
    }
    if (v.lit.kind != Literal::Kind::Int || v.lit.bits > 1)
      b.fail("'" + b.opcodeText() + "' needs a predicate or 0/1 (or -1, true)");
    ir::Operand o = b.immSrc(v, Type::B32);
    o.regBits = 1;
    b.addSrc(o);
    return;
  }
  b.addSrc(b.movSrc(s, in.type));
  if (in.ops[0].kind == ir::OperandKind::Vector && in.ops[1].kind == ir::OperandKind::Vector)
    b.fail("'" + b.opcodeText() + "' cannot move a vector to a vector");
}

// cvt[.rnd][.ftz][.sat][.relu].dtype.atype d, a   (cvt.rn.f16x2.f32 d, a, b packs two values)
void lowerCvt(InstrBuilder& b) {
  ir::Instr& in = b.in;
  in.op = Op::Cvt;
  if (auto r = b.mods.takeRound()) in.round = *r;
  b.takeFlags(ir::kFtz | ir::kSat | ir::kRelu);
  auto ts = b.types(2);
  in.type = ts[0];
  in.type2 = ts[1];
  for (Type t : ts)
    if (t == Type::Pred || t == Type::B128) b.fail("invalid type in '" + b.opcodeText() + "'");
  bool packs = (in.type == Type::F16x2 || in.type == Type::BF16x2) && in.type2 == Type::F32;
  b.expectCount(packs ? 3 : 2);
  b.addDst(b.dstReg(b.raw(0), ir::bits(in.type), Width::AtLeast, false));
  b.addSrc(b.src(b.raw(1), in.type2, Width::AtLeast));
  if (packs) b.addSrc(b.src(b.raw(2), in.type2, Width::AtLeast));
}

ir::Space addressSpace(InstrBuilder& b, bool required) {
  auto s = b.mods.takeSpace();
  if (!s) {
    if (required) b.fail("'" + b.opcodeText() + "' needs a state space");
    return ir::Space::Generic;
  }
  if (*s == ir::Space::KernelParam) return b.inEntry() ? ir::Space::KernelParam : ir::Space::FrameParam;
  return *s;
}

// cvta[.to].space.size d, a
void lowerCvta(InstrBuilder& b) {
  ir::Instr& in = b.in;
  in.op = Op::Cvta;
  if (b.mods.take("to")) in.flags |= ir::kToSpace;
  in.space = addressSpace(b, true);
  in.type = b.oneType();
  if (in.type != Type::U64 && in.type != Type::U32 && in.type != Type::B64 && in.type != Type::S64)
    b.fail("'" + b.opcodeText() + "' needs .u32 or .u64");
  b.expectCount(2);
  b.addDst(b.dstReg(b.raw(0), ir::bits(in.type), Width::Exact, false));
  if (auto sym = b.symbolValue(b.raw(1))) b.addSrc(*sym);
  else b.addSrc(b.src(b.raw(1), in.type));
}

// isspacep.space p, a with .space = .const .global .local .shared{::cta,::cluster}
// .param{::entry}. A kernel's parameters are meant even inside a .func (.param is .param::entry),
// and without clusters the cluster's shared window is the CTA's own.
void lowerIsspacep(InstrBuilder& b) {
  ir::Instr& in = b.in;
  in.op = Op::Isspacep;
  if (b.mods.take("shared::cluster")) {
    in.space = ir::Space::Shared;
  } else if (b.mods.take("param::entry")) {
    in.space = ir::Space::KernelParam;
  } else {
    auto s = b.mods.takeSpace();
    if (!s) b.fail("'" + b.opcodeText() + "' needs a state space");
    in.space = *s;
  }
  in.type = Type::U64;
  b.expectCount(2);
  b.addDst(b.dstPred(b.raw(0), false));
  b.addSrc(b.src(b.raw(1), Type::U64));
}

}  // namespace

bool lowerCompareMove(InstrBuilder& b) {
  std::string_view base = b.mods.base();
  if (base == "setp") lowerSetp(b);
  else if (base == "set") lowerSet(b);
  else if (base == "selp") lowerSelect(b, false);
  else if (base == "slct") lowerSelect(b, true);
  else if (base == "mov") lowerMov(b);
  else if (base == "cvt") lowerCvt(b);
  else if (base == "cvta") lowerCvta(b);
  else if (base == "isspacep") lowerIsspacep(b);
  else return false;
  return true;
}

}  // namespace warpsim::ptx::detail
