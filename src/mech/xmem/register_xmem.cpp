// Registration of the XMem mechanism's implementations (src/mech/CMakeLists.txt calls this): the
// cache policy "atoms" (atom_cache_policy.h: bypass, pinning and prefetching by the program's
// active atoms), at the L1 or the L2, and the page placement "atoms" (atom_page_placement.h:
// frames by the atoms' access pattern and intensity).
#include <string>

#include "mech/xmem/atom_cache_policy.h"
#include "mech/xmem/atom_page_placement.h"
#include "timing/plugin_registry.h"

namespace warpsim::timing {

void registerMechanism_xmem(PluginRegistry& registry) {
  registry.add<mem::ICachePolicy>(
      "atoms",
      "XMem: the program's active atoms bypass (reuse 0), pin (the most reuse, in part when too big) and "
      "prefetch along their stride",
      [](const mem::ICachePolicy::Context& c) -> std::unique_ptr<mem::ICachePolicy> {
        const auto options = c.tree != nullptr ? mech::xmem::AtomPolicyOptions::read(*c.tree, c.level)
                                               : mech::xmem::AtomPolicyOptions{};
        return std::make_unique<mech::xmem::AtomCachePolicy>(options, c.lineBytes);
      });
  registry.add<mem::IPagePlacement>(
      "atoms",
      "XMem: frames by the atoms' pattern and intensity (REGULAR intense atoms in banks of their own, "
      "everything else spread over the rest)",
      [](const mem::IPagePlacement::Context& c) -> std::unique_ptr<mem::IPagePlacement> {
        const auto options = c.tree != nullptr ? mech::xmem::AtomPlacementOptions::read(*c.tree)
                                               : mech::xmem::AtomPlacementOptions{};
        return std::make_unique<mech::xmem::AtomPagePlacement>(c, options);
      });
}

}  // namespace warpsim::timing
