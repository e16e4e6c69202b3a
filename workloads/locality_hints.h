// Locality descriptors (include/warpsim/locality.h) as the suite's drivers write them by hand for
// the Locality Descriptor study (its Table 4): a few builders that name the fields, and the call
// that gives a kernel its descriptors. Descriptors are hints for the timing model (the CTA
// scheduler's clusters, cache pinning and bypass, prefetching, NUMA placement); they never change
// what a kernel computes, and the baseline (round-robin) configuration ignores them.
#pragma once
#include <initializer_list>
#include <string>

#include "hints/locality_descriptor.h"
#include "workload.h"

namespace warpsim::workloads {

// A dense x-major array of dims.x * dims.y * dims.z elements of `elementBytes` at `base`.
struct Structure {
  uint64_t base = 0;
  warpsimDim3 dims{1, 1, 1};
  uint32_t elementBytes = 4;
};

// The tiling of a descriptor: D-Tiles of `data` elements, C-Tiles of `compute` CTAs, traversed
// in the order of `map` (the rank of each grid dimension, 0 where the grid holds one C-Tile).
struct Tiling {
  warpsimDim3 data{1, 1, 1};
  warpsimDim3 compute{1, 1, 1};
  warpsimDim3 map{1, 0, 0};
};

inline hints::LocalityDescriptor localityDescriptor(const Structure& s, warpsimLocalityType type,
                                                    const Tiling& t, warpsimSharingType sharing,
                                                    warpsimAccessPattern pattern, uint64_t stride,
                                                    int32_t priority) {
  hints::LocalityDescriptor d{};
  d.base = reinterpret_cast<const void*>(s.base);
  d.dims = s.dims;
  d.element_bytes = s.elementBytes;
  d.type = type;
  d.data_tile = t.data;
  d.compute_tile = t.compute;
  d.compute_data_map = t.map;
  d.sharing = sharing;
  d.pattern = pattern;
  d.stride = pattern == WARPSIM_REGULAR ? stride : 0;
  d.priority = priority;
  return d;
}

// INTER_THREAD: the threads of a C-Tile share its D-Tile.
inline hints::LocalityDescriptor interThread(const Structure& s, const Tiling& t,
                                             warpsimSharingType sharing,
                                             warpsimAccessPattern pattern, uint64_t stride,
                                             int32_t priority = 1) {
  return localityDescriptor(s, WARPSIM_INTER_THREAD, t, sharing, pattern, stride, priority);
}

// INTRA_THREAD: each thread reuses its own data; the C-Tile is one CTA (its threads) and the
// D-Tile the data of that CTA's threads. `stride`: elements between one thread's successive
// accesses.
inline hints::LocalityDescriptor intraThread(const Structure& s, const Tiling& t, uint64_t stride,
                                             int32_t priority = 1) {
  return localityDescriptor(s, WARPSIM_INTRA_THREAD, t, WARPSIM_COACCESSED, WARPSIM_REGULAR,
                            stride, priority);
}

// NO_REUSE: streamed once. Its tiling still says which CTAs touch which part (the NUMA placement
// reads it); neighbouring threads touch neighbouring elements, one after another (NEARBY,
// REGULAR, stride 1: the only reading of the two fields that fits a stream).
inline hints::LocalityDescriptor noReuse(const Structure& s, const Tiling& t,
                                         int32_t priority = 1) {
  return localityDescriptor(s, WARPSIM_NO_REUSE, t, WARPSIM_NEARBY, WARPSIM_REGULAR, 1, priority);
}

// Gives `kernel` exactly these descriptors for its launches (those it had are cleared first,
// so that a driver run twice on one device does not add them twice).
inline void setLocalityDescriptors(WorkloadContext& ctx, const std::string& kernel,
                                   std::initializer_list<hints::LocalityDescriptor> descriptors) {
  ctx.device.clearLocalityDescriptors(kernel);
  for (const hints::LocalityDescriptor& d : descriptors) ctx.device.addLocalityDescriptor(d, kernel);
}

}  // namespace warpsim::workloads
