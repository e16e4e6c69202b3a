#include "compiler/rematerialise.h"

namespace warpsim::compiler {
namespace {

bool stableSpecial(ir::SpecialReg s) {
  using S = ir::SpecialReg;
  return s == S::Tid || s == S::Ntid || s == S::Ctaid || s == S::Nctaid || s == S::LaneId ||
         s == S::GridId || s == S::NSmId;
}

bool recomputable(const ir::Instr& in) {
  if (in.guard != ir::kNoReg || in.numDst != 1 || in.numSrc != 1) return false;
  if (in.ops[0].kind != ir::OperandKind::Reg) return false;
  const ir::Operand& s = in.ops[1];
  if (in.op == ir::Op::Mov) {
    if (s.kind == ir::OperandKind::Imm || s.kind == ir::OperandKind::Symbol) return true;
    return s.kind == ir::OperandKind::Special && stableSpecial(s.sreg);
  }
  if (in.op == ir::Op::Ld && in.space == ir::Space::KernelParam && !in.has(ir::kVolatile) && in.vec <= 1)
    return s.kind == ir::OperandKind::Address && s.base == ir::AddrBase::KernelParam && s.reg == ir::kNoReg;
  return false;
}

}  // namespace

std::vector<uint32_t> rematerialisableDefs(const FunctionRegisters& regs) {
  const ir::Function& f = regs.fn();
  const uint32_t n = regs.count(RegClass::Value);
  std::vector<uint32_t> defCount(n, 0), defAt(n, ir::kNoTarget);
  for (uint32_t i = 0; i < f.code.size(); ++i)
    forEachRegRef(f.code[i], [&](RegClass c, const uint32_t& r, bool isDef) {
      if (c == RegClass::Value && isDef && regs.allocatable(c, r)) {
        ++defCount[r];
        defAt[r] = i;
      }
    });
  std::vector<uint32_t> out(n, ir::kNoTarget);
  for (uint32_t r = 0; r < n; ++r)
    if (defCount[r] == 1 && recomputable(f.code[defAt[r]])) out[r] = defAt[r];
  return out;
}

}  // namespace warpsim::compiler
