#include "timing/mem/baseline_plugins.h"

#include <bit>

namespace warpsim::timing::mem {

CompressedTransfer NoCompression::transfer(uint64_t, uint32_t sectors, bool) {
  return {static_cast<uint32_t>(std::popcount(sectors)), 0};
}

}  // namespace warpsim::timing::mem
