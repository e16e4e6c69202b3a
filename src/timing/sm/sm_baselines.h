// Registers the SM's baseline implementations of its extension points: warp_scheduler "lrr",
// "gto", "two-level"; register_file "banked"; assist_warp "none". Called from the timing
// model's registerBaselines (timing/plugin_registry.h).
#pragma once

namespace warpsim::timing {

class PluginRegistry;
void registerSmBaselines(PluginRegistry& registry);

}  // namespace warpsim::timing
