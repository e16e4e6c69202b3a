// Registration of the Zorua mechanism's implementations (src/mech/CMakeLists.txt calls this).
#include "mech/zorua/phase_pass.h"
#include "mech/zorua/zorua_resource_manager.h"
#include "timing/plugin_registry.h"

namespace warpsim::timing {

void registerMechanism_zorua(PluginRegistry& registry) {
  registerZoruaPhasePass(registry);
  mech::zorua::registerZoruaResourceManager(registry);
  mech::zorua::registerWarpLevelResourceManager(registry);
}

}  // namespace warpsim::timing
