// The guided prefetcher's arithmetic (digest s2.4.3): which line to fetch after an L1 miss to a
// structure whose descriptor asks for prefetching, and the active D-Tiles it is prefetching.
//
//   NEARBY                 the next line (degree 1)
//   COACCESSED + REGULAR   addr + (L1 bytes / (active tiles * tile width)) * stride
//
// where tile width is the bytes of a D-Tile row (data_tile.x elements: what the threads of a
// C-Tile access at the same time), stride the descriptor's stride in bytes (elements times the
// element size, digest L5) and active tiles the D-Tiles the prefetcher has worked on recently
// (ActiveTiles). A prefetch is dropped when it would leave the structure, or, for the stride
// prefetch, the D-Tile of the miss (the next rows of another tile are another C-Tile's data).
#pragma once
#include <array>
#include <cstdint>
#include <optional>

#include "mech/locality_descriptor/tile_geometry.h"

namespace warpsim::mech::locality_descriptor {

// The linear id (X -> Y -> Z over the grid of D-Tiles) of the D-Tile holding byte `address` of
// the structure; none when the address lies outside it.
std::optional<uint64_t> dataTileAt(const TileGeometry& g, uint64_t address);

// The stride prefetch's distance in strides: max(1, floor(l1Bytes / (active * tileWidthBytes))).
uint64_t strideDistance(uint64_t l1Bytes, uint32_t activeTiles, uint64_t tileWidthBytes);

// The byte to prefetch after a miss at `address` (see above), or none.
std::optional<uint64_t> nextLinePrefetch(const TileGeometry& g, uint64_t address,
                                         uint32_t lineBytes);
std::optional<uint64_t> stridePrefetch(const TileGeometry& g, uint64_t address,
                                       uint64_t strideBytes, uint64_t distance);

// The D-Tiles a prefetcher is working on: a small table of the tiles its last misses touched.
// A tile is active while it was touched within the last `window` touches (of any tile); the
// table holds kEntries tiles, replacing the one touched least recently.
class ActiveTiles {
 public:
  static constexpr uint32_t kEntries = 16;
  explicit ActiveTiles(uint32_t window = 64) : window_(window) {}

  // Notes a miss in tile `key` (a descriptor's index and the tile's id, packed by the caller)
  // and returns the number of active tiles, this one included (>= 1).
  uint32_t touch(uint64_t key);
  void clear();

 private:
  struct Entry {
    uint64_t key = 0;
    uint64_t last = 0;  // touch count when last touched; 0: empty
  };
  std::array<Entry, kEntries> entries_{};
  uint64_t clock_ = 0;
  uint32_t window_;
};

}  // namespace warpsim::mech::locality_descriptor
