#include "mech/locality_descriptor/guided_prefetch.h"

#include <algorithm>

namespace warpsim::mech::locality_descriptor {

std::optional<uint64_t> dataTileAt(const TileGeometry& g, uint64_t address) {
  if (address < g.base || address - g.base >= structureBytes(g)) return std::nullopt;
  const uint64_t element = (address - g.base) / g.elementBytes;
  const uint64_t sx = g.structure.x, sy = g.structure.y;
  const uint64_t x = element % sx, y = element / sx % sy, z = element / (sx * sy);
  const Dims tiles = tileCounts(g.structure, g.dataTile);
  return (z / g.dataTile.z * tiles.y + y / g.dataTile.y) * tiles.x + x / g.dataTile.x;
}

uint64_t strideDistance(uint64_t l1Bytes, uint32_t activeTiles, uint64_t tileWidthBytes) {
  const uint64_t per = uint64_t{std::max<uint32_t>(activeTiles, 1)} * std::max<uint64_t>(tileWidthBytes, 1);
  return std::max<uint64_t>(l1Bytes / per, 1);
}

std::optional<uint64_t> nextLinePrefetch(const TileGeometry& g, uint64_t address,
                                         uint32_t lineBytes) {
  const uint64_t next = (address / lineBytes + 1) * lineBytes;
  if (next >= g.base + structureBytes(g)) return std::nullopt;
  return next;
}

std::optional<uint64_t> stridePrefetch(const TileGeometry& g, uint64_t address,
                                       uint64_t strideBytes, uint64_t distance) {
  if (strideBytes == 0) return std::nullopt;
  const std::optional<uint64_t> here = dataTileAt(g, address);
  if (!here || distance > (UINT64_MAX - address) / strideBytes) return std::nullopt;
  const uint64_t target = address + distance * strideBytes;
  const std::optional<uint64_t> there = dataTileAt(g, target);
  if (!there || *there != *here) return std::nullopt;
  return target;
}

uint32_t ActiveTiles::touch(uint64_t key) {
  ++clock_;
  Entry* slot = nullptr;
  for (Entry& e : entries_) {
    if (e.last != 0 && e.key == key) slot = &e;
  }
  if (slot == nullptr) {
    slot = &entries_[0];
    for (Entry& e : entries_) {
      if (e.last < slot->last) slot = &e;  // empty entries (last 0) first
    }
    slot->key = key;
  }
  slot->last = clock_;
  uint32_t active = 0;
  for (const Entry& e : entries_) {
    if (e.last != 0 && clock_ - e.last < window_) ++active;
  }
  return active;
}

void ActiveTiles::clear() {
  entries_.fill(Entry{});
  clock_ = 0;
}

}  // namespace warpsim::mech::locality_descriptor
