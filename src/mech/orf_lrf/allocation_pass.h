// Compiler pass "orf-lrf": strands and the hierarchical allocation (strands.h, allocation.h)
// for every function of the program, published as two annotation tables: kPlacementTable
// (OperandPlacement per instruction, read by the "orf-lrf" register file) and the core's
// deschedule marks (every strand start: the two-level scheduler demotes a waiting warp only
// there, so no warp loses upper-level values in the middle of a strand).
#pragma once
#include <memory>

#include "timing/i_ir_pass.h"

namespace warpsim::mech::orf_lrf {

std::unique_ptr<timing::IIrPass> makeAllocationPass(config::Tree* tree);

}  // namespace warpsim::mech::orf_lrf
