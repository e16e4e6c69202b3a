// What a program says about its data for one launch: carried with the launch from the runtime to
// the timing model (func::LaunchConfig::hints), never read by the functional engine. Hints change
// when things happen, never what a kernel computes.
#pragma once
#include <vector>

#include "hints/atoms.h"
#include "hints/locality_descriptor.h"

namespace warpsim::hints {

struct LaunchHints {
  // The launch's locality descriptors, as added (checked, ranges the same or disjoint).
  std::vector<LocalityDescriptor> locality;
  // The program's XMem atoms (warpsim/xmem.h): every atom created so far and the operations
  // issued on them since the previous launch.
  LaunchAtoms atoms;
  bool empty() const { return locality.empty() && atoms.empty(); }
};

}  // namespace warpsim::hints
