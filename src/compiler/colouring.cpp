#include "compiler/colouring.h"

#include <algorithm>
#include <bitset>
#include <limits>
#include <stdexcept>

namespace warpsim::compiler {

ColouringResult colourGraph(const InterferenceGraph& g, const std::vector<uint32_t>& rep,
                            const std::vector<double>& cost, const std::vector<uint8_t>& isTemp, uint32_t K) {
  const uint32_t n = g.size();
  std::vector<double> nodeCost(n, 0.0);
  std::vector<uint8_t> isNode(n, 0), nodeTemp(n, 0);
  for (uint32_t r = 0; r < n; ++r) {
    if (g.width(r) == 0) continue;
    const uint32_t x = rep[r];
    isNode[x] = 1;
    nodeCost[x] += cost[r];
    nodeTemp[x] |= isTemp[r];
  }
  for (uint32_t x = 0; x < n; ++x)
    if (nodeTemp[x]) nodeCost[x] = std::numeric_limits<double>::infinity();

  // Simplify: remove trivially colourable nodes, else push the cheapest spill candidate.
  std::vector<uint32_t> degree(n, 0), stack;
  std::vector<uint8_t> removed(n, 1);
  uint32_t remaining = 0;
  for (uint32_t x = 0; x < n; ++x)
    if (isNode[x]) {
      removed[x] = 0;
      degree[x] = g.weightedDegree(x);
      ++remaining;
    }
  auto trivial = [&](uint32_t x) { return degree[x] < K / g.width(x); };
  std::vector<uint32_t> low;
  std::vector<uint8_t> queued(n, 0);
  for (uint32_t x = n; x-- > 0;)
    if (isNode[x] && trivial(x)) {
      low.push_back(x);
      queued[x] = 1;
    }
  auto remove = [&](uint32_t x) {
    removed[x] = 1;
    --remaining;
    stack.push_back(x);
    for (uint32_t m : g.neighbours(x)) {
      if (removed[m]) continue;
      degree[m] -= g.weight(m, x);
      if (!queued[m] && trivial(m)) {
        low.push_back(m);
        queued[m] = 1;
      }
    }
  };
  while (remaining > 0) {
    if (!low.empty()) {
      const uint32_t x = low.back();
      low.pop_back();
      if (!removed[x]) remove(x);
      continue;
    }
    uint32_t best = n;
    double bestRatio = 0;
    for (uint32_t x = 0; x < n; ++x) {
      if (removed[x]) continue;
      const double ratio = nodeCost[x] / std::max<uint32_t>(degree[x], 1);
      if (best == n || ratio < bestRatio) {
        best = x;
        bestRatio = ratio;
      }
    }
    queued[best] = 1;
    remove(best);
  }

  // Select: lowest free aligned base register.
  ColouringResult out;
  std::vector<int32_t> colour(n, -1);
  std::vector<uint32_t> spilledNodes;
  std::vector<uint8_t> spillNode(n, 0);
  for (auto it = stack.rbegin(); it != stack.rend(); ++it) {
    const uint32_t x = *it;
    const uint32_t w = g.width(x);
    std::bitset<512> used;
    for (uint32_t m : g.neighbours(x))
      if (colour[m] >= 0)
        for (uint32_t k = 0; k < g.width(m); ++k) used.set(static_cast<size_t>(colour[m]) + k);
    for (uint32_t c = 0; c + w <= K; c += w) {
      bool free = true;
      for (uint32_t k = 0; k < w && free; ++k) free = !used.test(c + k);
      if (free) {
        colour[x] = static_cast<int32_t>(c);
        break;
      }
    }
    if (colour[x] >= 0) continue;
    if (!nodeTemp[x]) {
      spillNode[x] = 1;
      continue;
    }
    // A temporary must get a register: spill the cheapest ordinary value it interferes with
    // instead (temporaries live only around one instruction, so this lowers that pressure).
    uint32_t best = n;
    double bestRatio = 0;
    for (uint32_t m : g.neighbours(x)) {
      if (nodeTemp[m] || spillNode[m]) continue;
      const double ratio = nodeCost[m] / std::max<uint32_t>(g.weightedDegree(m), 1);
      if (best == n || ratio < bestRatio || (ratio == bestRatio && m < best)) {
        best = m;
        bestRatio = ratio;
      }
    }
    if (best == n) throw std::logic_error("register allocation: a spill temporary cannot be coloured");
    spillNode[best] = 1;
  }
  out.colour.assign(n, -1);
  for (uint32_t r = 0; r < n; ++r) {
    if (g.width(r) == 0) continue;
    if (spillNode[rep[r]]) out.spilled.push_back(r);
    else out.colour[r] = colour[rep[r]];
  }
  return out;
}

}  // namespace warpsim::compiler
