// bindIntAlu: routes an instruction to the integer family binder that owns its opcode, and the
// bind-time checks and messages those binders share.
#include <string>

#include "func/alu/alu.h"
#include "func/alu/int_common.h"

namespace warpsim::func {
namespace intalu {


ExecFn unsupported(const ir::Instr& in, std::string* error, const std::string& why) {
  if (error != nullptr) {
    *error = std::string(ir::opName(in.op)) + "." + ir::typeName(in.type) + ": " + why;
  }
  return nullptr;
}

bool isRegLike(const ir::Operand& op) {
  return (op.kind == ir::OperandKind::Reg || op.kind == ir::OperandKind::Imm) &&
         op.reg != ir::kNoReg;
}

bool expectRegs(const ir::Instr& in, unsigned nDst, unsigned nSrc, std::string* error) {
  bool ok = in.numDst == nDst && in.numSrc == nSrc;
  for (unsigned i = 0; ok && i < nDst; ++i) {
    ok = in.dst(i).kind == ir::OperandKind::Reg && in.dst(i).reg != ir::kNoReg;
  }
  for (unsigned i = 0; ok && i < nSrc; ++i) ok = isRegLike(in.src(i));
  if (!ok) {
    unsupported(in, error,
                "expected " + std::to_string(nDst) + " destination register(s) and " +
                    std::to_string(nSrc) + " register or immediate source(s)");
  }
  return ok;
}

void execNothing(const ir::Instr&, ExecCtx&) {}

}  // namespace intalu

namespace {

// Ops shared with the float family belong to it when the instruction type is a float type.
bool floatTyped(const ir::Instr& in) { return ir::isFloat(in.type); }

// A single sink destination with no other effect: nothing to compute.
bool writesOnlySink(const ir::Instr& in) {
  return in.numDst == 1 && in.dst().kind == ir::OperandKind::Sink && !in.has(ir::kSetsCC);
}

}  // namespace

ExecFn bindIntAlu(const ir::Instr& in, std::string* error) {
  using ir::Op;
  if (error != nullptr) error->clear();
  ExecFn (*family)(const ir::Instr&, std::string*) = nullptr;
  switch (in.op) {
    case Op::Add: case Op::Sub:
      if (floatTyped(in)) return nullptr;
      family = intalu::bindAddSub;
      break;
    case Op::AddC: case Op::SubC:
      family = intalu::bindAddSub;
      break;
    case Op::Mul: case Op::Mad:
      if (floatTyped(in)) return nullptr;
      family = intalu::bindMulMad;
      break;
    case Op::MadC: case Op::Mul24: case Op::Mad24:
      family = intalu::bindMulMad;
      break;
    case Op::Div:
      if (floatTyped(in)) return nullptr;
      family = intalu::bindDivRem;
      break;
    case Op::Rem:
      family = intalu::bindDivRem;
      break;
    case Op::Abs: case Op::Neg: case Op::Min: case Op::Max:
      if (floatTyped(in)) return nullptr;
      family = intalu::bindSimpleArith;
      break;
    case Op::Sad:
      family = intalu::bindSimpleArith;
      break;
    case Op::Dp4a: case Op::Dp2a:
      family = intalu::bindDot;
      break;
    case Op::Popc: case Op::Clz: case Op::Bfind: case Op::Brev: case Op::Bfe: case Op::Bfi:
    case Op::Bmsk: case Op::Prmt:
      family = intalu::bindBitOps;
      break;
    case Op::Shl: case Op::Shr: case Op::Shf:
      family = intalu::bindShift;
      break;
    case Op::And: case Op::Or: case Op::Xor: case Op::Not: case Op::Cnot: case Op::Lop3:
      family = intalu::bindLogic;
      break;
    case Op::Setp:
      if (floatTyped(in)) return nullptr;
      return intalu::bindCompare(in, error);  // handles its own sinks
    case Op::Set:
      if (ir::isFloat(in.type2)) return nullptr;
      family = intalu::bindCompare;
      break;
    case Op::Selp: case Op::Slct:
      family = intalu::bindCompare;
      break;
    case Op::Mov:
      return intalu::bindMove(in, error);  // handles vectors, sinks and engine-side sources
    default:
      return nullptr;
  }
  if (writesOnlySink(in)) return intalu::execNothing;
  return family(in, error);
}

}  // namespace warpsim::func
