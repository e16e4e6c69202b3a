// Enumerates every register reference of an instruction, in place, so that one loop serves
// liveness, interference, spill rewriting and the final renaming: value registers (Reg, the
// hidden constant of Imm/Symbol operands, Address bases, Vector elements) and predicate
// registers (Pred operands and the guard).
#pragma once
#include <cstdint>
#include <type_traits>

#include "ir/instr.h"

namespace warpsim::compiler {

enum class RegClass : uint8_t { Value, Pred };

// Calls fn(RegClass, Reg& index, bool isDef) for every register reference of `in` (Reg is
// uint32_t, const when `in` is). Constant registers are reported like any value register; the
// caller tells them apart. A guarded instruction's defs are reported as defs only; callers
// treat them as use + def.
template <class InstrT, class Fn>
void forEachRegRef(InstrT& in, Fn&& fn) {
  const unsigned total = in.numDst + in.numSrc < ir::kMaxOperands ? in.numDst + in.numSrc : ir::kMaxOperands;
  for (unsigned i = 0; i < total; ++i) {
    auto& op = in.ops[i];
    const bool isDst = i < in.numDst;
    switch (op.kind) {
      case ir::OperandKind::Reg:
        if (op.reg != ir::kNoReg) fn(RegClass::Value, op.reg, isDst);
        break;
      case ir::OperandKind::Imm:
      case ir::OperandKind::Symbol:
      case ir::OperandKind::Address:  // a base register is read even in a destination position
        if (op.reg != ir::kNoReg) fn(RegClass::Value, op.reg, false);
        break;
      case ir::OperandKind::Vector:
        for (unsigned k = 0; k < op.count && k < 4; ++k)
          if (op.vec[k] != ir::kNoReg) fn(RegClass::Value, op.vec[k], isDst);
        break;
      case ir::OperandKind::Pred:
        if (op.reg != ir::kNoReg) fn(RegClass::Pred, op.reg, isDst);
        break;
      default:
        break;
    }
  }
  if (in.guard != ir::kNoReg) fn(RegClass::Pred, in.guard, false);
}

// Cross-lane operations may write a destination lane before reading every source lane.
inline bool isCrossLane(const ir::Instr& in) {
  return in.op == ir::Op::Shfl || in.op == ir::Op::Vote || in.op == ir::Op::Match;
}

}  // namespace warpsim::compiler
