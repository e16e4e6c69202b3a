// Rebuilds a function's code with instructions inserted before/after or removed, keeping
// branch targets right: a branch to an instruction goes to the first instruction emitted for
// it (its reloads), or, when it was removed, to whatever is emitted next.
#pragma once
#include <vector>

#include "ir/module.h"

namespace warpsim::compiler {

struct InstrEdit {
  std::vector<ir::Instr> before, after;
  bool remove = false;
};

// `edits` has one entry per instruction of f.code.
void rebuildCode(ir::Function& f, std::vector<InstrEdit>& edits);

}  // namespace warpsim::compiler
