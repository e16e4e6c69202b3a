// The [compiler] keys the runtime applies when it loads a module, in either mode:
//
//   [compiler]
//   registers = "off"      # "off", "minimal" or N: allocate every function onto N physical
//                          # registers with spill code (src/compiler/register_allocation.h)
//
// `warpsim run --max-registers X` sets compiler.registers=X.
#pragma once
#include <string>
#include <vector>

#include "compiler/register_allocation.h"

namespace warpsim::config {
class Tree;
}

namespace warpsim::runtime {

struct CompilerOptions {
  compiler::RegisterBudget registers;  // compiler.registers
};

// Reads (and so declares) the compiler keys the runtime uses. Throws config::Error naming the
// file and line of a bad value.
CompilerOptions readCompilerOptions(config::Tree& tree);

}  // namespace warpsim::runtime
