// Finding and reserving a stretch of the host's virtual address space, so that managed memory
// can live at the same address on the host and in the simulated device (context.h).
#pragma once
#include <cstdint>

namespace warpsim::cudart {

// The lowest page-aligned address >= `from` where `bytes` bytes overlap no current mapping of
// this process (per /proc/self/maps), reserved there with PROT_NONE and nothing committed.
// Returns 0 when no such stretch was found and reserved.
uint64_t reserveHostRange(uint64_t from, uint64_t bytes);

}  // namespace warpsim::cudart
