// Register use/def of decoded instructions and the per-function liveness analysis behind
// Function::liveIn and Function::maxLiveRegs. Called by ir::analyze().
#pragma once
#include <cstdint>
#include <vector>

#include "ir/module.h"

namespace warpsim::ir {

// Value registers an instruction reads and writes (hidden constant registers included; the
// liveness analysis filters them out). Operands that are not value registers are skipped.
struct RegUses {
  uint32_t uses[kMaxOperands * 4] = {};
  uint32_t defs[kMaxOperands * 4] = {};
  unsigned numUses = 0, numDefs = 0;
};
RegUses regUses(const Instr& in);

// Fills f.liveIn (one bit set per block over f.regs; constant registers never set) and
// f.maxLiveRegs (peak number of live non-constant registers at any program point, dead
// definitions counted at their instruction). Needs f.blocks.
void computeLiveness(Function& f);

// Blocks, post-dominators, reconvergence points and liveness of one function.
void analyzeFunction(Function& f);

}  // namespace warpsim::ir
