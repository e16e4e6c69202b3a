#include "compiler/interference_graph.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace warpsim::compiler {

InterferenceGraph::InterferenceGraph(std::vector<uint8_t> widths)
    : n_(static_cast<uint32_t>(widths.size())), width_(std::move(widths)) {
  matrix_.assign((size_t{n_} * n_ + 63) / 64, 0);
  adj_.resize(n_);
  degree_.assign(n_, 0);
}

void InterferenceGraph::addEdge(uint32_t a, uint32_t b) {
  if (a == b || interferes(a, b)) return;
  for (auto [x, y] : {std::pair{a, b}, std::pair{b, a}}) {
    const size_t bit = size_t{x} * n_ + y;
    matrix_[bit / 64] |= uint64_t{1} << (bit % 64);
    adj_[x].push_back(y);
    degree_[x] += weight(x, y);
  }
}

void InterferenceGraph::removeEdge(uint32_t a, uint32_t b) {
  if (!interferes(a, b)) return;
  for (auto [x, y] : {std::pair{a, b}, std::pair{b, a}}) {
    const size_t bit = size_t{x} * n_ + y;
    matrix_[bit / 64] &= ~(uint64_t{1} << (bit % 64));
    auto& list = adj_[x];
    list.erase(std::find(list.begin(), list.end(), y));
    degree_[x] -= weight(x, y);
  }
}

GraphBuild buildInterferenceGraph(const FunctionRegisters& regs, RegClass cls) {
  const ir::Function& f = regs.fn();
  const uint32_t n = regs.count(cls);
  std::vector<uint8_t> widths(n);
  for (uint32_t r = 0; r < n; ++r) widths[r] = regs.allocatable(cls, r) ? regs.width(cls, r) : 0;
  GraphBuild out;
  out.graph = InterferenceGraph(widths);
  out.spillCost.assign(n, 0.0);
  InterferenceGraph& g = out.graph;

  const ClassLiveness L = computeClassLiveness(regs, cls);
  const std::vector<uint32_t> depth = loopDepths(f);
  Bits live;
  for (size_t b = 0; b < f.blocks.size(); ++b) {
    const double weight = std::pow(10.0, std::min<uint32_t>(depth[b], 30));
    live = L.liveOut[b];
    for (uint32_t i = f.blocks[b].last + 1; i-- > f.blocks[b].first;) {
      const ir::Instr& in = f.code[i];
      const InstrRefs refs = instrRefs(in, cls, regs);
      uint32_t moveDst = ir::kNoReg, moveSrc = ir::kNoReg;
      if (cls == RegClass::Value && plainMove(in, regs, moveDst, moveSrc)) {
        if (moveDst != moveSrc) out.moves.push_back({moveDst, moveSrc});
      } else {
        moveSrc = ir::kNoReg;
      }
      for (unsigned k = 0; k < refs.numDefs; ++k) {
        const uint32_t d = refs.defs[k];
        forEachBit(live, [&](uint32_t r) {
          if (r != moveSrc) g.addEdge(d, r);
        });
        for (unsigned j = 0; j < k; ++j) g.addEdge(d, refs.defs[j]);
        const bool withSources = cls == RegClass::Pred || refs.numDefs > 1 || isCrossLane(in);
        if (withSources)
          for (unsigned u = 0; u < refs.numUses; ++u) g.addEdge(d, refs.uses[u]);
      }
      if (cls == RegClass::Value) {  // pressure just after the instruction, dead defs included
        uint32_t units = 0;
        forEachBit(live, [&](uint32_t r) { units += widths[r]; });
        for (unsigned k = 0; k < refs.numDefs; ++k)
          if (!testBit(live, refs.defs[k])) units += widths[refs.defs[k]];
        out.peakPressure = std::max(out.peakPressure, units);
      }
      // Spill cost: every reference (operand occurrence) weighted by loop depth.
      forEachRegRef(in, [&](RegClass c, const uint32_t& r, bool) {
        if (c == cls && regs.allocatable(c, r)) out.spillCost[r] += weight;
      });
      stepBackward(live, refs, in);
      if (cls == RegClass::Value) {
        uint32_t units = 0;
        forEachBit(live, [&](uint32_t r) { units += widths[r]; });
        out.peakPressure = std::max(out.peakPressure, units);
      }
    }
  }
  for (uint32_t r = 0; r < n; ++r)
    if (regs.allocatable(cls, r) && regs.isTemp(cls, r)) out.spillCost[r] = std::numeric_limits<double>::infinity();
  std::reverse(out.moves.begin(), out.moves.end());
  return out;
}

}  // namespace warpsim::compiler
