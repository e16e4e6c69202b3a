// Registration of the Locality Descriptor mechanism's implementations (src/mech/CMakeLists.txt
// calls this). Nothing yet: so far the folder holds the driver's algorithms as pure functions
// (README.md); the CTA scheduler, cache policies, prefetcher and address mapping that use them
// will register here.
#include "timing/plugin_registry.h"

namespace warpsim::timing {

void registerMechanism_locality_descriptor(PluginRegistry& registry) { (void)registry; }

}  // namespace warpsim::timing
