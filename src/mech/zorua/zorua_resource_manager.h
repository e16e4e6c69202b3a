// Registration of the resource manager "zorua" (zorua_resource_manager.cpp).
#pragma once

namespace warpsim::timing {
class PluginRegistry;
}

namespace warpsim::mech::zorua {
void registerZoruaResourceManager(timing::PluginRegistry& registry);
}  // namespace warpsim::mech::zorua
