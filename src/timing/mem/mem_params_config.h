// Reads the memory hierarchy's parameters from the configuration: sections [l1] [shared]
// [const] [icnt] [l2] [dram] and the icnt/l2/dram keys of [clocks]. Every key has a default
// (the GTX 480 values of mem_params.h), a range and a one-line description (README.md lists
// them). Throws config::Error for bad values.
#pragma once
#include <cstdint>

#include "config/config.h"
#include "timing/mem/mem_params.h"

namespace warpsim::timing::mem {

MemoryParams readMemoryParams(config::Tree& tree, uint32_t numSms, double coreMhz);

}  // namespace warpsim::timing::mem
