// The locality descriptors a program has given (warpsim/locality.h) until its launches take
// them: those of a named kernel stay for each of its launches until cleared; those given
// without a kernel wait for the next launch, whichever kernel it runs, and go with it. A kernel
// is named by its PTX entry name or as its source declares it (the entry name demangled,
// without parameters: "histo_main" for "_Z10histo_mainPj"). The program's XMem atoms
// (atom_store.h) go with every launch: all atoms created so far and the operations issued since
// the previous launch.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "hints/launch_hints.h"
#include "runtime/atom_store.h"

namespace warpsim::runtime {

class HintStore {
 public:
  // Adds `d` for `kernel` ("": the next launch). Throws Error with the descriptor's one-line
  // problem, or when its range partly overlaps a descriptor the same launches already take.
  void add(const hints::LocalityDescriptor& d, const std::string& kernel);
  void clear(const std::string& kernel);
  // The hints of the next launch, of `kernel`: its own descriptors, then those waiting for the
  // next launch (now taken), and the atoms; nullptr when there are none. Throws Error when a waiting
  // descriptor partly overlaps one of the kernel's (the waiting ones are dropped).
  std::shared_ptr<const hints::LaunchHints> take(const std::string& kernel);

  AtomStore& atoms() { return atoms_; }

 private:
  AtomStore atoms_;
  std::vector<hints::LocalityDescriptor> next_;
  std::map<std::string, std::vector<hints::LocalityDescriptor>> byKernel_;
};

}  // namespace warpsim::runtime
