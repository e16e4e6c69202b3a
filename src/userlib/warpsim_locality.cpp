// libwarpsim_locality: what a CUDA program links to call the locality-descriptor functions of
// include/warpsim/locality.h. Under warpsim, the drop-in libcudart defines the same functions
// and these forward to it (the next definition in the process's search order); on a real GPU
// there is none, and the descriptors are accepted and dropped: they are hints, and a program
// computes the same without them.
#include <dlfcn.h>

#include "warpsim/locality.h"

namespace {

template <class Function>
Function next(const char* name, Function self) {
  void* found = dlsym(RTLD_NEXT, name);
  return found == nullptr || found == reinterpret_cast<void*>(self) ? nullptr : reinterpret_cast<Function>(found);
}

}  // namespace

extern "C" int warpsimLocalityDescriptorAdd(const warpsimLocalityDescriptor* descriptor, const char* kernel) {
  using Add = int (*)(const warpsimLocalityDescriptor*, const char*);
  static const Add simulator = next<Add>("warpsimLocalityDescriptorAdd", &warpsimLocalityDescriptorAdd);
  return simulator != nullptr ? simulator(descriptor, kernel) : 0;
}

extern "C" int warpsimLocalityDescriptorsClear(const char* kernel) {
  using Clear = int (*)(const char*);
  static const Clear simulator = next<Clear>("warpsimLocalityDescriptorsClear", &warpsimLocalityDescriptorsClear);
  return simulator != nullptr ? simulator(kernel) : 0;
}
