// Baseline resource manager "static": CUDA's occupancy calculation (see i_resource_manager.h).
#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "timing/baselines_internal.h"
#include "timing/i_resource_manager.h"
#include "timing/plugin_registry.h"
#include "timing/sm_resource_limits.h"

namespace warpsim::timing {

namespace {

uint64_t roundUp(uint64_t v, uint64_t unit) { return unit == 0 ? v : (v + unit - 1) / unit * unit; }

class StaticResourceManager final : public IResourceManager {
 public:
  explicit StaticResourceManager(const Context& context) {
    const SmResourceLimits l = SmResourceLimits::read(*context.tree);
    maxWarps_ = l.maxWarps;
    maxCtas_ = l.maxCtas;
    maxThreads_ = l.maxThreads;
    registers_ = l.registers;
    sharedBytes_ = l.sharedBytes;
    registerUnit_ = l.registerUnit;
    warpGranularity_ = l.warpGranularity;
    sharedUnit_ = l.sharedUnit;
    maxRegsPerThread_ = l.maxRegsPerThread;
  }

  std::string beginKernel(const KernelResources& k) override {
    resident_ = 0;
    admitted_ = 0;
    occupancy_ = Occupancy{};
    occupancy_.maxWarpsPerSm = maxWarps_;
    const uint32_t warps = k.warpsPerCta();
    const uint64_t regsPerWarp =
        roundUp(uint64_t{k.registersPerThread + k.assistRegistersPerThread} * 32, registerUnit_);
    // The check that a CTA fits at all rounds its warps up to the register file's partitions
    // (warp_allocation_granularity); the partitions then hold whole warps each (cuda_occupancy.h).
    const uint64_t regsPerCta = regsPerWarp * roundUp(warps, warpGranularity_);
    const uint64_t sharedPerCta = roundUp(k.sharedBytesPerCta, sharedUnit_);
    regsPerCta_ = regsPerCta;
    sharedPerCta_ = sharedPerCta;
    if (k.registersPerThread > maxRegsPerThread_) {
      return fmt::format("{} registers per thread exceed the SM's limit of {}", k.registersPerThread,
                         maxRegsPerThread_);
    }
    if (k.threadsPerCta > maxThreads_) {
      return fmt::format("a CTA of {} threads exceeds the SM's {} threads", k.threadsPerCta, maxThreads_);
    }
    if (warps > maxWarps_) {
      return fmt::format("a CTA of {} warps exceeds the SM's {} warp slots", warps, maxWarps_);
    }
    if (regsPerCta > registers_) {
      return fmt::format("a CTA needs {} registers ({} per thread, {} threads), the SM has {}",
                         regsPerCta, k.registersPerThread + k.assistRegistersPerThread,
                         k.threadsPerCta, registers_);
    }
    if (sharedPerCta > sharedBytes_) {
      return fmt::format("a CTA needs {} bytes of shared memory, the SM has {}", sharedPerCta,
                         sharedBytes_);
    }
    // Each limit alone; the smallest wins (ties name the first in this order).
    struct Limit {
      uint64_t ctas;
      const char* what;
    } limits[] = {
        {maxCtas_, "ctas"},
        {maxWarps_ / std::max(warps, 1u), "warps"},
        {maxThreads_ / std::max(k.threadsPerCta, 1u), "threads"},
        {regsPerWarp == 0 ? UINT64_MAX : registers_ / warpGranularity_ / regsPerWarp * warpGranularity_ / warps,
         "registers"},
        {sharedPerCta == 0 ? UINT64_MAX : sharedBytes_ / sharedPerCta, "shared"},
    };
    const Limit* best = &limits[0];
    for (const Limit& l : limits) {
      if (l.ctas < best->ctas) best = &l;
    }
    occupancy_.ctasPerSm = static_cast<uint32_t>(best->ctas);
    occupancy_.warpsPerSm = occupancy_.ctasPerSm * warps;
    occupancy_.limitedBy = best->what;
    return {};
  }

  bool canAdmit() const override { return resident_ < occupancy_.ctasPerSm; }
  void admit(uint32_t) override {
    ++resident_;
    ++admitted_;
  }
  void release(uint32_t) override { --resident_; }
  Occupancy occupancy() const override { return occupancy_; }

  void reportStats(nlohmann::json& out) const override {
    out["ctas_admitted"] = admitted_;
  }

 private:
  uint32_t maxWarps_, maxCtas_, maxThreads_, registers_, sharedBytes_;
  uint32_t registerUnit_, warpGranularity_, sharedUnit_, maxRegsPerThread_;
  Occupancy occupancy_;
  uint64_t regsPerCta_ = 0, sharedPerCta_ = 0;
  uint32_t resident_ = 0;
  uint64_t admitted_ = 0;
};

}  // namespace

void registerStaticResourceManager(PluginRegistry& registry) {
  registry.add<IResourceManager>(
      "static", "fixed registers, shared memory, warp and CTA slots per CTA (CUDA occupancy)",
      [](const IResourceManager::Context& c) { return std::make_unique<StaticResourceManager>(c); });
}

}  // namespace warpsim::timing
