// Locality descriptors as the runtime takes them (the C API of include/warpsim/locality.h):
// the checks that give a bad descriptor its one-line error, and the byte range a descriptor
// covers.
#pragma once
#include <cstdint>
#include <string>

#include "warpsim/locality.h"

namespace warpsim::hints {

using LocalityDescriptor = warpsimLocalityDescriptor;

// "" when `d` is consistent, else one line naming the field and what is wrong with it, e.g.
// "locality descriptor: data_tile.x (512) is larger than dims.x (256)".
std::string checkLocalityDescriptor(const LocalityDescriptor& d);

inline uint64_t baseOf(const LocalityDescriptor& d) { return reinterpret_cast<uint64_t>(d.base); }
// The structure's bytes: dims.x * dims.y * dims.z * element_bytes (of a checked descriptor).
inline uint64_t bytesOf(const LocalityDescriptor& d) {
  return uint64_t{d.dims.x} * d.dims.y * d.dims.z * d.element_bytes;
}

// "" when `d` fits a launch of `grid` CTAs (x, y, z), else one line: a grid dimension the
// compute-data map does not traverse (rank 0) must hold a single C-Tile.
std::string checkForGrid(const LocalityDescriptor& d, const uint32_t grid[3]);

// "" when `a` and `b` may both describe the launch: their ranges are the same (two kinds of
// locality of one structure) or do not meet; else one line naming the ranges.
std::string checkOverlap(const LocalityDescriptor& a, const LocalityDescriptor& b);

}  // namespace warpsim::hints
