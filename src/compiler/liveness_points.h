// Liveness of one register class over the function's CFG (Function::blocks must be current):
// the registers live at the end of every block. Walking a block backwards from its live-out
// set with stepBackward() gives the live set at every program point.
#pragma once
#include <cstdint>
#include <vector>

#include "compiler/function_registers.h"

namespace warpsim::compiler {

using Bits = std::vector<uint64_t>;
inline void setBit(Bits& b, uint32_t r) { b[r / 64] |= uint64_t{1} << (r % 64); }
inline void clearBit(Bits& b, uint32_t r) { b[r / 64] &= ~(uint64_t{1} << (r % 64)); }
inline bool testBit(const Bits& b, uint32_t r) { return (b[r / 64] >> (r % 64)) & 1; }
template <class Fn>
void forEachBit(const Bits& b, Fn&& fn) {
  for (size_t w = 0; w < b.size(); ++w)
    for (uint64_t x = b[w]; x != 0; x &= x - 1)
      fn(static_cast<uint32_t>(w * 64 + static_cast<unsigned>(__builtin_ctzll(x))));
}

struct ClassLiveness {
  RegClass cls = RegClass::Value;
  size_t words = 0;
  std::vector<Bits> liveOut;  // per block
};
ClassLiveness computeClassLiveness(const FunctionRegisters& regs, RegClass cls);

// live (just after `in`) becomes live just before it: unguarded defs die, uses (guarded defs
// included) become live.
inline void stepBackward(Bits& live, const InstrRefs& refs, const ir::Instr& in) {
  if (in.guard == ir::kNoReg)
    for (unsigned k = 0; k < refs.numDefs; ++k) clearBit(live, refs.defs[k]);
  for (unsigned k = 0; k < refs.numUses; ++k) setBit(live, refs.uses[k]);
}

// Loop nesting depth of every block: the number of natural loops (of backward edges b -> h,
// h <= b) that contain it.
std::vector<uint32_t> loopDepths(const ir::Function& f);

}  // namespace warpsim::compiler
