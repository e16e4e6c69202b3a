// The last step of allocating a function: call saves around calls, removal of moves that
// coalescing made `mov R, R`, and the renaming of virtual registers to physical ones.
#pragma once
#include <cstdint>
#include <vector>

#include "compiler/function_registers.h"
#include "compiler/spill_code.h"

namespace warpsim::compiler {

// Caller-saved convention: every value register live after a call to a function with a body
// (printf and extern callees excluded) is stored before the call and reloaded after it, in the
// same register, from its own slot.
void insertCallSaves(const ir::Module& m, FunctionRegisters& regs, SpillArea& area,
                     std::vector<int64_t>& valueSlot, FunctionAllocation& stats);

// Predicates live after such a call (they are spilled instead of saved).
std::vector<uint32_t> predicatesLiveAcrossCalls(const ir::Module& m, const FunctionRegisters& regs);

// Renames registers to colours, deletes `mov R, R`, rebuilds Function::regs / preds /
// constRegs and fills registers, predicates and coalescedMoves.
void rewriteToPhysical(FunctionRegisters& regs, const std::vector<int32_t>& valueColour,
                       const std::vector<int32_t>& predColour, FunctionAllocation& stats);

}  // namespace warpsim::compiler
