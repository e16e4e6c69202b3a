#include "compiler/function_registers.h"

#include <algorithm>

namespace warpsim::compiler {

FunctionRegisters::FunctionRegisters(ir::Function& f) : f_(f) {
  valueWidth_.resize(f.regs.size());
  for (size_t r = 0; r < f.regs.size(); ++r) {
    unsigned bits = f.regs[r].bits ? f.regs[r].bits : ir::bits(f.regs[r].type);
    valueWidth_[r] = widthUnits(bits);
  }
  for (const ir::ConstReg& c : f.constRegs)
    if (c.reg < valueWidth_.size()) valueWidth_[c.reg] = 0;
  valueTemp_.assign(f.regs.size(), 0);
  predTemp_.assign(f.preds.size(), 0);
}

uint32_t FunctionRegisters::newValueTemp(ir::Type type, uint8_t bits) {
  const auto r = static_cast<uint32_t>(f_.regs.size());
  f_.regs.push_back({"%t" + std::to_string(r), type, bits});
  valueWidth_.push_back(widthUnits(bits));
  valueTemp_.push_back(1);
  return r;
}

uint32_t FunctionRegisters::newPredTemp() {
  const auto p = static_cast<uint32_t>(f_.preds.size());
  f_.preds.push_back("%tp" + std::to_string(p));
  predTemp_.push_back(1);
  return p;
}

uint32_t FunctionRegisters::constReg(int64_t value) {
  for (const ir::ConstReg& c : f_.constRegs)
    if (c.symbol == ir::kNoSymbol && c.value == value) return c.reg;
  const auto r = static_cast<uint32_t>(f_.regs.size());
  f_.regs.push_back({"", ir::Type::B64, 64});  // as the parser makes them
  f_.constRegs.push_back({r, value, ir::kNoSymbol});
  valueWidth_.push_back(0);
  valueTemp_.push_back(0);
  return r;
}

InstrRefs instrRefs(const ir::Instr& in, RegClass cls, const FunctionRegisters& regs) {
  InstrRefs out;
  auto addUnique = [](uint32_t* list, unsigned& n, uint32_t r) {
    if (std::find(list, list + n, r) == list + n) list[n++] = r;
  };
  forEachRegRef(in, [&](RegClass c, const uint32_t& r, bool isDef) {
    if (c != cls || !regs.allocatable(c, r)) return;
    if (isDef) {
      addUnique(out.defs, out.numDefs, r);
      if (in.guard != ir::kNoReg) addUnique(out.uses, out.numUses, r);
    } else {
      addUnique(out.uses, out.numUses, r);
    }
  });
  return out;
}

bool plainMove(const ir::Instr& in, const FunctionRegisters& regs, uint32_t& dst, uint32_t& src) {
  if (in.op != ir::Op::Mov || in.guard != ir::kNoReg || in.numDst != 1 || in.numSrc != 1) return false;
  const ir::Operand& d = in.ops[0];
  const ir::Operand& s = in.ops[1];
  if (d.kind != ir::OperandKind::Reg || s.kind != ir::OperandKind::Reg) return false;
  if (d.reg == ir::kNoReg || s.reg == ir::kNoReg || d.regBits != s.regBits) return false;
  if (!regs.allocatable(RegClass::Value, d.reg) || !regs.allocatable(RegClass::Value, s.reg)) return false;
  if (regs.width(RegClass::Value, d.reg) != regs.width(RegClass::Value, s.reg)) return false;
  dst = d.reg;
  src = s.reg;
  return true;
}

}  // namespace warpsim::compiler
