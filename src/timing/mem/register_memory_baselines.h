// Registration of the memory hierarchy's baselines: cache policy "lru-allocate", memory
// compression "none", local memory path "none", address mapping "hash" (and the
// schemes of address_mapping_schemes.h), zone placements "xor", "first-touch" and
// "interleave-bits". Called by registerBaselines (timing/baselines.cpp).
#pragma once

namespace warpsim::timing {

class PluginRegistry;

void registerMemoryBaselines(PluginRegistry& registry);

}  // namespace warpsim::timing
