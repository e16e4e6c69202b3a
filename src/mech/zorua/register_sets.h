// Register needs of every instruction of a function, in 32-bit registers and in sets of
// timing::kRegistersPerSet (= 4) registers, for the "zorua-phases" pass.
//
// Liveness is the usual backward analysis over value registers (a guarded write kills nothing;
// hidden constant registers are not registers), run over the CFG with the SIMT edges of every
// divergent region added (divergent_regions.h): while one side of a divergent branch runs, the
// lanes parked on the other side keep their values, so a value the other side still reads is
// live on this side too.
//
// Registers are placed in one of two ways:
//  * physical (the program went through the register allocator, compiler/register_allocation.h:
//    every value register that is not a constant is named %R<index>): register index r is the
//    physical register Rr; a 64-bit reference to r takes r and r+1 (a 128-bit one r..r+3);
//  * virtual (no allocation): each virtual register gets the 32-bit registers a simple
//    allocator would give it: registers that are live at the same time (interfere) never share
//    one; in the order of their first reference, each takes the lowest free run of widthUnits
//    registers aligned to its width. Set s then means the allocated registers 4s .. 4s+3.
// A register beyond 255 counts in set 63.
#pragma once
#include <cstdint>
#include <vector>

#include "ir/module.h"
#include "mech/zorua/divergent_regions.h"
#include "timing/instruction_annotations.h"

namespace warpsim::mech::zorua {

struct RegisterNeeds {
  bool physical = false;
  uint32_t registers = 0;                 // 32-bit registers the placement uses (highest + 1)
  // Per instruction: the 32-bit registers live into it or written by it (its register need at
  // that point; with virtual registers, the registers their placement occupies: a result may
  // take the register of a source the same instruction reads for the last time), the sets
  // holding them, and the sets of its own operands (sources and destinations).
  std::vector<uint32_t> liveCount;
  std::vector<uint64_t> liveSets;
  std::vector<uint64_t> instructionSets;
  uint32_t maxLive = 0;                   // the largest liveCount
};

// Whether the function's value registers are the allocator's physical registers.
bool hasPhysicalRegisters(const ir::Function& f);

RegisterNeeds analyzeRegisters(const ir::Function& f, const DivergentRegions& regions);

// Set bit of 32-bit register `unit` (registers above 255 in set 63).
inline uint64_t setBitOf(uint32_t unit) {
  const uint32_t s = unit / timing::kRegistersPerSet;
  return uint64_t{1} << (s < 63 ? s : 63);
}

}  // namespace warpsim::mech::zorua
