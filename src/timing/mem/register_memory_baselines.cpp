#include "timing/mem/register_memory_baselines.h"

#include <memory>

#include "timing/mem/address_mapping_schemes.h"
#include "timing/mem/baseline_plugins.h"
#include "timing/mem/hash_address_mapping.h"
#include "timing/mem/page_placements.h"
#include "timing/mem/zone_placements.h"
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
  for (const AddressMappingScheme& scheme : addressMappingSchemes()) {
    registry.add<IAddressMapping>(scheme.name, scheme.description,
                                  [&scheme](const IAddressMapping::Context& c) {
                                    return makeAddressMapping(scheme, c);
                                  });
  }
  registry.add<IPagePlacement>(
      "identity", "frame = page: device addresses are physical addresses (no paging layer)",
      [](const IPagePlacement::Context&) { return std::make_unique<IdentityPagePlacement>(); });
  registry.add<IPagePlacement>(
      "random",
      "each page a random free frame when a request first reaches it (page_placement.seed): a "
      "randomised virtual-to-physical mapping",
      [](const IPagePlacement::Context& c) {
        return std::make_unique<RandomPagePlacement>(c.space.frames, c.seed);
      });
  registry.add<IZonePlacement>(
      "xor",
      "zone = the log2(zones) bits at zone_placement.xor_bit XOR the fold of the higher bits",
      [](const IZonePlacement::Context& c) {
        return std::make_unique<XorZonePlacement>(c.zones, c.xorBit);
      });
  registry.add<IZonePlacement>(
      "first-touch",
      "pages of zone_placement.page_bytes go to the module of the first SM request reaching "
      "memory for them, for the whole run",
      [](const IZonePlacement::Context& c) {
        return std::make_unique<FirstTouchZonePlacement>(c.zones, c.pageBytes);
      });
  registry.add<IZonePlacement>(
      "interleave-bits",
      "per address range, zone = log2(zones) bits at a chosen position 7..16 (setRanges); xor "
      "elsewhere",
      [](const IZonePlacement::Context& c) {
        return std::make_unique<InterleaveBitsZonePlacement>(c.zones, c.xorBit);
      });
}

}  // namespace warpsim::timing
