// Control-flow analysis: basic blocks, successors/predecessors, immediate post-dominators and the
// reconvergence pc of every instruction. Liveness lives in liveness.cpp.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "ir/liveness.h"
#include "ir/module.h"

namespace warpsim::ir {
namespace {

bool guarded(const Instr& in) { return in.guard != kNoReg; }

// Instructions after which the straight-line flow of a block stops.
bool endsBlock(const Instr& in) {
  return in.op == Op::Bra || in.op == Op::Ret || in.op == Op::Exit || in.op == Op::Trap;
}

// Whether control can leave the function from this instruction (ret, exit, trap).
bool leavesFunction(const Instr& in) {
  return in.op == Op::Ret || in.op == Op::Exit || in.op == Op::Trap;
}

void buildBlocks(Function& f) {
  const auto n = static_cast<uint32_t>(f.code.size());
  f.blocks.clear();
  f.blockOf.assign(n, 0);
  if (n == 0) return;

  std::vector<bool> leader(n + 1, false);
  leader[0] = true;
  for (uint32_t i = 0; i < n; ++i) {
    const Instr& in = f.code[i];
    if (in.op == Op::Bra && in.target != kNoTarget && in.target < n) leader[in.target] = true;
    if (endsBlock(in)) leader[i + 1] = true;
  }
  for (uint32_t i = 0; i < n; ++i) {
    if (leader[i]) {
      BasicBlock b;
      b.first = i;
      f.blocks.push_back(b);
    }
    f.blocks.back().last = i;
    f.blockOf[i] = static_cast<uint32_t>(f.blocks.size() - 1);
  }

  auto addEdge = [&](uint32_t from, uint32_t to) {
    auto& s = f.blocks[from].succs;
    if (std::find(s.begin(), s.end(), to) == s.end()) {
      s.push_back(to);
      f.blocks[to].preds.push_back(from);
    }
  };
  for (uint32_t b = 0; b < f.blocks.size(); ++b) {
    const Instr& last = f.code[f.blocks[b].last];
    const uint32_t next = f.blocks[b].last + 1;
    bool fallsThrough = true;
    if (last.op == Op::Bra) {
      if (last.target != kNoTarget && last.target < n) addEdge(b, f.blockOf[last.target]);
      fallsThrough = guarded(last);
    } else if (leavesFunction(last)) {
      fallsThrough = guarded(last);
    }
    if (fallsThrough && next < n) addEdge(b, f.blockOf[next]);
  }
}

// Whether block b returns to the caller: ends in ret, or falls off the end of the function.
bool returnsNormally(const Function& f, uint32_t b) {
  const Instr& last = f.code[f.blocks[b].last];
  if (last.op == Op::Ret) return true;
  if (f.blocks[b].last + 1 == f.code.size()) {
    if (last.op == Op::Exit || last.op == Op::Trap) return false;
    return !(last.op == Op::Bra && !guarded(last));  // an unguarded bra never falls through
  }
  return false;
}
bool endsInExitOrTrap(const Function& f, uint32_t b) {
  const Instr& last = f.code[f.blocks[b].last];
  return last.op == Op::Exit || last.op == Op::Trap;
}

constexpr uint32_t kUnset = UINT32_MAX;

// Immediate post-dominators (block index, nb for the virtual exit node, kUnset for blocks that
// cannot reach it) of the CFG extended by a virtual exit node with edges from the blocks that
// return and, with `exitEdges`, from blocks ending in exit/trap. With `repair`, blocks that still
// cannot reach the exit (infinite loops) get a fake edge to it from their highest-numbered block,
// one region at a time, so that branches inside such loops still reconverge within the loop.
std::vector<uint32_t> postDominators(const Function& f, bool exitEdges, bool repair) {
  const auto nb = static_cast<uint32_t>(f.blocks.size());
  const uint32_t exitNode = nb;
  std::vector<std::vector<uint32_t>> succ(nb + 1);  // original successors, plus the exit node
  for (uint32_t b = 0; b < nb; ++b) {
    succ[b] = f.blocks[b].succs;
    if (returnsNormally(f, b) || (exitEdges && endsInExitOrTrap(f, b))) succ[b].push_back(exitNode);
  }
  // Successors in the reverse graph = original predecessors.
  std::vector<std::vector<uint32_t>> rsucc(nb + 1);
  auto buildReverse = [&] {
    for (auto& v : rsucc) v.clear();
    for (uint32_t b = 0; b < nb; ++b)
      for (uint32_t s : succ[b]) rsucc[s].push_back(b);
  };
  auto reach = [&](std::vector<bool>& seen) {
    seen.assign(nb + 1, false);
    std::vector<uint32_t> work{exitNode};
    seen[exitNode] = true;
    while (!work.empty()) {
      uint32_t v = work.back();
      work.pop_back();
      for (uint32_t p : rsucc[v])
        if (!seen[p]) {
          seen[p] = true;
          work.push_back(p);
        }
    }
  };
  buildReverse();
  std::vector<bool> seen;
  reach(seen);
  while (repair) {
    int highest = -1;
    for (uint32_t b = 0; b < nb; ++b)
      if (!seen[b]) highest = static_cast<int>(b);
    if (highest < 0) break;
    succ[static_cast<uint32_t>(highest)].push_back(exitNode);
    buildReverse();
    reach(seen);
  }

  // Post-order of the reverse graph from the exit node (iterative DFS).
  std::vector<uint32_t> postNum(nb + 1, UINT32_MAX), order;
  {
    std::vector<bool> visited(nb + 1, false);
    std::vector<std::pair<uint32_t, size_t>> stack{{exitNode, 0}};
    visited[exitNode] = true;
    while (!stack.empty()) {
      auto& [v, i] = stack.back();
      if (i < rsucc[v].size()) {
        uint32_t w = rsucc[v][i++];
        if (!visited[w]) {
          visited[w] = true;
          stack.push_back({w, 0});
        }
      } else {
        postNum[v] = static_cast<uint32_t>(order.size());
        order.push_back(v);
        stack.pop_back();
      }
    }
  }

  // Cooper-Harvey-Kennedy iterative dominators on the reverse graph; nodes that cannot reach
  // the exit node keep kUnset and are ignored by their predecessors.
  std::vector<uint32_t> idom(nb + 1, kUnset);
  idom[exitNode] = exitNode;
  auto intersect = [&](uint32_t a, uint32_t b) {
    while (a != b) {
      while (postNum[a] < postNum[b]) a = idom[a];
      while (postNum[b] < postNum[a]) b = idom[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      uint32_t v = *it;
      if (v == exitNode) continue;
      uint32_t newIdom = kUnset;
      for (uint32_t p : succ[v]) {  // predecessors of v in the reverse graph
        if (idom[p] == kUnset) continue;
        newIdom = newIdom == kUnset ? p : intersect(p, newIdom);
      }
      if (newIdom != kUnset && idom[v] != newIdom) {
        idom[v] = newIdom;
        changed = true;
      }
    }
  }
  idom.pop_back();
  return idom;
}

// Lanes that execute exit or trap vanish, so a branch whose paths meet again except for those
// that exit should reconverge where they meet. Post-dominators are therefore taken first over
// returning paths only; blocks that can only end in exit/trap (or loop forever) take them from the
// graph in which exit/trap also lead to the function exit.
void computePostDominators(Function& f) {
  const auto nb = static_cast<uint32_t>(f.blocks.size());
  const std::vector<uint32_t> returning = postDominators(f, false, false);
  const std::vector<uint32_t> all = postDominators(f, true, true);
  for (uint32_t b = 0; b < nb; ++b) {
    const uint32_t d = returning[b] != kUnset ? returning[b] : all[b];
    f.blocks[b].ipdom = (d == nb || d == kUnset) ? kNoTarget : d;
  }
}

void computeReconvergence(Function& f) {
  f.reconvergePc.assign(f.code.size(), kNoTarget);
  for (uint32_t i = 0; i < f.code.size(); ++i) {
    uint32_t ipdom = f.blocks[f.blockOf[i]].ipdom;
    f.reconvergePc[i] = ipdom == kNoTarget ? kNoTarget : f.blocks[ipdom].first;
  }
}

}  // namespace

void analyzeFunction(Function& f) {
  buildBlocks(f);
  if (f.code.empty()) {
    f.reconvergePc.clear();
    f.liveIn.clear();
    f.maxLiveRegs = 0;
    return;
  }
  computePostDominators(f);
  computeReconvergence(f);
  computeLiveness(f);
}

void analyze(Module& m) {
  for (Function& f : m.functions) analyzeFunction(f);
}

}  // namespace warpsim::ir
