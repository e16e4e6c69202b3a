// makeMemorySystem (timing/sm_memory.h): parameters from the configuration, plug-ins from the
// registry by the names the configuration gives.
#include "timing/mem/mem_params_config.h"
#include "timing/mem/memory_system.h"
#include "timing/plugin_registry.h"

namespace warpsim::timing {

namespace {

class RegistryMemoryPlugins final : public mem::MemoryPlugins {
 public:
  RegistryMemoryPlugins(const PluginRegistry& registry, const mem::MemoryParams& params)
      : registry_(registry), params_(params) {}

  std::unique_ptr<mem::ICachePolicy> cachePolicy(const mem::ICachePolicy::Context& c) override {
    const std::string& name = std::string(c.level) == "l2" ? params_.l2.policy : params_.l1.policy;
    return registry_.make<mem::ICachePolicy>(name, c);
  }
  std::unique_ptr<mem::IMemoryCompression> compression(
      const mem::IMemoryCompression::Context& c) override {
    return registry_.make<mem::IMemoryCompression>(params_.l2.compression, c);
  }
  std::unique_ptr<mem::ILocalMemoryPath> localPath(
      const mem::ILocalMemoryPath::Context& c) override {
    return registry_.make<mem::ILocalMemoryPath>(params_.l1.localPath, c);
  }
  std::unique_ptr<mem::IAddressMapping> addressMapping(
      const mem::IAddressMapping::Context& c) override {
    return registry_.make<mem::IAddressMapping>(params_.dram.mapping, c);
  }
  std::unique_ptr<mem::IZonePlacement> zonePlacement(
      const std::string& name, const mem::IZonePlacement::Context& c) override {
    return registry_.make<mem::IZonePlacement>(name, c);
  }
  std::unique_ptr<mem::IPagePlacement> pagePlacement(
      const std::string& name, const mem::IPagePlacement::Context& c) override {
    return registry_.make<mem::IPagePlacement>(name, c);
  }

 private:
  const PluginRegistry& registry_;
  const mem::MemoryParams& params_;
};

}  // namespace

std::unique_ptr<MemorySystem> makeMemorySystem(const MemorySystemContext& context) {
  if (context.tree == nullptr)
    throw config::Error("config: error: the memory system needs a configuration");
  mem::MemoryParams params =
      mem::readMemoryParams(*context.tree, context.numSms, context.coreClockMhz, context.modules);
  params.warpSlotsPerSm = context.warpSlotsPerSm;
  if (context.registry == nullptr) {
    mem::BaselineMemoryPlugins baselines;
    return std::make_unique<mem::MemorySystemImpl>(params, baselines, context.memory, context.tree);
  }
  RegistryMemoryPlugins plugins(*context.registry, params);
  return std::make_unique<mem::MemorySystemImpl>(params, plugins, context.memory, context.tree);
}

}  // namespace warpsim::timing
