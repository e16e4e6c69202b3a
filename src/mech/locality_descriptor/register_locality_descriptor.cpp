// Registration of the Locality Descriptor mechanism's implementations (src/mech/CMakeLists.txt
// calls this): the CTA scheduler "clusters" (cluster_cta_scheduler.h), the L1 cache policy
// "descriptors" (descriptor_cache_policy.h: bypass, pinning, the guided prefetcher) and the zone
// placement "descriptors" (descriptor_zone_placement.h: Algorithm 2's bits per structure).
#include <string>

#include "mech/locality_descriptor/cluster_cta_scheduler.h"
#include "mech/locality_descriptor/descriptor_cache_policy.h"
#include "mech/locality_descriptor/descriptor_zone_placement.h"
#include "timing/plugin_registry.h"

namespace warpsim::timing {

void registerMechanism_locality_descriptor(PluginRegistry& registry) {
  registry.add<ICtaScheduler>(
      "clusters",
      "clusters of CTAs on one SM: Algorithm 1's from the locality descriptors (LDesc-Sched), or pairs (BCS)",
      [](const ICtaScheduler::Context& c) {
        return std::make_unique<mech::locality_descriptor::ClusterCtaScheduler>(c);
      });
  registry.add<mem::ICachePolicy>(
      "descriptors",
      "the locality descriptors' L1 policies: NO_REUSE bypass, hard and soft pinning, guided prefetch",
      [](const mem::ICachePolicy::Context& c) -> std::unique_ptr<mem::ICachePolicy> {
        if (std::string(c.level) != "l1") {
          throw config::Error(std::string("config: error: ") + c.level +
                              ".policy: \"descriptors\" acts at the L1 only (l1.policy)");
        }
        const auto options = c.tree != nullptr
                                 ? mech::locality_descriptor::DescriptorPolicyOptions::read(*c.tree)
                                 : mech::locality_descriptor::DescriptorPolicyOptions{};
        return std::make_unique<mech::locality_descriptor::DescriptorCachePolicy>(options,
                                                                                 c.lineBytes);
      });
  registry.add<mem::IZonePlacement>(
      "descriptors",
      "each described structure interleaved across the zones at the bit Algorithm 2 chooses from the "
      "launch's locality descriptors; xor elsewhere",
      [](const mem::IZonePlacement::Context& c) {
        return std::make_unique<mech::locality_descriptor::DescriptorZonePlacement>(c.zones, c.xorBit);
      });
}

}  // namespace warpsim::timing
