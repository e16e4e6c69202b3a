#include "timing/sm/stall.h"

namespace warpsim::timing {

const char* stallName(Stall s) {
  static constexpr const char* kNames[kNumStalls] = {"issued",   "scoreboard", "memory",
                                                     "barrier",  "pipeline",   "collector",
                                                     "fetch",    "empty",      "assist",
                                                     "resources"};
  return kNames[static_cast<unsigned>(s)];
}

}  // namespace warpsim::timing
