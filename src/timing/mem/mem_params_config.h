// Reads the memory hierarchy's parameters from the configuration: sections [l1] [shared]
// [const] [icnt] [l2] [dram] and the icnt/l2/dram keys of [clocks]. Every key has a default
// (the GTX 480 values of mem_params.h), a range and a one-line description (README.md lists
// them). Throws config::Error for bad values.
#pragma once
#include <cstdint>

#include "config/config.h"
#include "timing/mem/mem_params.h"

namespace warpsim::timing::mem {

// modules: gpu.modules. [module_link] and [zone_placement] are read whatever it is (used only
// with more than one module).
MemoryParams readMemoryParams(config::Tree& tree, uint32_t numSms, double coreMhz,
                              uint32_t modules = 1);

}  // namespace warpsim::timing::mem
