// Chaitin–Briggs colouring with optimistic select over aligned register ranges: a node of width
// w takes registers [c, c + w) with c a multiple of w and c + w <= K.
#pragma once
#include <cstdint>
#include <vector>

#include "compiler/interference_graph.h"

namespace warpsim::compiler {

struct ColouringResult {
  std::vector<int32_t> colour;    // per register, through `rep`; -1: uncoloured or not a node
  std::vector<uint32_t> spilled;  // registers (not temporaries) to spill, ascending
  bool complete() const { return spilled.empty(); }
};

// `rep` maps every register to its coalesced node; cost and isTemp are per register.
ColouringResult colourGraph(const InterferenceGraph& g, const std::vector<uint32_t>& rep,
                            const std::vector<double>& cost, const std::vector<uint8_t>& isTemp, uint32_t K);

}  // namespace warpsim::compiler
