// The geometry of one Locality Descriptor as the driver's algorithms see it (digest
// xmem-and-locality-descriptor.md s2.3): the launch grid, the compute tile (C-Tile, in CTAs),
// the data tile (D-Tile, in elements), the data structure's extent and address, the
// compute-data map and the priority. Independent of how the descriptor was written (API,
// loader); the loader fills this and checks it with describeProblem().
//
// The data structure is a dense X-major array of structure.x * structure.y * structure.z
// elements of elementBytes each starting at `base`: element (x, y, z) lies at
//   base + ((z * structure.y + y) * structure.x + x) * elementBytes
// (its row pitch is structure.x elements). D-Tiles tile it from element (0,0,0); tiles at the
// far edges are partial (clipped to the structure), and D-Tiles are numbered X -> Y -> Z over
// the grid of D-Tiles. C-Tiles tile the launch grid the same way (partial at the far edges).
//
// The 1:1 C-Tile <-> D-Tile mapping (s2.3): C-Tiles are visited in the order the compute-data
// map gives (rank 1 varies fastest), D-Tiles in X -> Y -> Z order, and the k-th C-Tile visited
// uses the k-th D-Tile. A C-Tile whose k is beyond the last D-Tile uses no data of this
// structure; D-Tiles beyond the last C-Tile are used by none.
#pragma once
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace warpsim::mech::locality_descriptor {

// Extents or coordinates along X, Y, Z (d = 0, 1, 2).
struct Dims {
  uint32_t x = 1, y = 1, z = 1;

  uint32_t operator[](int d) const { return d == 0 ? x : d == 1 ? y : z; }
  uint32_t& operator[](int d) { return d == 0 ? x : d == 1 ? y : z; }
  uint64_t count() const { return uint64_t{x} * y * z; }
  friend bool operator==(const Dims&, const Dims&) = default;
};

struct TileGeometry {
  Dims grid;                 // the launch's grid, in CTAs
  Dims computeTile;          // C-Tile: CTAs per grid dimension
  Dims dataTile;             // D-Tile: elements per structure dimension
  Dims structure;            // the structure's extent, in elements (see above)
  uint32_t elementBytes = 1;
  uint64_t base = 0;         // the structure's first byte (device address)
  // Rank per grid dimension: the C-Tile traversal order, rank 1 fastest. 0: not traversed,
  // allowed only where the grid holds a single C-Tile along that dimension (digest L4).
  // (1,2,3) is X -> Y -> Z; (3,1,2) is Y -> Z -> X; histo's (1,0,0) is along X only.
  std::array<uint32_t, 3> computeDataMap{1, 2, 3};
  // Larger is more important (the thesis leaves the direction open, digest L2).
  int32_t priority = 0;
};

// A run of consecutive bytes [begin, begin + bytes).
struct ByteRange {
  uint64_t begin = 0;
  uint64_t bytes = 0;
  friend bool operator==(const ByteRange&, const ByteRange&) = default;
};

// "" when the geometry is usable, else one line saying what is wrong (zero extents, an
// element size of 0, a structure past the end of the address space or a grid of 2^32 CTAs
// or more, a compute-data map with a repeated or out-of-range rank, or rank 0 on a
// dimension with several C-Tiles).
std::string describeProblem(const TileGeometry& geometry);

// The same for the descriptors of one launch: each one's problem (named by its position), or
// grids that differ.
std::string describeProblem(std::span<const TileGeometry> descriptors);

// Positions of `descriptors` from the highest priority to the lowest; equal priorities keep
// their given order.
std::vector<size_t> byPriority(std::span<const TileGeometry> descriptors);

// Tiles of `tile` needed to cover `extent` per dimension (partial edge tiles count: ceil).
Dims tileCounts(const Dims& extent, const Dims& tile);

// CT_NUM: the C-Tiles covering the grid, partial ones included.
uint64_t computeTileCount(const TileGeometry& geometry);

// The D-Tiles covering the structure, partial ones included.
uint64_t dataTileCount(const TileGeometry& geometry);

uint64_t structureBytes(const TileGeometry& geometry);

// CTA coordinates <-> linear id (x fastest), as the hardware numbers CTAs.
uint32_t ctaLinearId(const Dims& grid, const Dims& cta);
Dims ctaCoordinates(const Dims& grid, uint32_t linearId);

// The coordinates of the C-Tile holding CTA `cta` in the grid of C-Tiles.
Dims computeTileOf(const TileGeometry& geometry, const Dims& cta);

// The position of C-Tile `computeTile` (coordinates in the grid of C-Tiles) in the
// compute-data map's traversal order: the k of the 1:1 mapping.
uint64_t computeTileOrdinal(const TileGeometry& geometry, const Dims& computeTile);

// The coordinates of the D-Tile the C-Tile at `ordinal` uses, or none (see above).
std::optional<Dims> dataTileOfOrdinal(const TileGeometry& geometry, uint64_t ordinal);

// Calls visit(linearId) for the CTAs of tile `tileCoord` (coordinates in the grid of tiles of
// `tile` CTAs; clipped at the grid's far edges), in X -> Y -> Z order.
template <class Visit>
void forEachCtaOfTile(const Dims& grid, const Dims& tile, const Dims& tileCoord, Visit&& visit) {
  uint32_t lo[3], hi[3];
  for (int d = 0; d < 3; ++d) {
    lo[d] = tileCoord[d] * tile[d];
    hi[d] = static_cast<uint32_t>(std::min<uint64_t>(uint64_t{lo[d]} + tile[d], grid[d]));
  }
  for (uint32_t z = lo[2]; z < hi[2]; ++z) {
    for (uint32_t y = lo[1]; y < hi[1]; ++y) {
      for (uint32_t x = lo[0]; x < hi[0]; ++x) visit(ctaLinearId(grid, Dims{x, y, z}));
    }
  }
}

// Calls visit(ByteRange) for the byte ranges of D-Tile `dataTile`, in address order, each as
// long as possible (rows merge when the tile spans the structure's whole width, planes when
// it also spans its whole height). No allocation.
template <class Visit>
void forEachDataTileRange(const TileGeometry& g, const Dims& dataTile, Visit&& visit) {
  const uint64_t sx = g.structure.x, sy = g.structure.y, eb = g.elementBytes;
  uint64_t lo[3], hi[3];
  for (int d = 0; d < 3; ++d) {
    lo[d] = uint64_t{dataTile[d]} * g.dataTile[d];
    hi[d] = std::min<uint64_t>(lo[d] + g.dataTile[d], g.structure[d]);
  }
  const bool fullRows = lo[0] == 0 && hi[0] == sx;
  const bool fullPlanes = fullRows && lo[1] == 0 && hi[1] == sy;
  if (fullPlanes) {
    visit(ByteRange{g.base + lo[2] * sy * sx * eb, (hi[2] - lo[2]) * sy * sx * eb});
    return;
  }
  for (uint64_t z = lo[2]; z < hi[2]; ++z) {
    if (fullRows) {
      visit(ByteRange{g.base + (z * sy + lo[1]) * sx * eb, (hi[1] - lo[1]) * sx * eb});
      continue;
    }
    for (uint64_t y = lo[1]; y < hi[1]; ++y) {
      visit(ByteRange{g.base + ((z * sy + y) * sx + lo[0]) * eb, (hi[0] - lo[0]) * eb});
    }
  }
}

// The same ranges as a list (for tests and statistics).
std::vector<ByteRange> dataTileRanges(const TileGeometry& geometry, const Dims& dataTile);

// The bytes of D-Tile `dataTile` (smaller at the structure's far edges).
uint64_t dataTileBytes(const TileGeometry& geometry, const Dims& dataTile);

}  // namespace warpsim::mech::locality_descriptor
