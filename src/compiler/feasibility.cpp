#include "compiler/feasibility.h"

#include <algorithm>

namespace warpsim::compiler {

uint32_t operandNeed(const ir::Instr& in, const FunctionRegisters& regs) {
  const InstrRefs refs = instrRefs(in, RegClass::Value, regs);
  uint32_t defUnits = 0, useUnits = 0, useOnlyUnits = 0;
  for (unsigned k = 0; k < refs.numDefs; ++k) defUnits += regs.width(RegClass::Value, refs.defs[k]);
  for (unsigned k = 0; k < refs.numUses; ++k) {
    const uint32_t r = refs.uses[k];
    useUnits += regs.width(RegClass::Value, r);
    if (std::find(refs.defs, refs.defs + refs.numDefs, r) == refs.defs + refs.numDefs)
      useOnlyUnits += regs.width(RegClass::Value, r);
  }
  if (refs.numDefs > 1 || isCrossLane(in)) return defUnits + useOnlyUnits;
  return std::max(defUnits, useUnits);
}

Feasibility feasibility(const FunctionRegisters& regs) {
  Feasibility out;
  for (const ir::Instr& in : regs.fn().code) {
    const uint32_t need = operandNeed(in, regs);
    if (need > out.minimum) {
      out.minimum = need;
      out.worstLine = in.line;
    }
  }
  return out;
}

}  // namespace warpsim::compiler
