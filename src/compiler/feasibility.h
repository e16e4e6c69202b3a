// The smallest budget that can hold every instruction's operands once everything else is
// spilled: per instruction the width units of its distinct value registers, sources and
// destinations counted together when they must not share registers, else the larger side.
#pragma once
#include <cstdint>

#include "compiler/function_registers.h"

namespace warpsim::compiler {

struct Feasibility {
  uint32_t minimum = 0;      // max over instructions
  uint32_t worstLine = 0;    // PTX line of the first instruction that needs `minimum`
};

// Registers instruction `in` needs at once.
uint32_t operandNeed(const ir::Instr& in, const FunctionRegisters& regs);
Feasibility feasibility(const FunctionRegisters& regs);

}  // namespace warpsim::compiler
