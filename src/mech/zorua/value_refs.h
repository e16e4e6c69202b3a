// The value-register operands of an instruction as the "zorua-phases" pass counts them: Reg
// operands, Vector elements and address base registers, each with its width in bits; hidden
// constant registers (immediates and folded symbol addresses, ir/instr.h) are not registers a
// thread holds and are left out.
#pragma once
#include <cstdint>
#include <vector>

#include "ir/module.h"

namespace warpsim::mech::zorua {

// Which value registers of a function are hidden constants, and the module symbol a constant
// holds the address of (ir::kNoSymbol for plain immediates and for registers).
struct ConstantRegisters {
  explicit ConstantRegisters(const ir::Function& f)
      : isConst(f.regs.size(), 0), symbol(f.regs.size(), ir::kNoSymbol) {
    for (const ir::ConstReg& c : f.constRegs) {
      if (c.reg >= f.regs.size()) continue;
      isConst[c.reg] = 1;
      symbol[c.reg] = c.symbol;
    }
  }
  bool constant(uint32_t r) const { return r >= isConst.size() || isConst[r] != 0; }
  std::vector<uint8_t> isConst;
  std::vector<uint32_t> symbol;
};

// Width in bits of a register reference: the operand's declared width, else the register's.
inline unsigned refBits(const ir::Function& f, uint32_t r, uint8_t operandBits) {
  if (operandBits != 0) return operandBits;
  if (r < f.regs.size()) {
    if (f.regs[r].bits != 0) return f.regs[r].bits;
    return ir::bits(f.regs[r].type);
  }
  return 32;
}

// Calls fn(reg, bits, isDef) for each value-register operand of `in` that is not a constant.
template <class Fn>
void forEachValueRef(const ir::Function& f, const ConstantRegisters& consts, const ir::Instr& in, Fn&& fn) {
  const unsigned total = in.numDst + in.numSrc < ir::kMaxOperands ? in.numDst + in.numSrc : ir::kMaxOperands;
  for (unsigned i = 0; i < total; ++i) {
    const ir::Operand& op = in.ops[i];
    const bool isDst = i < in.numDst;
    switch (op.kind) {
      case ir::OperandKind::Reg:
        if (!consts.constant(op.reg)) fn(op.reg, refBits(f, op.reg, op.regBits), isDst);
        break;
      case ir::OperandKind::Address:  // a base register is read even in a destination position
        if (op.reg != ir::kNoReg && !consts.constant(op.reg)) fn(op.reg, refBits(f, op.reg, op.regBits), false);
        break;
      case ir::OperandKind::Vector:
        for (unsigned k = 0; k < op.count && k < 4; ++k)
          if (op.vec[k] != ir::kNoReg && !consts.constant(op.vec[k]))
            fn(op.vec[k], refBits(f, op.vec[k], op.regBits), isDst);
        break;
      default:
        break;
    }
  }
}

// 32-bit registers a value of `bits` bits takes (a 64-bit value: an aligned pair).
inline uint32_t widthUnits(unsigned bits) { return bits > 64 ? 4 : bits > 32 ? 2 : 1; }

}  // namespace warpsim::mech::zorua
