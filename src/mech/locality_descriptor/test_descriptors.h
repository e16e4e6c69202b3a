// Descriptors shared by this folder's tests.
#pragma once
#include <cstdint>

#include "hints/locality_descriptor.h"

namespace warpsim::mech::locality_descriptor::testing {

// A 64 x 64 float matrix at `base`, read in 16-column strips, each strip by the CTAs of one
// column of a grid 4 CTAs tall (C-Tiles of 1 x 4 CTAs, taken along x).
inline hints::LocalityDescriptor columnStrips(uint64_t base) {
  hints::LocalityDescriptor d{};
  d.base = reinterpret_cast<const void*>(base);
  d.dims = {64, 64, 1};
  d.element_bytes = 4;
  d.type = WARPSIM_INTER_THREAD;
  d.data_tile = {16, 64, 1};
  d.compute_tile = {1, 4, 1};
  d.compute_data_map = {1, 0, 0};
  d.sharing = WARPSIM_COACCESSED;
  d.pattern = WARPSIM_IRREGULAR;
  d.priority = 1;
  return d;
}

// The same matrix read in 16-row strips (4 KB each), each strip by the CTAs of one row of a
// grid 4 CTAs wide (C-Tiles of 4 x 1 CTAs, taken along y).
inline hints::LocalityDescriptor rowStrips(uint64_t base) {
  hints::LocalityDescriptor d = columnStrips(base);
  d.data_tile = {64, 16, 1};
  d.compute_tile = {4, 1, 1};
  d.compute_data_map = {0, 1, 0};
  return d;
}

}  // namespace warpsim::mech::locality_descriptor::testing
