// The record of one executed warp-instruction: the single product of the functional engine that
// the timing model, statistics and every storage mechanism consume.
//
// Lifetime: filled by Warp::step() (func/warp.h) into a caller-owned record that is reused for every step
// (no allocation). Pointers into register storage stay valid until the same warp executes its
// next instruction.
#pragma once
#include <cstdint>

#include "ir/instr.h"

namespace warpsim::hints {
struct AtomOp;
}

namespace warpsim::func {

struct ExecRecord {
  const ir::Instr* instr = nullptr;   // the decoded instruction (op, class, types, operands)
  uint32_t pc = 0;                    // instruction index within its function
  uint32_t function = 0;              // Module::functions index
  uint32_t warpInCta = 0;             // warp index within its CTA
  uint32_t ctaLinear = 0;             // linear CTA id within the grid
  uint32_t warpSlot = 0;              // the warp's slot on its SM (set by the timing model)
  uint32_t issueMask = 0;             // lanes active when the instruction issued (SIMT mask)
  uint32_t execMask = 0;              // lanes that executed: issueMask & guard

  // Registers written and read (value register indices in the current frame; kNoReg unused).
  uint8_t numDstRegs = 0;
  uint8_t numSrcRegs = 0;
  uint32_t dstRegs[4] = {};
  uint32_t srcRegs[6] = {};
  // dstValues[i][lane]: the 32 lane values of dstRegs[i] after execution (points into the warp's
  // register file).
  const uint64_t* dstValues[4] = {};
  bool writesPred = false;            // a predicate register was written (setp, vote, ...)

  // Memory (ld/ldu/st/atom/red/prefetch): resolved space (generic resolved per lane is reported
  // as the space of lane's address: see laneSpace), bytes per lane, and per-lane addresses.
  ir::Space space = ir::Space::None;
  uint8_t accessBytes = 0;            // bytes accessed per lane (vector size included)
  bool isStore = false;
  bool isAtomic = false;
  // The data a store or atomic writes, valid only when isStore or isAtomic is set (other
  // records leave these fields as an earlier record had them). One entry per data element:
  // st: the elements of the data operand (1, 2 or 4); red/atom: operand b, then c for atom.cas.
  // storeValues[k][lane] are the lane values of the element's register (points into the warp's
  // register file, like dstValues; the register may be wider than the element, the store
  // writes its low accessBytes / numStoreRegs bytes). For an immediate (or symbol address)
  // element storeValues[k] is nullptr and storeImm[k] holds its bits, the same for every lane.
  uint8_t numStoreRegs = 0;
  const uint64_t* storeValues[4] = {};
  uint64_t storeImm[4] = {};
  uint64_t addr[32] = {};             // valid for lanes in execMask; address in `space`
                                      // (global: device address; shared/local: offset;
                                      // generic: the generic address as issued)
  // Valid for lanes in execMask: the space each lane's access resolved to (for generic
  // accesses the window it fell in, see func/address_space.h; the offset within that space is
  // addr[lane] - windowBase(laneSpace[lane])). Equal to `space` for non-generic accesses.
  ir::Space laneSpace[32] = {};
  // Control flow.
  bool isBranch = false;
  uint32_t takenMask = 0;             // lanes that took the branch
  bool diverged = false;              // the branch split the warp
  // Atom operations (ir::Op::AtomHint: XMem's ATOM_* instructions), valid only when instr->op is
  // AtomHint: one per executing lane, in lane order, checked (points into the warp's storage,
  // like dstValues).
  const hints::AtomOp* atomOps = nullptr;
  uint32_t numAtomOps = 0;
};

}  // namespace warpsim::func
