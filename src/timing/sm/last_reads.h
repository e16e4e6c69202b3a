// Core compiler pass "last-reads": for every instruction, which of the value registers it reads
// are dead after it (the read is the last of that value on every path the warp can take).
// Register-file caches use it as the liveness hint that lets a dead value be dropped instead of
// written back (digest rf-hierarchy s5.2, "compiler liveness hints").
//
// SIMT-safe: a warp that diverges at a branch runs one side, then the other, before it
// reconverges, so a value the second side reads is still needed while the first side runs. The
// analysis therefore adds, from every block between a conditional branch and its reconvergence
// point, an edge back to each of the branch's successors before computing liveness. Guarded
// (predicated) definitions do not end the old value's life (inactive lanes keep it).
//
// Table kLastReads, one LastReads per instruction: bit i of deadAfter names the i-th distinct
// value register the instruction reads, in DecodedInstr::src order (decodeInstr).
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "func/program.h"
#include "timing/i_ir_pass.h"

namespace warpsim::timing {

inline constexpr const char* kLastReads = "last-reads";

struct LastReads {
  uint8_t deadAfter = 0;
};

// Fills `table` (sized for every function of `program`).
void computeLastReads(const func::Program& program, AnnotationTable<LastReads>& table);

std::unique_ptr<IIrPass> makeLastReadsPass();

}  // namespace warpsim::timing
