// CUDA's occupancy calculation (cuda_occupancy.h's rules) for one kernel on one SM with the
// given limits: the resident CTAs each limit allows alone, the smallest wins. Shared by the
// resource managers that allocate per CTA (the baseline "static" one, and managers that first
// choose the SM's limits per kernel, such as a unified register/shared/L1 pool).
#pragma once
#include <cstdint>
#include <string>

#include "timing/i_resource_manager.h"
#include "timing/kernel_resources.h"
#include "timing/sm_resource_limits.h"

namespace warpsim::timing {

struct CtaFootprint {
  uint64_t registers = 0;    // registers one CTA takes (rounded to the allocation units)
  uint64_t sharedBytes = 0;  // shared bytes one CTA takes (rounded to the allocation unit)
};

// Fills *occupancy (and *footprint when not null) and returns "", or returns why one CTA of the
// kernel can never fit (one line, naming the limit and the numbers).
std::string computeOccupancy(const SmResourceLimits& limits, const KernelResources& kernel,
                             Occupancy* occupancy, CtaFootprint* footprint = nullptr);

}  // namespace warpsim::timing
