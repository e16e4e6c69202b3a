#include "hints/locality_descriptor.h"

#include <fmt/format.h>

namespace warpsim::hints {

namespace {

std::string error(const std::string& what) { return "locality descriptor: " + what; }

// "" when every component of `v` is at least 1.
std::string positive(const char* field, const warpsimDim3& v) {
  const uint32_t c[3] = {v.x, v.y, v.z};
  for (int i = 0; i < 3; ++i) {
    if (c[i] == 0) return error(fmt::format("{}.{} is 0 (each dimension counts at least 1)", field, "xyz"[i]));
  }
  return "";
}

// The compute-data map: each traversed grid dimension has a distinct rank 1, 2, 3, ..., the
// others 0.
std::string checkMap(const warpsimDim3& map) {
  const uint32_t rank[3] = {map.x, map.y, map.z};
  uint32_t seen = 0, count = 0;
  for (int i = 0; i < 3; ++i) {
    if (rank[i] > 3) {
      return error(fmt::format("compute_data_map.{} ({}) is not a rank: 0 (not traversed), 1, 2 or 3", "xyz"[i],
                               rank[i]));
    }
    if (rank[i] == 0) continue;
    if (seen & (1u << rank[i])) {
      return error(fmt::format("compute_data_map.{}: rank {} is given twice", "xyz"[i], rank[i]));
    }
    seen |= 1u << rank[i];
    ++count;
  }
  for (uint32_t r = 1; r <= count; ++r) {
    if (!(seen & (1u << r))) {
      return error(fmt::format("compute_data_map ({}, {}, {}): the ranks of the traversed dimensions must be 1 to {}",
                               map.x, map.y, map.z, count));
    }
  }
  return "";
}

}  // namespace

std::string checkLocalityDescriptor(const LocalityDescriptor& d) {
  if (d.base == nullptr) return error("base is null");
  if (d.element_bytes == 0 || d.element_bytes > 256) {
    return error(fmt::format("element_bytes ({}) must be 1 to 256", d.element_bytes));
  }
  for (const auto& [field, v] : {std::pair{"dims", d.dims}, std::pair{"data_tile", d.data_tile},
                                 std::pair{"compute_tile", d.compute_tile}}) {
    if (std::string e = positive(field, v); !e.empty()) return e;
  }
  const uint32_t dims[3] = {d.dims.x, d.dims.y, d.dims.z};
  const uint32_t tile[3] = {d.data_tile.x, d.data_tile.y, d.data_tile.z};
  for (int i = 0; i < 3; ++i) {
    if (tile[i] > dims[i]) {
      return error(fmt::format("data_tile.{} ({}) is larger than dims.{} ({})", "xyz"[i], tile[i], "xyz"[i], dims[i]));
    }
  }
  if (const uint64_t end = baseOf(d) + bytesOf(d); end < baseOf(d)) {
    return error("base + dims x element_bytes passes the end of the address space");
  }
  if (d.type != WARPSIM_INTRA_THREAD && d.type != WARPSIM_INTER_THREAD && d.type != WARPSIM_NO_REUSE) {
    return error(fmt::format("type ({}) is not INTRA_THREAD (1), INTER_THREAD (2) or NO_REUSE (3)", d.type));
  }
  if (d.sharing != WARPSIM_COACCESSED && d.sharing != WARPSIM_NEARBY) {
    return error(fmt::format("sharing ({}) is not COACCESSED (1) or NEARBY (2)", d.sharing));
  }
  if (d.pattern != WARPSIM_REGULAR && d.pattern != WARPSIM_IRREGULAR) {
    return error(fmt::format("pattern ({}) is not REGULAR (1) or IRREGULAR (2)", d.pattern));
  }
  // The stride is a distance in the structure (a row or plane pitch walks a D-Tile's rows or
  // planes), so it may exceed the D-Tile's element count but not the structure's.
  const uint64_t elements = uint64_t{dims[0]} * dims[1] * dims[2];
  if (d.pattern == WARPSIM_REGULAR && (d.stride == 0 || d.stride > elements)) {
    return error(fmt::format("stride ({}) of a REGULAR pattern must be 1 to the structure's {} elements", d.stride,
                             elements));
  }
  return checkMap(d.compute_data_map);
}

std::string checkForGrid(const LocalityDescriptor& d, const uint32_t grid[3]) {
  const uint32_t rank[3] = {d.compute_data_map.x, d.compute_data_map.y, d.compute_data_map.z};
  const uint32_t tile[3] = {d.compute_tile.x, d.compute_tile.y, d.compute_tile.z};
  for (int i = 0; i < 3; ++i) {
    const uint64_t tiles = (uint64_t{grid[i]} + tile[i] - 1) / tile[i];
    if (rank[i] == 0 && tiles > 1) {
      return error(fmt::format("compute_data_map.{} is 0 (not traversed) but the grid's {} CTAs along {} make {} "
                               "C-Tiles of {}",
                               "xyz"[i], grid[i], "xyz"[i], tiles, tile[i]));
    }
  }
  return "";
}

std::string checkOverlap(const LocalityDescriptor& a, const LocalityDescriptor& b) {
  const uint64_t a0 = baseOf(a), a1 = a0 + bytesOf(a), b0 = baseOf(b), b1 = b0 + bytesOf(b);
  if ((a0 == b0 && a1 == b1) || a1 <= b0 || b1 <= a0) return "";
  return error(fmt::format("base: the range [{:#x}, {:#x}) overlaps [{:#x}, {:#x}) of another descriptor "
                           "without being the same structure",
                           a0, a1, b0, b1));
}

}  // namespace warpsim::hints
