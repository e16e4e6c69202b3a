#include "runtime/compiler_options.h"

#include <stdexcept>

#include "config/config.h"

namespace warpsim::runtime {

namespace {

constexpr const char* kRegistersKey = "compiler.registers";

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

CompilerOptions compilerOptionsFromSets(const std::vector<std::string>& sets,
                                        const std::string& base) {
  std::vector<std::string> compilerSets;
  for (const std::string& set : sets) {
    const size_t eq = set.find('=');
    const size_t start = set.find_first_not_of(' ');
    if (eq == std::string::npos || start >= eq) continue;
    const size_t end = set.find_last_not_of(' ', eq - 1);
    if (set.substr(start, end - start + 1) == kRegistersKey) compilerSets.push_back(set);
  }
  if (compilerSets.empty()) return {};
  config::Tree tree = config::Tree::load(base, {}, compilerSets);
  return readCompilerOptions(tree);
}

}  // namespace warpsim::runtime
