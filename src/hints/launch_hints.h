// What a program says about its data for one launch: carried with the launch from the runtime to
// the timing model (func::LaunchConfig::hints), never read by the functional engine. Hints change
// when things happen, never what a kernel computes.
#pragma once
#include <vector>

#include "hints/locality_descriptor.h"

namespace warpsim::hints {

struct LaunchHints {
  // The launch's locality descriptors, as added (checked, ranges the same or disjoint).
  std::vector<LocalityDescriptor> locality;
  bool empty() const { return locality.empty(); }
};

}  // namespace warpsim::hints
