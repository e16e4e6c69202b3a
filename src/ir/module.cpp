#include "ir/module.h"

namespace warpsim::ir {

int Module::findFunction(const std::string& name) const {
  for (size_t i = 0; i < functions.size(); ++i)
    if (functions[i].name == name) return static_cast<int>(i);
  return -1;
}

int Module::findSymbol(const std::string& name) const {
  for (size_t i = 0; i < symbols.size(); ++i)
    if (symbols[i].name == name) return static_cast<int>(i);
  return -1;
}

}  // namespace warpsim::ir
