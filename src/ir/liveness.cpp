// Backward liveness of value registers over basic blocks (bit sets, one word per 64 registers).
#include "ir/liveness.h"

#include <algorithm>
#include <bit>

namespace warpsim::ir {
namespace {

using Bits = std::vector<uint64_t>;

void set(Bits& b, uint32_t r) { b[r / 64] |= uint64_t{1} << (r % 64); }
void clear(Bits& b, uint32_t r) { b[r / 64] &= ~(uint64_t{1} << (r % 64)); }
bool test(const Bits& b, uint32_t r) { return (b[r / 64] >> (r % 64)) & 1; }
uint32_t count(const Bits& b) {
  uint32_t n = 0;
  for (uint64_t w : b) n += static_cast<uint32_t>(std::popcount(w));
  return n;
}

}  // namespace

RegUses regUses(const Instr& in) {
  RegUses u;
  auto addUse = [&](uint32_t r) {
    if (r != kNoReg) u.uses[u.numUses++] = r;
  };
  auto addDef = [&](uint32_t r) {
    if (r != kNoReg) u.defs[u.numDefs++] = r;
  };
  const unsigned total = std::min<unsigned>(in.numDst + in.numSrc, kMaxOperands);
  for (unsigned i = 0; i < total; ++i) {
    const Operand& op = in.ops[i];
    const bool isDst = i < in.numDst;
    switch (op.kind) {
      case OperandKind::Reg:
        isDst ? addDef(op.reg) : addUse(op.reg);
        break;
      case OperandKind::Imm:
        if (!isDst) addUse(op.reg);
        break;
      case OperandKind::Address:
        addUse(op.reg);  // a base register is read even in a destination position
        break;
      case OperandKind::Vector:
        for (unsigned k = 0; k < op.count && k < 4; ++k) isDst ? addDef(op.vec[k]) : addUse(op.vec[k]);
        break;
      default:
        break;
    }
  }
  return u;
}

void computeLiveness(Function& f) {
  const auto numRegs = static_cast<uint32_t>(f.regs.size());
  const size_t words = (numRegs + 63) / 64;
  Bits isConst(words, 0);
  for (const ConstReg& c : f.constRegs)
    if (c.reg < numRegs) set(isConst, c.reg);
  auto tracked = [&](uint32_t r) { return r < numRegs && !test(isConst, r); };

  const size_t nb = f.blocks.size();
  // Per block: registers read before written (gen) and registers surely written (kill).
  std::vector<Bits> gen(nb, Bits(words, 0)), kill(nb, Bits(words, 0));
  for (size_t b = 0; b < nb; ++b) {
    for (uint32_t i = f.blocks[b].last + 1; i-- > f.blocks[b].first;) {
      const Instr& in = f.code[i];
      RegUses u = regUses(in);
      if (in.guard == kNoReg) {  // a guarded write may not happen: it kills nothing
        for (unsigned k = 0; k < u.numDefs; ++k)
          if (tracked(u.defs[k])) {
            clear(gen[b], u.defs[k]);
            set(kill[b], u.defs[k]);
          }
      }
      for (unsigned k = 0; k < u.numUses; ++k)
        if (tracked(u.uses[k])) set(gen[b], u.uses[k]);
    }
  }

  f.liveIn.assign(nb, Bits(words, 0));
  std::vector<Bits> liveOut(nb, Bits(words, 0));
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t b = nb; b-- > 0;) {
      Bits out(words, 0);
      for (uint32_t s : f.blocks[b].succs)
        for (size_t w = 0; w < words; ++w) out[w] |= f.liveIn[s][w];
      Bits in(words);
      for (size_t w = 0; w < words; ++w) in[w] = gen[b][w] | (out[w] & ~kill[b][w]);
      liveOut[b] = std::move(out);
      if (in != f.liveIn[b]) {
        f.liveIn[b] = std::move(in);
        changed = true;
      }
    }
  }

  // Peak pressure: walk each block backwards from its live-out set.
  uint32_t peak = 0;
  for (size_t b = 0; b < nb; ++b) {
    Bits live = liveOut[b];
    peak = std::max(peak, count(live));
    for (uint32_t i = f.blocks[b].last + 1; i-- > f.blocks[b].first;) {
      const Instr& in = f.code[i];
      RegUses u = regUses(in);
      Bits after = live;  // live just after the instruction, plus its (possibly dead) results
      for (unsigned k = 0; k < u.numDefs; ++k)
        if (tracked(u.defs[k])) set(after, u.defs[k]);
      peak = std::max(peak, count(after));
      if (in.guard == kNoReg)
        for (unsigned k = 0; k < u.numDefs; ++k)
          if (tracked(u.defs[k])) clear(live, u.defs[k]);
      for (unsigned k = 0; k < u.numUses; ++k)
        if (tracked(u.uses[k])) set(live, u.uses[k]);
      peak = std::max(peak, count(live));
    }
  }
  f.maxLiveRegs = peak;
}

}  // namespace warpsim::ir
