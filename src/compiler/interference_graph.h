// The interference graph of one register class: a bit matrix for the membership test and
// adjacency lists for iteration, with width-weighted degrees (a pair blocks two single
// registers, a single blocks one pair), plus what the graph walk also measures: spill costs,
// the copy instructions that may be coalesced and the peak register pressure.
#pragma once
#include <cstdint>
#include <vector>

#include "compiler/function_registers.h"
#include "compiler/liveness_points.h"

namespace warpsim::compiler {

class InterferenceGraph {
 public:
  InterferenceGraph() = default;
  explicit InterferenceGraph(std::vector<uint8_t> widths);

  uint32_t size() const { return n_; }
  uint8_t width(uint32_t r) const { return width_[r]; }
  bool interferes(uint32_t a, uint32_t b) const {
    const size_t bit = size_t{a} * n_ + b;
    return (matrix_[bit / 64] >> (bit % 64)) & 1;
  }
  void addEdge(uint32_t a, uint32_t b);
  void removeEdge(uint32_t a, uint32_t b);
  const std::vector<uint32_t>& neighbours(uint32_t r) const { return adj_[r]; }
  // Σ over neighbours m of max(1, width(m) / width(r)).
  uint32_t weightedDegree(uint32_t r) const { return degree_[r]; }
  // How many registers of width(r) neighbour m can block.
  uint32_t weight(uint32_t r, uint32_t m) const {
    return width_[m] > width_[r] ? width_[m] / width_[r] : 1;
  }

 private:
  uint32_t n_ = 0;
  std::vector<uint8_t> width_;
  std::vector<uint64_t> matrix_;
  std::vector<std::vector<uint32_t>> adj_;
  std::vector<uint32_t> degree_;
};

struct GraphBuild {
  InterferenceGraph graph;
  std::vector<double> spillCost;  // Σ references · 10^loopDepth; temporaries: infinity
  std::vector<std::pair<uint32_t, uint32_t>> moves;  // (dst, src) of plain moves, code order
  uint32_t peakPressure = 0;      // most width units live at once (value class)
};

// Interference rules (docs in the header of register_allocation.h's design):
//  * a def interferes with everything live after its instruction, except the source of a
//    plain move (the Chaitin move exception);
//  * the defs of one instruction interfere with each other;
//  * with more than one def, or for cross-lane ops, the defs also interfere with the sources;
//  * predicate defs always interfere with the instruction's predicate sources.
GraphBuild buildInterferenceGraph(const FunctionRegisters& regs, RegClass cls);

}  // namespace warpsim::compiler
