// The per-kernel division of an SM's unified storage pool — one array of banks holding the
// register file, shared memory and the L1 data cache — by the allocation algorithm of the
// unified-storage study (Gebhart's thesis §7.3.5; digest rf-hierarchy-and-unified-memory.md §7.4):
//   1. registers per thread: the kernel's, as the register allocator gave them (the overlays
//      allocate with compiler.registers = "minimal", the fewest registers without spills);
//   2. shared memory per CTA: the kernel's request;
//   3. CTAs per SM: as many as the SM's warp, thread and CTA slots allow and the pool holds
//      beside the L1's minimum, at most `maxThreads` threads (0: no cap). The cap is the
//      study's cache-sensitive exception, fewer threads for more cache per thread: the study
//      leaves that choice to the runtime or an autotuner, so here it is a key;
//   4. L1: the rest, rounded down to `l1Granularity` and at most `maxL1Bytes` (the tags the
//      design provisions); what is left over is unused.
#pragma once
#include <cstdint>
#include <string>

#include "timing/i_resource_manager.h"
#include "timing/kernel_resources.h"
#include "timing/sm_resource_limits.h"

namespace warpsim::mech::unified_storage {

struct PoolParams {
  uint64_t poolBytes = 384 * 1024;      // the unified storage per SM
  uint64_t maxL1Bytes = 256 * 1024;     // the largest L1 (tags provisioned for it)
  uint64_t minL1Bytes = 0;              // the smallest L1 a kernel leaves room for
  uint64_t l1Granularity = 16 * 1024;   // L1 sizes are multiples of this
  uint32_t maxThreads = 0;              // threads per SM at most (0: as many as fit)
};

// Fills *occupancy (with its carveout) and returns "", or returns why one CTA can never fit
// (one line naming what does not fit). `slots`: the SM's warp, thread and CTA slots and the
// allocation units (its register and shared sizes are not used: the pool replaces them).
std::string choosePartition(const PoolParams& pool, const timing::SmResourceLimits& slots,
                            const timing::KernelResources& kernel, timing::Occupancy* occupancy);

}  // namespace warpsim::mech::unified_storage
