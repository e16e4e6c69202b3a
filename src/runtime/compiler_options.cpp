#include "runtime/compiler_options.h"

#include <stdexcept>

#include "config/config.h"

namespace warpsim::runtime {

namespace {

// Why `text` is not a register budget ("" when it is).
std::string budgetProblem(const std::string& text) {
  try {
    compiler::parseRegisterBudget(text);
    return "";
  } catch (const std::invalid_argument&) {
    return "expected off, minimal or a register count from 1 to 255";
  }
}

}  // namespace

CompilerOptions readCompilerOptions(config::Tree& tree) {
  CompilerOptions o;
  const std::string text = tree.section("compiler").word(
      "registers", "off",
      "register allocation before execution: off (virtual registers), minimal (fewest "
      "registers without spills) or N (at most N per thread, spilling the rest to local memory)",
      budgetProblem);
  o.registers = compiler::parseRegisterBudget(text);
  return o;
}

}  // namespace warpsim::runtime
