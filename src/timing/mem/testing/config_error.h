// The one-line error reading a memory configuration gives (empty when it reads): for the tests
// of bad parameters.
#pragma once
#include <string>

#include "timing/mem/mem_params_config.h"

namespace warpsim::timing::mem::testing {

// Reads `toml` as a 15-SM GPU at 1400 MHz (gtx480's defaults for every key it leaves out).
inline std::string memoryConfigError(const std::string& toml) {
  config::Tree tree = config::Tree::fromString(toml);
  try {
    readMemoryParams(tree, 15, 1400);
  } catch (const config::Error& e) {
    return e.what();
  }
  return {};
}

}  // namespace warpsim::timing::mem::testing
