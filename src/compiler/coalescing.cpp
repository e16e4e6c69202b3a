#include "compiler/coalescing.h"

namespace warpsim::compiler {
namespace {

uint32_t find(std::vector<uint32_t>& rep, uint32_t r) {
  while (rep[r] != r) {
    rep[r] = rep[rep[r]];
    r = rep[r];
  }
  return r;
}

}  // namespace

Coalescing coalesceMoves(InterferenceGraph& g, const std::vector<std::pair<uint32_t, uint32_t>>& moves,
                         uint32_t K) {
  Coalescing out;
  out.rep.resize(g.size());
  for (uint32_t r = 0; r < g.size(); ++r) out.rep[r] = r;
  std::vector<uint8_t> seen(g.size(), 0);
  for (auto [d, s] : moves) {
    const uint32_t a = find(out.rep, d), b = find(out.rep, s);
    if (a == b || g.width(a) != g.width(b) || g.interferes(a, b)) continue;
    const uint32_t w = g.width(a);
    // Briggs: count (width-weighted) neighbours of the merged node whose degree is significant.
    uint32_t significant = 0;
    std::vector<uint32_t> touched;
    for (uint32_t x : {a, b})
      for (uint32_t m : g.neighbours(x)) {
        if (seen[m]) continue;
        seen[m] = 1;
        touched.push_back(m);
        uint32_t degree = g.weightedDegree(m);
        if (g.interferes(m, a) && g.interferes(m, b)) degree -= g.weight(m, b);  // a and b become one
        if (degree >= K / g.width(m)) significant += g.weight(a, m);
      }
    for (uint32_t m : touched) seen[m] = 0;
    if (significant >= K / w) continue;
    const std::vector<uint32_t> bn = g.neighbours(b);
    for (uint32_t m : bn) {
      g.removeEdge(b, m);
      g.addEdge(a, m);
    }
    out.rep[b] = a;
    ++out.merges;
  }
  for (uint32_t r = 0; r < g.size(); ++r) find(out.rep, r);
  return out;
}

}  // namespace warpsim::compiler
