// Registration of the resource managers "zorua" (zorua_resource_manager.cpp) and "warp-level".
#pragma once

namespace warpsim::timing {
class PluginRegistry;
}

namespace warpsim::mech::zorua {
void registerZoruaResourceManager(timing::PluginRegistry& registry);
// The WLM-style baseline "warp-level" (warp_level_resource_manager.cpp).
void registerWarpLevelResourceManager(timing::PluginRegistry& registry);
}  // namespace warpsim::mech::zorua
