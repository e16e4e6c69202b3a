// Where a request for part of an L2 line goes: its sectors within the line, and the L2 slice
// that holds the line (the channel the address mapping chose, and the slice within that channel
// by the granule's index there). The coalescer, the SMs' ports and functional warming share it.
#pragma once
#include <cstdint>

#include "timing/mem/i_address_mapping.h"

namespace warpsim::timing::mem {

// Sectors first..last inclusive (last < 32).
inline uint32_t sectorRange(uint32_t first, uint32_t last) {
  const uint64_t upTo = (uint64_t{1} << (last + 1)) - 1;
  return static_cast<uint32_t>(upTo & ~((uint64_t{1} << first) - 1));
}

// The slice of the line at `where` (IAddressMapping::map of it).
inline uint32_t sliceOf(const DramAddress& where, uint64_t granuleBytes, uint32_t slicesPerChannel) {
  return static_cast<uint32_t>(where.channel * slicesPerChannel +
                               (where.local / granuleBytes) % slicesPerChannel);
}

}  // namespace warpsim::timing::mem
