// Resource manager "unified": the SM's register file, shared memory and L1 data cache are one
// pool (resources.unified.pool_bytes), divided per kernel by choosePartition (partition.h). CTAs
// are then admitted as the static manager admits them, up to the CTAs per SM the partition
// holds; the L1 gets the partition's share through the core's per-kernel carveout
// (IResourceManager::l1Bytes). The pool replaces sm.registers, sm.shared_bytes and l1.size;
// the SM's warp, thread and CTA slots and the allocation units stay those of the configuration.
#include <memory>

#include <nlohmann/json.hpp>

#include "mech/unified_storage/partition.h"
#include "mech/unified_storage/unified_resource_manager.h"
#include "timing/i_resource_manager.h"
#include "timing/plugin_registry.h"
#include "timing/sm_resource_limits.h"

namespace warpsim::mech::unified_storage {

namespace {

using timing::IResourceManager;

class UnifiedResourceManager final : public IResourceManager {
 public:
  explicit UnifiedResourceManager(const Context& context)
      : slots_(timing::SmResourceLimits::read(*context.tree)), pool_(readPool(*context.tree)) {}

  std::string beginKernel(const timing::KernelResources& k) override {
    resident_ = 0;
    admitted_ = 0;
    return choosePartition(pool_, slots_, k, &occupancy_);
  }
  bool canAdmit() const override { return resident_ < occupancy_.ctasPerSm; }
  void admit(uint32_t) override {
    ++resident_;
    ++admitted_;
  }
  void release(uint32_t) override { --resident_; }
  timing::Occupancy occupancy() const override { return occupancy_; }
  std::optional<uint64_t> l1Bytes() const override { return occupancy_.carveout.l1Bytes; }

  void reportStats(nlohmann::json& out) const override { out["ctas_admitted"] = admitted_; }

 private:
  static PoolParams readPool(config::Tree& tree) {
    config::Section s = tree.section("resources.unified");
    PoolParams p;
    p.poolBytes = s.u64("pool_bytes", p.poolBytes,
                        "bytes of unified storage per SM (registers, shared memory and L1)", 4096, uint64_t{1} << 30);
    p.maxL1Bytes = s.u64("max_l1_bytes", p.maxL1Bytes, "the largest L1 the tags provision", 0, uint64_t{1} << 30);
    p.minL1Bytes = s.u64("min_l1_bytes", p.minL1Bytes, "the L1 bytes a kernel always leaves", 0, p.poolBytes);
    p.l1Granularity = s.u64("l1_granularity", p.l1Granularity, "L1 sizes are multiples of this many bytes", 1,
                            uint64_t{1} << 30);
    p.maxThreads = s.u32("max_threads", p.maxThreads,
                         "threads per SM at most (0: as many as fit; fewer leave more L1 per thread)", 0, 1 << 16);
    return p;
  }

  timing::SmResourceLimits slots_;
  PoolParams pool_;
  timing::Occupancy occupancy_;
  uint32_t resident_ = 0;
  uint64_t admitted_ = 0;
};

}  // namespace

void registerUnifiedResourceManager(timing::PluginRegistry& registry) {
  registry.add<IResourceManager>(
      "unified", "registers, shared memory and L1 from one pool per SM, divided per kernel",
      [](const IResourceManager::Context& c) { return std::make_unique<UnifiedResourceManager>(c); });
}

}  // namespace warpsim::mech::unified_storage
