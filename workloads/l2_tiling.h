// What the suite's L2-tiled workloads share (gemm-l2tiled, gemv-l2tiled): the tile sizes they
// accept (`--tile-bytes`), the rows of a row panel a tile holds, and the XMem atoms their host
// programs write (include/warpsim/xmem.h; the operators in xmem_atoms.h): REGULAR float atoms,
// 1-D maps, and one atom that follows the current panel. Atoms are hints: they never change a
// result.
#pragma once
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "hints/atoms.h"
#include "runtime/error.h"
#include "workload.h"
#include "xmem_atoms.h"

namespace warpsim::workloads {

// Powers of two from 16 KB (an eighth of an L2 slice of gtx480) to 8 MB (beyond every configured
// L2 but the largest GPUs'). A tile larger than the matrix is all of it (one panel).
inline constexpr std::array<uint32_t, 10> kL2TileChoices = {16u << 10,  32u << 10,  64u << 10, 128u << 10,
                                                            256u << 10, 512u << 10, 1u << 20,  2u << 20,
                                                            4u << 20,   8u << 20};
inline constexpr uint32_t kDefaultL2TileBytes = 256 * 1024;

inline std::vector<uint32_t> l2TileChoices() { return {kL2TileChoices.begin(), kL2TileChoices.end()}; }

// Rows per panel of a matrix of `rows` rows of `rowBytes`: the tile's bytes in whole rows, at least
// one, at most `rows`. Without a tile asked for: 256 KB, at most a quarter of the matrix (so that
// even a small size has several panels). Throws runtime::Error for a tile not in the list.
inline int panelRows(const WorkloadContext& ctx, const char* workload, uint64_t rowBytes, int rows) {
  uint64_t tile = ctx.tileBytes;
  if (tile == 0) {
    tile = std::min<uint64_t>(kDefaultL2TileBytes, rowBytes * rows / 4);
  } else if (std::find(kL2TileChoices.begin(), kL2TileChoices.end(), tile) == kL2TileChoices.end()) {
    throw runtime::Error(
        fmt::format("{}: tile of {} bytes is not one of {}", workload, tile, fmt::join(kL2TileChoices, ", ")));
  }
  return static_cast<int>(std::clamp<uint64_t>(tile / rowBytes, 1, rows));
}

// An atom mapped to one panel at a time: moving it unmaps the previous panel, so that the atom's
// working set is the panel the next launches read.
class PanelAtom {
 public:
  PanelAtom(runtime::Device& gpu, uint32_t atom) : gpu_(gpu), atom_(atom) {}
  uint32_t id() const { return atom_; }
  void moveTo(uint64_t base, uint64_t bytes) {
    if (bytes_ != 0) mapAtom(gpu_, hints::AtomOp::Kind::Unmap, atom_, base_, bytes_);
    mapAtom(gpu_, hints::AtomOp::Kind::Map, atom_, base, bytes);
    base_ = base;
    bytes_ = bytes;
  }

 private:
  runtime::Device& gpu_;
  uint32_t atom_;
  uint64_t base_ = 0, bytes_ = 0;
};

}  // namespace warpsim::workloads
