#include "mech/gscalar/instruction_traits.h"

#include <algorithm>
#include <bit>

#include "timing/sm/unit_class.h"

namespace warpsim::mech::gscalar {
namespace {

// Special registers whose value differs between the lanes of a warp (or between reads).
bool laneVarying(ir::SpecialReg s) {
  switch (s) {
    case ir::SpecialReg::Tid: case ir::SpecialReg::LaneId:
    case ir::SpecialReg::LaneMaskEq: case ir::SpecialReg::LaneMaskLe: case ir::SpecialReg::LaneMaskLt:
    case ir::SpecialReg::LaneMaskGe: case ir::SpecialReg::LaneMaskGt:
    case ir::SpecialReg::Clock: case ir::SpecialReg::Clock64: case ir::SpecialReg::GlobalTimer:
    case ir::SpecialReg::GlobalTimerLo: case ir::SpecialReg::GlobalTimerHi:
      return true;
    default:
      return false;
  }
}

// Instructions that never run scalar: control flow, synchronisation, cross-lane operations whose
// result depends on the lane or the mask, and read-modify-writes where every lane updates memory.
bool neverScalar(ir::Op op) {
  switch (op) {
    case ir::Op::Bra: case ir::Op::Call: case ir::Op::Ret: case ir::Op::Exit: case ir::Op::Trap:
    case ir::Op::Brkpt: case ir::Op::Nanosleep: case ir::Op::Bar: case ir::Op::Membar:
    case ir::Op::Fence: case ir::Op::Vote: case ir::Op::Match: case ir::Op::Activemask:
    case ir::Op::Atom: case ir::Op::Red: case ir::Op::Prefetch:
      return true;
    default:
      return false;
  }
}

bool perThreadSpace(ir::Space s) { return s == ir::Space::Local || s == ir::Space::FrameParam; }

// Whether a memory instruction touches per-thread memory in any active lane.
bool touchesPerThreadMemory(const func::ExecRecord& r) {
  if (r.space != ir::Space::Generic) return perThreadSpace(r.space);
  for (uint32_t m = r.execMask; m != 0; m &= m - 1) {
    if (perThreadSpace(r.laneSpace[std::countr_zero(m)])) return true;
  }
  return false;
}

}  // namespace

InstructionTraits staticTraitsOf(const func::LinkedInstr& li) {
  const ir::Instr& in = li.in;
  InstructionTraits t;
  if (neverScalar(in.op)) return t;
  const timing::UnitClass unit = timing::unitFor(ir::opClass(in));
  switch (unit) {
    case timing::UnitClass::Alu: case timing::UnitClass::Fp64: t.cls = ScalarClass::Alu; break;
    case timing::UnitClass::Sfu: t.cls = ScalarClass::Sfu; break;
    case timing::UnitClass::Lsu:
      if (perThreadSpace(li.space)) return t;
      t.cls = ScalarClass::Mem;
      t.genericAccess = li.space == ir::Space::Generic;
      break;
    default: return t;
  }
  const unsigned n = std::min<unsigned>(in.numDst + in.numSrc, ir::kMaxOperands);
  for (unsigned k = in.numDst; k < n; ++k) {
    const ir::Operand& op = in.ops[k];
    if (op.kind == ir::OperandKind::Pred) t.uniformInputs = false;  // per-lane predicate data
    if (op.kind == ir::OperandKind::Special && laneVarying(op.sreg)) t.uniformInputs = false;
  }
  return t;
}

InstructionTraits traitsOf(const InstructionTraits& statics, const func::ExecRecord& record) {
  if (statics.genericAccess && touchesPerThreadMemory(record)) return InstructionTraits{};
  return statics;
}

}  // namespace warpsim::mech::gscalar
