#include "compiler/liveness_points.h"

namespace warpsim::compiler {

ClassLiveness computeClassLiveness(const FunctionRegisters& regs, RegClass cls) {
  const ir::Function& f = regs.fn();
  ClassLiveness L;
  L.cls = cls;
  L.words = (regs.count(cls) + 63) / 64;
  const size_t nb = f.blocks.size();
  std::vector<Bits> gen(nb, Bits(L.words, 0)), kill(nb, Bits(L.words, 0));
  for (size_t b = 0; b < nb; ++b) {
    for (uint32_t i = f.blocks[b].last + 1; i-- > f.blocks[b].first;) {
      const ir::Instr& in = f.code[i];
      InstrRefs refs = instrRefs(in, cls, regs);
      if (in.guard == ir::kNoReg)
        for (unsigned k = 0; k < refs.numDefs; ++k) {
          clearBit(gen[b], refs.defs[k]);
          setBit(kill[b], refs.defs[k]);
        }
      for (unsigned k = 0; k < refs.numUses; ++k) setBit(gen[b], refs.uses[k]);
    }
  }
  std::vector<Bits> liveIn(nb, Bits(L.words, 0));
  L.liveOut.assign(nb, Bits(L.words, 0));
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t b = nb; b-- > 0;) {
      Bits& out = L.liveOut[b];
      for (uint32_t s : f.blocks[b].succs)
        for (size_t w = 0; w < L.words; ++w) out[w] |= liveIn[s][w];
      for (size_t w = 0; w < L.words; ++w) {
        uint64_t in = gen[b][w] | (out[w] & ~kill[b][w]);
        if (in != liveIn[b][w]) {
          liveIn[b][w] = in;
          changed = true;
        }
      }
    }
  }
  return L;
}

std::vector<uint32_t> loopDepths(const ir::Function& f) {
  const auto nb = static_cast<uint32_t>(f.blocks.size());
  std::vector<uint32_t> depth(nb, 0);
  std::vector<uint8_t> inLoop(nb);
  for (uint32_t b = 0; b < nb; ++b)
    for (uint32_t h : f.blocks[b].succs) {
      if (h > b) continue;
      // Blocks that reach b without passing through h, plus h: the loop of back edge b -> h.
      std::fill(inLoop.begin(), inLoop.end(), 0);
      inLoop[h] = 1;
      std::vector<uint32_t> work;
      if (!inLoop[b]) {
        inLoop[b] = 1;
        work.push_back(b);
      }
      while (!work.empty()) {
        uint32_t x = work.back();
        work.pop_back();
        for (uint32_t p : f.blocks[x].preds)
          if (!inLoop[p]) {
            inLoop[p] = 1;
            work.push_back(p);
          }
      }
      for (uint32_t x = 0; x < nb; ++x) depth[x] += inLoop[x];
    }
  return depth;
}

}  // namespace warpsim::compiler
