#include "mech/orf_lrf/dominance.h"

namespace warpsim::mech::orf_lrf {

namespace {
bool testBit(const std::vector<uint64_t>& b, size_t i) { return (b[i >> 6] >> (i & 63)) & 1u; }
void setBit(std::vector<uint64_t>& b, size_t i) { b[i >> 6] |= uint64_t{1} << (i & 63); }
}  // namespace

Dominance::Dominance(const ir::Function& fn) : fn_(fn) {
  const size_t nb = fn.blocks.size();
  const size_t words = (nb + 63) / 64 + 1;
  dom_.assign(nb, std::vector<uint64_t>(words, ~uint64_t{0}));
  if (nb == 0) return;
  dom_[0].assign(words, 0);
  setBit(dom_[0], 0);
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t b = 1; b < nb; ++b) {
      std::vector<uint64_t> d(words, ~uint64_t{0});
      if (fn.blocks[b].preds.empty()) d.assign(words, 0);
      for (uint32_t p : fn.blocks[b].preds)
        for (size_t w = 0; w < words; ++w) d[w] &= dom_[p][w];
      setBit(d, b);
      if (d != dom_[b]) {
        dom_[b] = std::move(d);
        changed = true;
      }
    }
  }
}

bool Dominance::dominates(uint32_t a, uint32_t b) const {
  const uint32_t ba = fn_.blockOf[a], bb = fn_.blockOf[b];
  return ba == bb ? a < b : testBit(dom_[bb], ba);
}

}  // namespace warpsim::mech::orf_lrf
