#include "mech/unified_storage/partition.h"

#include <algorithm>

#include <fmt/format.h>

#include "timing/sm_occupancy.h"

namespace warpsim::mech::unified_storage {

namespace {
constexpr uint64_t kRegisterBytes = 4;

std::string kib(uint64_t bytes) {
  return bytes % 1024 == 0 ? fmt::format("{} KB", bytes / 1024) : fmt::format("{:.1f} KB", bytes / 1024.0);
}
}  // namespace

std::string choosePartition(const PoolParams& pool, const timing::SmResourceLimits& slots,
                            const timing::KernelResources& k, timing::Occupancy* out) {
  // The slots alone (registers and shared memory unbounded): CTAs per SM they allow, and one
  // CTA's footprint in the allocation units; the pool is checked below.
  timing::SmResourceLimits unbounded = slots;
  unbounded.registers = UINT32_MAX;
  unbounded.sharedBytes = UINT32_MAX;
  timing::CtaFootprint cta;
  timing::Occupancy bySlots;
  const uint64_t room = pool.poolBytes - std::min(pool.minL1Bytes, pool.poolBytes);
  std::string why = timing::computeOccupancy(unbounded, k, &bySlots, &cta);
  const uint64_t ctaBytes = cta.registers * kRegisterBytes + cta.sharedBytes;
  if (why.empty() && ctaBytes > room) {
    why = fmt::format("one CTA needs {} of registers ({} per thread, {} threads) and {} of shared memory, "
                      "more than the {} unified pool{}",
                      kib(cta.registers * kRegisterBytes), k.registersPerThread + k.assistRegistersPerThread,
                      k.threadsPerCta, kib(cta.sharedBytes), kib(pool.poolBytes),
                      pool.minL1Bytes == 0 ? "" : fmt::format(" leaves beside the L1's {}", kib(pool.minL1Bytes)));
  }
  if (!why.empty()) {
    *out = timing::Occupancy{};
    out->maxWarpsPerSm = slots.maxWarps;
    return why;
  }
  uint64_t ctas = bySlots.ctasPerSm;
  const char* limitedBy = bySlots.limitedBy;
  if (ctaBytes != 0 && room / ctaBytes < ctas) {
    ctas = room / ctaBytes;
    limitedBy = "pool";
  }
  if (pool.maxThreads != 0 && k.threadsPerCta != 0) {
    const uint64_t capped = std::max<uint64_t>(pool.maxThreads / k.threadsPerCta, 1);
    if (capped < ctas) {
      ctas = capped;
      limitedBy = "max_threads";
    }
  }
  *out = bySlots;
  out->ctasPerSm = static_cast<uint32_t>(ctas);
  out->warpsPerSm = out->ctasPerSm * k.warpsPerCta();
  out->limitedBy = limitedBy;
  timing::Carveout& c = out->carveout;
  c.registerBytes = ctas * cta.registers * kRegisterBytes;
  c.sharedBytes = ctas * cta.sharedBytes;
  const uint64_t rest = pool.poolBytes - c.registerBytes - c.sharedBytes;
  const uint64_t granule = std::max<uint64_t>(pool.l1Granularity, 1);
  c.l1Bytes = std::min(rest / granule * granule, pool.maxL1Bytes / granule * granule);
  c.unusedBytes = rest - c.l1Bytes;
  return {};
}

}  // namespace warpsim::mech::unified_storage
