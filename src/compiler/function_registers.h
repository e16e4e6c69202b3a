// The allocator's view of one function's registers: widths in 32-bit units, which value
// registers are hidden constants (never allocated) and which registers are temporaries made by
// spilling (never spilled again), plus the distinct register references of an instruction.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "compiler/operand_walker.h"
#include "ir/module.h"

namespace warpsim::compiler {

// Width in 32-bit register units of a register of `bits` bits: 1, 2 or 4.
inline uint8_t widthUnits(unsigned bits) { return bits > 64 ? 4 : bits > 32 ? 2 : 1; }

class FunctionRegisters {
 public:
  explicit FunctionRegisters(ir::Function& f);

  ir::Function& fn() { return f_; }
  const ir::Function& fn() const { return f_; }
  uint32_t count(RegClass c) const { return c == RegClass::Value ? uint32_t(valueWidth_.size()) : uint32_t(predTemp_.size()); }
  // 0 for a constant register (not allocatable).
  uint8_t width(RegClass c, uint32_t r) const { return c == RegClass::Value ? valueWidth_[r] : 1; }
  bool allocatable(RegClass c, uint32_t r) const { return c == RegClass::Pred || valueWidth_[r] != 0; }
  bool isTemp(RegClass c, uint32_t r) const { return c == RegClass::Value ? valueTemp_[r] : predTemp_[r]; }

  // New temporaries (spill reloads/stores, rematerialised values).
  uint32_t newValueTemp(ir::Type type, uint8_t bits);
  uint32_t newPredTemp();
  // A hidden constant register holding `value` (an existing one when there is one).
  uint32_t constReg(int64_t value);

 private:
  ir::Function& f_;
  std::vector<uint8_t> valueWidth_;
  std::vector<uint8_t> valueTemp_, predTemp_;
};

// The distinct allocatable registers of one class an instruction reads and writes. A guarded
// def is also listed as a use (the guard may be false and keep the old value).
struct InstrRefs {
  uint32_t uses[ir::kMaxOperands * 4 + 1];
  uint32_t defs[ir::kMaxOperands * 4];
  unsigned numUses = 0, numDefs = 0;
};
InstrRefs instrRefs(const ir::Instr& in, RegClass cls, const FunctionRegisters& regs);

// `mov` d, s between two value registers of the same width, unguarded: the move exception of
// the interference graph and the coalescing candidates. Returns false otherwise.
bool plainMove(const ir::Instr& in, const FunctionRegisters& regs, uint32_t& dst, uint32_t& src);

}  // namespace warpsim::compiler
