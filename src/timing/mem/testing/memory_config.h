// Memory parameters read from TOML text, for the tests of configuration keys: as a 15-SM GPU
// at 1400 MHz (gtx480's defaults for every key the text leaves out).
#pragma once
#include <string>

#include "timing/mem/mem_params_config.h"

namespace warpsim::timing::mem::testing {

inline MemoryParams memoryParamsOf(const std::string& toml) {
  config::Tree tree = config::Tree::fromString(toml);
  return readMemoryParams(tree, 15, 1400);
}

// The one-line error reading `toml` gives (empty when it reads).
inline std::string memoryConfigError(const std::string& toml) {
  try {
    memoryParamsOf(toml);
  } catch (const config::Error& e) {
    return e.what();
  }
  return {};
}

}  // namespace warpsim::timing::mem::testing
