// The shared-memory carve-out of a kernel on GPUs whose L1 data cache and shared memory share
// one array (sm.l1_shared_bytes): the driver gives each kernel one of the supported shared
// sizes (sm.shared_carveouts) and the L1 the rest of the array.
//
// Without a preference the driver avoids a shared-memory occupancy limit (CUDA C++
// Programming Guide, compute capability 7.x "Shared Memory"): occupancy is computed with the
// largest carve-out, and the kernel gets the smallest carve-out that holds that many CTAs'
// shared memory, so a kernel without shared memory gets the whole array as L1.
// A preference (cudaFuncAttributePreferredSharedMemoryCarveout, in percent of the largest
// carve-out; cudaFuncSetCacheConfig maps to one) is a hint: the kernel gets the smallest
// supported size of at least that percentage, or of one CTA's shared memory if that is more,
// and its occupancy is computed with that size.
#pragma once
#include <cstdint>
#include <string>

#include "timing/i_resource_manager.h"
#include "timing/kernel_resources.h"
#include "timing/sm_resource_limits.h"

namespace warpsim::timing {

// Fills *occupancy with the kernel's occupancy and, when limits.unifiedBytes is not 0, its
// carve-out (Occupancy::carveout: registers, shared memory, L1). Returns "" or why no CTA of
// the kernel fits (as computeOccupancy).
std::string occupancyWithCarveout(const SmResourceLimits& limits, const KernelResources& kernel,
                                  Occupancy* occupancy);

// The smallest supported carve-out of at least `bytes` (the largest when none is that big).
uint32_t smallestCarveout(const SmResourceLimits& limits, uint64_t bytes);

}  // namespace warpsim::timing
