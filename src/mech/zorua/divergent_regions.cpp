#include "mech/zorua/divergent_regions.h"

namespace warpsim::mech::zorua {

bool isDivergentTerminator(const ir::Function& f, const ir::Instr& in) {
  if (in.guard == ir::kNoReg) return false;
  if (in.op == ir::Op::Bra) return !in.has(ir::kUni);
  return in.op == ir::Op::Ret && !f.isEntry;
}

DivergentRegions findDivergentRegions(const ir::Function& f) {
  DivergentRegions out;
  out.divergentPc.assign(f.code.size(), 0);
  const size_t nb = f.blocks.size();
  std::vector<uint8_t> seen(nb);
  std::vector<uint32_t> stack;
  for (uint32_t b = 0; b < nb; ++b) {
    const ir::BasicBlock& branch = f.blocks[b];
    if (!isDivergentTerminator(f, f.code[branch.last])) continue;
    std::fill(seen.begin(), seen.end(), 0);
    stack.assign(branch.succs.begin(), branch.succs.end());
    while (!stack.empty()) {
      const uint32_t x = stack.back();
      stack.pop_back();
      if (x == branch.ipdom || seen[x]) continue;
      seen[x] = 1;
      for (uint32_t s : f.blocks[x].succs) stack.push_back(s);
    }
    DivergentRegion region;
    region.branchBlock = b;
    for (uint32_t x = 0; x < nb; ++x) {
      if (!seen[x]) continue;
      region.blocks.push_back(x);
      for (uint32_t pc = f.blocks[x].first; pc <= f.blocks[x].last; ++pc) out.divergentPc[pc] = 1;
    }
    if (!region.blocks.empty()) out.regions.push_back(std::move(region));
  }
  return out;
}

}  // namespace warpsim::mech::zorua
