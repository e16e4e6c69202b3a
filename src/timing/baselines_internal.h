// Registration of the top level's own baseline implementations (called by registerBaselines).
#pragma once

namespace warpsim::timing {

class PluginRegistry;

void registerRoundRobinCtaScheduler(PluginRegistry& registry);
void registerContiguousCtaScheduler(PluginRegistry& registry);
void registerStaticResourceManager(PluginRegistry& registry);
void registerLivenessPass(PluginRegistry& registry);

}  // namespace warpsim::timing
