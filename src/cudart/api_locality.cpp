// The locality-descriptor calls of include/warpsim/locality.h. A program links
// libwarpsim_locality (src/hints/stub), whose functions forward here when this library is
// loaded and do nothing on a real GPU; descriptors go to the Device's hint store and from there
// with the launches (Context::launch).
#include "cudart/api_util.h"
#include "warpsim/locality.h"

using namespace warpsim::cudart;

extern "C" int warpsimLocalityDescriptorAdd(const warpsimLocalityDescriptor* descriptor, const char* kernel) {
  return apiCallKeepingBatch("warpsimLocalityDescriptorAdd", cudaErrorInvalidValue, [&](Context& cx) {
    if (descriptor == nullptr) throw warpsim::runtime::Error("locality descriptor: the descriptor is a null pointer");
    cx.device().addLocalityDescriptor(*descriptor, kernel == nullptr ? "" : kernel);
    return cudaSuccess;
  });
}

extern "C" int warpsimLocalityDescriptorsClear(const char* kernel) {
  return apiCallKeepingBatch("warpsimLocalityDescriptorsClear", cudaErrorInvalidValue, [&](Context& cx) {
    cx.device().clearLocalityDescriptors(kernel == nullptr ? "" : kernel);
    return cudaSuccess;
  });
}
