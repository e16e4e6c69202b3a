// Dominance between the instructions (pcs) of one function, from its basic blocks: a dominates
// b when every path from the function's entry to b passes a (the allocator keeps a value above
// the MRF only for reads its definition dominates).
#pragma once
#include <cstdint>
#include <vector>

#include "ir/module.h"

namespace warpsim::mech::orf_lrf {

class Dominance {
 public:
  explicit Dominance(const ir::Function& fn);
  // Every path from the entry to pc b passes pc a (a before b in its block).
  bool dominates(uint32_t a, uint32_t b) const;
  bool sameBlock(uint32_t a, uint32_t b) const { return fn_.blockOf[a] == fn_.blockOf[b]; }

 private:
  const ir::Function& fn_;
  std::vector<std::vector<uint64_t>> dom_;   // per block: the blocks dominating it
};

}  // namespace warpsim::mech::orf_lrf
