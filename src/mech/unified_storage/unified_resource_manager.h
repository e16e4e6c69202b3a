// The unified-storage mechanism's resource manager "unified" (unified_resource_manager.cpp).
#pragma once
#include "timing/plugin_registry.h"

namespace warpsim::mech::unified_storage {

void registerUnifiedResourceManager(timing::PluginRegistry& registry);

}  // namespace warpsim::mech::unified_storage
