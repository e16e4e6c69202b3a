// Registration of the Locality Descriptor mechanism's implementations (src/mech/CMakeLists.txt
// calls this): so far the CTA scheduler "clusters" (cluster_cta_scheduler.h); the cache
// policies, prefetcher and address mapping will register here.
#include "mech/locality_descriptor/cluster_cta_scheduler.h"
#include "timing/plugin_registry.h"

namespace warpsim::timing {

void registerMechanism_locality_descriptor(PluginRegistry& registry) {
  registry.add<ICtaScheduler>(
      "clusters",
      "clusters of CTAs on one SM: Algorithm 1's from the locality descriptors (LDesc-Sched), or pairs (BCS)",
      [](const ICtaScheduler::Context& c) {
        return std::make_unique<mech::locality_descriptor::ClusterCtaScheduler>(c);
      });
}

}  // namespace warpsim::timing
