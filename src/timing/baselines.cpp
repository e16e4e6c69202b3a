// registerBaselines: the core's baseline implementation of every extension point — the top
// level's own (CTA scheduler, resource manager, IR pass), the SM pipeline's and the memory
// hierarchy's.
#include "timing/baselines_internal.h"
#include "timing/plugin_registry.h"
#include "timing/mem/register_memory_baselines.h"
#include "timing/sm/sm_baselines.h"

namespace warpsim::timing {

void registerBaselines(PluginRegistry& registry) {
  registerRoundRobinCtaScheduler(registry);
  registerContiguousCtaScheduler(registry);
  registerStaticResourceManager(registry);
  registerLivenessPass(registry);
  registerSmBaselines(registry);
  registerMemoryBaselines(registry);
}

}  // namespace warpsim::timing
