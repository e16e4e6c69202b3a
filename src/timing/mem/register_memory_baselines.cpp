#include "timing/mem/register_memory_baselines.h"

#include <memory>

#include "timing/mem/baseline_plugins.h"
#include "timing/mem/hash_address_mapping.h"
#include "timing/plugin_registry.h"

namespace warpsim::timing {

void registerMemoryBaselines(PluginRegistry& registry) {
  using namespace mem;
  registry.add<ICachePolicy>(
      "lru-allocate", "allocate on every miss, insert at the MRU position, no pinning or prefetch",
      [](const ICachePolicy::Context&) { return std::make_unique<LruAllocatePolicy>(); });
  registry.add<IMemoryCompression>(
      "none", "no compression: every 32-byte sector is one DRAM burst",
      [](const IMemoryCompression::Context&) { return std::make_unique<NoCompression>(); });
  registry.add<ILocalMemoryPath>(
      "none", "no structure beside the L1: local memory goes through the L1",
      [](const ILocalMemoryPath::Context&) { return std::make_unique<NoLocalMemoryPath>(); });
  registry.add<IAddressMapping>(
      "hash",
      "channels interleaved every dram.interleave_bytes with an XOR hash of the upper bits; "
      "banks by row with an XOR of the low row bits",
      [](const IAddressMapping::Context& c) {
        return std::make_unique<HashAddressMapping>(c.channels, c.banks, c.rowBytes,
                                                    c.interleaveBytes);
      });
}

}  // namespace warpsim::timing
