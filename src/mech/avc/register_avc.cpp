// Registration of the "avc" local-memory path (called by the generated registerMechanisms(),
// src/mech/CMakeLists.txt).
#include <memory>

#include "mech/avc/avc_local_path.h"
#include "timing/plugin_registry.h"

namespace warpsim::timing {

void registerMechanism_avc(PluginRegistry& registry) {
  registry.add<mem::ILocalMemoryPath>(
      "avc",
      "Affine Vector Cache: a compressed cache for thread-private data beside the L1, keeping "
      "uniform and affine word vectors as (base, stride) with per-word valid bits",
      [](const mem::ILocalMemoryPath::Context& c) {
        const mech::avc::AvcParams p = mech::avc::readAvcParams(c.tree->section("avc"));
        return std::make_unique<mech::avc::AvcLocalPath>(c, p);
      });
}

}  // namespace warpsim::timing
