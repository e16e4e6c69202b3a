#include "mech/zorua/shared_liveness.h"

namespace warpsim::mech::zorua {

namespace {

bool isDynamicShared(const ir::Symbol& s) { return s.isDynamicShared || (s.isExtern && s.size == 0); }

// Blocks whose end returns to the caller (ret, or falling off the function's end).
bool returns(const ir::Function& f, uint32_t b) {
  const ir::Instr& last = f.code[f.blocks[b].last];
  if (last.op == ir::Op::Ret) return true;
  if (f.blocks[b].last + 1 != f.code.size()) return false;
  if (last.op == ir::Op::Exit || last.op == ir::Op::Trap) return false;
  return !(last.op == ir::Op::Bra && last.guard == ir::kNoReg);
}

// Per block: variables some access reaches at its entry, and variables some access is reached
// from at its end.
struct BlockReach {
  std::vector<uint64_t> reachedIn, reachesOut;
};

BlockReach blockReach(const ir::Function& f, const std::vector<uint64_t>& access, uint64_t atEntry,
                      uint64_t afterReturn) {
  const size_t nb = f.blocks.size();
  std::vector<uint64_t> inBlock(nb, 0);
  for (size_t b = 0; b < nb; ++b)
    for (uint32_t pc = f.blocks[b].first; pc <= f.blocks[b].last; ++pc) inBlock[b] |= access[pc];
  BlockReach r;
  r.reachedIn.assign(nb, 0);
  r.reachesOut.assign(nb, 0);
  if (nb == 0) return r;
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t b = 0; b < nb; ++b) {
      uint64_t in = b == 0 ? atEntry : 0;
      for (uint32_t p : f.blocks[b].preds) in |= r.reachedIn[p] | inBlock[p];
      if (in != r.reachedIn[b]) {
        r.reachedIn[b] = in;
        changed = true;
      }
    }
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t b = nb; b-- > 0;) {
      uint64_t out = returns(f, static_cast<uint32_t>(b)) ? afterReturn : 0;
      for (uint32_t s : f.blocks[b].succs) out |= r.reachesOut[s] | inBlock[s];
      if (out != r.reachesOut[b]) {
        r.reachesOut[b] = out;
        changed = true;
      }
    }
  }
  return r;
}

}  // namespace

uint64_t SharedVariables::staticBytes(uint64_t mask) const {
  uint64_t sum = 0;
  for (uint64_t m = mask & ~(uint64_t{1} << kDynamicBit); m != 0; m &= m - 1)
    sum += bytes[__builtin_ctzll(m)];
  return sum;
}

SharedVariables kernelSharedVariables(const func::Program& program, uint32_t kernel) {
  const ir::Module& m = program.module();
  const func::SharedLayout& layout = program.sharedLayout(kernel);
  SharedVariables v;
  v.bitOfSymbol.assign(m.symbols.size(), SharedVariables::kNone);
  uint32_t next = 0;
  bool dynamic = false;
  for (size_t s = 0; s < m.symbols.size() && s < layout.symbolOffset.size(); ++s) {
    const ir::Symbol& sym = m.symbols[s];
    if (sym.space != ir::Space::Shared || layout.symbolOffset[s] == func::SharedLayout::kUnplaced) continue;
    if (isDynamicShared(sym)) {
      v.bitOfSymbol[s] = SharedVariables::kDynamicBit;
      dynamic = true;
      continue;
    }
    const uint32_t bit = next < 62 ? next : 62;
    ++next;
    v.bitOfSymbol[s] = bit;
    v.bytes[bit] += sym.size;
    v.all |= uint64_t{1} << bit;
  }
  if (dynamic) v.all |= uint64_t{1} << SharedVariables::kDynamicBit;
  v.variables = next + (dynamic ? 1 : 0);
  return v;
}

std::vector<uint64_t> sharedSpans(const ir::Function& f, const std::vector<uint64_t>& access, uint64_t atEntry,
                                  uint64_t afterReturn) {
  std::vector<uint64_t> live(f.code.size(), 0);
  const BlockReach r = blockReach(f, access, atEntry, afterReturn);
  for (size_t b = 0; b < f.blocks.size(); ++b) {
    const ir::BasicBlock& blk = f.blocks[b];
    std::vector<uint64_t> reached(blk.last - blk.first + 1);
    uint64_t fwd = r.reachedIn[b];
    for (uint32_t pc = blk.first; pc <= blk.last; ++pc) {
      fwd |= access[pc];
      reached[pc - blk.first] = fwd;
    }
    uint64_t bwd = r.reachesOut[b];
    for (uint32_t pc = blk.last + 1; pc-- > blk.first;) {
      bwd |= access[pc];
      live[pc] = reached[pc - blk.first] & bwd;
    }
  }
  return live;
}

CallContext sharedAroundCall(const ir::Function& f, const std::vector<uint64_t>& access, uint32_t pc,
                             uint64_t atEntry, uint64_t afterReturn) {
  const BlockReach r = blockReach(f, access, atEntry, afterReturn);
  const uint32_t b = f.blockOf[pc];
  CallContext c;
  c.before = r.reachedIn[b];
  for (uint32_t i = f.blocks[b].first; i < pc; ++i) c.before |= access[i];
  c.after = r.reachesOut[b];
  for (uint32_t i = pc + 1; i <= f.blocks[b].last; ++i) c.after |= access[i];
  return c;
}

}  // namespace warpsim::mech::zorua
