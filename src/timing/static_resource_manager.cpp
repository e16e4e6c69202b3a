// Baseline resource manager "static": CUDA's occupancy calculation (see i_resource_manager.h),
// and on GPUs whose L1 and shared memory share one array, the driver's carve-out per kernel
// (shared_carveout.h).
#include <nlohmann/json.hpp>

#include "timing/baselines_internal.h"
#include "timing/i_resource_manager.h"
#include "timing/plugin_registry.h"
#include "timing/shared_carveout.h"
#include "timing/sm_resource_limits.h"

namespace warpsim::timing {

namespace {

class StaticResourceManager final : public IResourceManager {
 public:
  explicit StaticResourceManager(const Context& context) : limits_(SmResourceLimits::read(*context.tree)) {}

  std::string beginKernel(const KernelResources& k) override {
    resident_ = 0;
    admitted_ = 0;
    return occupancyWithCarveout(limits_, k, &occupancy_);
  }

  bool canAdmit() const override { return resident_ < occupancy_.ctasPerSm; }
  void admit(uint32_t) override {
    ++resident_;
    ++admitted_;
  }
  void release(uint32_t) override { --resident_; }
  Occupancy occupancy() const override { return occupancy_; }
  std::optional<uint64_t> l1Bytes() const override {
    if (!occupancy_.carveout.chosen()) return std::nullopt;
    return occupancy_.carveout.l1Bytes;
  }

  void reportStats(nlohmann::json& out) const override {
    out["ctas_admitted"] = admitted_;
  }

 private:
  SmResourceLimits limits_;
  Occupancy occupancy_;
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
