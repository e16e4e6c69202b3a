// Registration of the unified-storage mechanism's implementations (src/mech/CMakeLists.txt calls
// this).
#include "mech/unified_storage/unified_resource_manager.h"
#include "timing/plugin_registry.h"

namespace warpsim::timing {

void registerMechanism_unified_storage(PluginRegistry& registry) {
  mech::unified_storage::registerUnifiedResourceManager(registry);
}

}  // namespace warpsim::timing
