// Spill code: the spill area (slots after the function's own local frame), the synthesized
// ld.local / st.local / selp / setp instructions, and the rewriting of spilled registers into
// per-instruction temporaries (or rematerialised copies of their definition).
#pragma once
#include <cstdint>
#include <vector>

#include "compiler/function_registers.h"
#include "compiler/register_allocation.h"

namespace warpsim::compiler {

// Slots at offsets relative to the start of the spill area; the area's place in the local
// frame (spillBase) is only known at the end, when finishSpillArea() adds it to every
// kSpill instruction's address.
class SpillArea {
 public:
  // A slot of `bytes` (4, 8 or 16), naturally aligned within the area.
  uint32_t newSlot(uint32_t bytes);
  uint32_t bytes() const { return size_; }
  uint32_t slots() const { return slots_; }
  uint32_t alignment() const { return align_; }

 private:
  uint32_t size_ = 0, slots_ = 0, align_ = 8;
};

// ld.local.bN reg, [local + offset] / st.local.bN [local + offset], reg, flagged kSpill and
// carrying the source position of `served`. `bits` is the register's declared width.
ir::Instr spillLoad(uint32_t reg, uint8_t bits, uint32_t offset, const ir::Instr& served);
ir::Instr spillStore(uint32_t reg, uint8_t bits, uint32_t offset, const ir::Instr& served);
uint32_t slotBytes(uint8_t bits);

// Rewrites every reference to the value registers `spilled` (not temporaries): remat values
// are re-computed before each use (their def removed), the others get a slot, a reload
// before each use and a store after each def, through a fresh temporary per instruction.
void spillValues(FunctionRegisters& regs, const std::vector<uint32_t>& spilled, SpillArea& area,
                 std::vector<int64_t>& valueSlot, FunctionAllocation& stats);
// The same for predicates, through a value temporary: selp + st.local / ld.local + setp.
void spillPredicates(FunctionRegisters& regs, const std::vector<uint32_t>& spilled, SpillArea& area,
                     std::vector<int64_t>& predSlot, FunctionAllocation& stats);

// Adds spillBase to the spill slots' addresses and grows the local frame; fills the spill
// fields of `stats`.
void finishSpillArea(ir::Function& f, const SpillArea& area, FunctionAllocation& stats);

}  // namespace warpsim::compiler
