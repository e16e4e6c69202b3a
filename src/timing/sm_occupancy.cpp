#include "timing/sm_occupancy.h"

#include <algorithm>

#include <fmt/format.h>

namespace warpsim::timing {

namespace {
uint64_t roundUp(uint64_t v, uint64_t unit) { return unit == 0 ? v : (v + unit - 1) / unit * unit; }
}  // namespace

std::string computeOccupancy(const SmResourceLimits& l, const KernelResources& k, Occupancy* out,
                             CtaFootprint* footprint) {
  *out = Occupancy{};
  out->maxWarpsPerSm = l.maxWarps;
  const uint32_t warps = k.warpsPerCta();
  const uint64_t regsPerWarp =
      roundUp(uint64_t{k.registersPerThread + k.assistRegistersPerThread} * 32, l.registerUnit);
  // The check that a CTA fits at all rounds its warps up to the register file's partitions
  // (warp_allocation_granularity); the partitions then hold whole warps each (cuda_occupancy.h).
  const uint64_t regsPerCta = regsPerWarp * roundUp(warps, l.warpGranularity);
  const uint64_t sharedPerCta = roundUp(uint64_t{k.sharedBytesPerCta} + l.sharedReservedPerCta, l.sharedUnit);
  if (footprint != nullptr) *footprint = {regsPerCta, sharedPerCta};
  if (k.registersPerThread > l.maxRegsPerThread) {
    return fmt::format("{} registers per thread exceed the SM's limit of {}", k.registersPerThread,
                       l.maxRegsPerThread);
  }
  if (k.threadsPerCta > l.maxThreads) {
    return fmt::format("a CTA of {} threads exceeds the SM's {} threads", k.threadsPerCta, l.maxThreads);
  }
  if (warps > l.maxWarps) {
    return fmt::format("a CTA of {} warps exceeds the SM's {} warp slots", warps, l.maxWarps);
  }
  if (regsPerCta > l.registers) {
    return fmt::format("a CTA needs {} registers ({} per thread, {} threads), the SM has {}", regsPerCta,
                       k.registersPerThread + k.assistRegistersPerThread, k.threadsPerCta, l.registers);
  }
  if (sharedPerCta > l.sharedBytes) {
    return fmt::format("a CTA needs {} bytes of shared memory, the SM has {}", sharedPerCta, l.sharedBytes);
  }
  // Each limit alone; the smallest wins (ties name the first in this order).
  struct Limit {
    uint64_t ctas;
    const char* what;
  } limits[] = {
      {l.maxCtas, "ctas"},
      {l.maxWarps / std::max(warps, 1u), "warps"},
      {l.maxThreads / std::max(k.threadsPerCta, 1u), "threads"},
      {regsPerWarp == 0 ? UINT64_MAX : l.registers / l.warpGranularity / regsPerWarp * l.warpGranularity / warps,
       "registers"},
      {sharedPerCta == 0 ? UINT64_MAX : l.sharedBytes / sharedPerCta, "shared"},
  };
  const Limit* best = &limits[0];
  for (const Limit& x : limits) {
    if (x.ctas < best->ctas) best = &x;
  }
  out->ctasPerSm = static_cast<uint32_t>(best->ctas);
  out->warpsPerSm = out->ctasPerSm * warps;
  out->limitedBy = best->what;
  return {};
}

}  // namespace warpsim::timing
