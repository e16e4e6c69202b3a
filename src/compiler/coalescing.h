// Conservative (Briggs) coalescing of plain moves: the two registers of a move are merged when
// they do not interfere, have the same width and the merged node has fewer than K / width
// neighbours of significant degree, so that coalescing never makes the graph uncolourable.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "compiler/interference_graph.h"

namespace warpsim::compiler {

struct Coalescing {
  std::vector<uint32_t> rep;  // per register: the node it was merged into (itself if none)
  uint32_t merges = 0;
};

// Merges in `graph` itself (the merged node keeps the union of the edges).
Coalescing coalesceMoves(InterferenceGraph& graph, const std::vector<std::pair<uint32_t, uint32_t>>& moves,
                         uint32_t K);

}  // namespace warpsim::compiler
