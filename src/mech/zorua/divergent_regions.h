// Where a warp may be split by control flow (the divergent regions of a function), for the
// "zorua-phases" pass: phase boundaries go only at convergent points, and register liveness adds
// the SIMT edges of each region (lanes parked on one side keep their values while the other side
// runs).
//
// A divergent terminator is a conditional branch that is not `bra.uni`, or a guarded `ret` in a
// function that is not a kernel (the lanes that return wait at the call for the others). A
// guarded `exit`/`trap`, and a guarded `ret` in a kernel, end the lanes that take it: the warp
// goes on with fewer lanes, undivided. The region of a divergent terminator in block b is the set
// of blocks reachable from b's successors without entering b's reconvergence block (its
// immediate post-dominator, ir::BasicBlock::ipdom; the function exit when there is none). A
// loop whose exit branch is divergent is therefore one region, its head included.
#pragma once
#include <cstdint>
#include <vector>

#include "ir/module.h"

namespace warpsim::mech::zorua {

struct DivergentRegion {
  uint32_t branchBlock = 0;          // the block the divergent terminator ends
  std::vector<uint32_t> blocks;      // the region's blocks, ascending
};

struct DivergentRegions {
  std::vector<DivergentRegion> regions;  // one per divergent terminator, by block
  std::vector<uint8_t> divergentPc;      // per instruction: inside some region
};

bool isDivergentTerminator(const ir::Function& f, const ir::Instr& in);
DivergentRegions findDivergentRegions(const ir::Function& f);

}  // namespace warpsim::mech::zorua
