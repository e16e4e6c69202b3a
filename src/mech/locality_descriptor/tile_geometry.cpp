#include "mech/locality_descriptor/tile_geometry.h"

#include <algorithm>

#include <fmt/format.h>

namespace warpsim::mech::locality_descriptor {

namespace {

std::string show(const Dims& d) { return fmt::format("({},{},{})", d.x, d.y, d.z); }

bool hasZero(const Dims& d) { return d.x == 0 || d.y == 0 || d.z == 0; }

uint64_t ceilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

}  // namespace

std::string describeProblem(const TileGeometry& g) {
  if (hasZero(g.grid)) return fmt::format("the grid {} has a zero dimension", show(g.grid));
  if (g.grid.count() > UINT32_MAX) {  // CTA linear ids and counts fit 32 bits
    return fmt::format("the grid {} has 2^32 CTAs or more", show(g.grid));
  }
  if (hasZero(g.computeTile)) return fmt::format("the C-Tile {} has a zero dimension", show(g.computeTile));
  if (hasZero(g.dataTile)) return fmt::format("the D-Tile {} has a zero dimension", show(g.dataTile));
  if (hasZero(g.structure)) return fmt::format("the structure {} has a zero dimension", show(g.structure));
  if (g.elementBytes == 0) return "the element size is 0 bytes";
  const unsigned __int128 bytes = static_cast<unsigned __int128>(g.structure.count()) * g.elementBytes;
  if (bytes > UINT64_MAX - g.base) {
    return fmt::format("the structure {} of {}-byte elements at {:#x} runs past the end of the address space",
                       show(g.structure), g.elementBytes, g.base);
  }
  const auto& map = g.computeDataMap;
  const Dims tiles = tileCounts(g.grid, g.computeTile);
  for (int d = 0; d < 3; ++d) {
    if (map[d] > 3) return fmt::format("compute-data map rank {} is not 0 to 3", map[d]);
    for (int e = 0; e < d; ++e) {
      if (map[d] != 0 && map[d] == map[e]) {
        return fmt::format("compute-data map ({},{},{}) repeats rank {}", map[0], map[1], map[2], map[d]);
      }
    }
    if (map[d] == 0 && tiles[d] > 1) {
      return fmt::format("compute-data map ({},{},{}) does not traverse {} but the grid holds {} C-Tiles along it",
                         map[0], map[1], map[2], "XYZ"[d], tiles[d]);
    }
  }
  return {};
}

std::string describeProblem(std::span<const TileGeometry> descriptors) {
  if (descriptors.empty()) return "no descriptors";
  for (size_t i = 0; i < descriptors.size(); ++i) {
    if (std::string why = describeProblem(descriptors[i]); !why.empty()) {
      return fmt::format("descriptor {}: {}", i, why);
    }
    if (!(descriptors[i].grid == descriptors[0].grid)) {
      return fmt::format("descriptor {} has grid {} but descriptor 0 has {}", i, show(descriptors[i].grid),
                         show(descriptors[0].grid));
    }
  }
  return {};
}

std::vector<size_t> byPriority(std::span<const TileGeometry> descriptors) {
  std::vector<size_t> order(descriptors.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return descriptors[a].priority > descriptors[b].priority;
  });
  return order;
}

Dims tileCounts(const Dims& extent, const Dims& tile) {
  Dims n;
  for (int d = 0; d < 3; ++d) n[d] = static_cast<uint32_t>(ceilDiv(extent[d], tile[d]));
  return n;
}

uint64_t computeTileCount(const TileGeometry& g) { return tileCounts(g.grid, g.computeTile).count(); }

uint64_t dataTileCount(const TileGeometry& g) { return tileCounts(g.structure, g.dataTile).count(); }

uint64_t structureBytes(const TileGeometry& g) { return g.structure.count() * g.elementBytes; }

uint32_t ctaLinearId(const Dims& grid, const Dims& cta) {
  return static_cast<uint32_t>((uint64_t{cta.z} * grid.y + cta.y) * grid.x + cta.x);
}

Dims ctaCoordinates(const Dims& grid, uint32_t linearId) {
  const uint64_t plane = uint64_t{grid.x} * grid.y;
  return Dims{linearId % grid.x, linearId / grid.x % grid.y, static_cast<uint32_t>(linearId / plane)};
}

Dims computeTileOf(const TileGeometry& g, const Dims& cta) {
  return Dims{cta.x / g.computeTile.x, cta.y / g.computeTile.y, cta.z / g.computeTile.z};
}

uint64_t computeTileOrdinal(const TileGeometry& g, const Dims& computeTile) {
  const Dims tiles = tileCounts(g.grid, g.computeTile);
  uint64_t ordinal = 0, stride = 1;
  // Ranks 1, 2, 3 in turn: the dimension of rank 1 varies fastest. Dimensions of rank 0 hold
  // one C-Tile (describeProblem), so they add nothing.
  for (uint32_t rank = 1; rank <= 3; ++rank) {
    for (int d = 0; d < 3; ++d) {
      if (g.computeDataMap[d] != rank) continue;
      ordinal += computeTile[d] * stride;
      stride *= tiles[d];
    }
  }
  return ordinal;
}

std::optional<Dims> dataTileOfOrdinal(const TileGeometry& g, uint64_t ordinal) {
  const Dims tiles = tileCounts(g.structure, g.dataTile);
  if (ordinal >= tiles.count()) return std::nullopt;
  const uint64_t plane = uint64_t{tiles.x} * tiles.y;
  return Dims{static_cast<uint32_t>(ordinal % tiles.x), static_cast<uint32_t>(ordinal / tiles.x % tiles.y),
              static_cast<uint32_t>(ordinal / plane)};
}

std::vector<ByteRange> dataTileRanges(const TileGeometry& g, const Dims& dataTile) {
  std::vector<ByteRange> ranges;
  forEachDataTileRange(g, dataTile, [&](const ByteRange& r) { ranges.push_back(r); });
  return ranges;
}

uint64_t dataTileBytes(const TileGeometry& g, const Dims& dataTile) {
  uint64_t elements = 1;
  for (int d = 0; d < 3; ++d) {
    const uint64_t lo = uint64_t{dataTile[d]} * g.dataTile[d];
    elements *= std::min<uint64_t>(lo + g.dataTile[d], g.structure[d]) - lo;
  }
  return elements * g.elementBytes;
}

}  // namespace warpsim::mech::locality_descriptor
