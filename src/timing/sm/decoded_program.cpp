#include "timing/sm/decoded_program.h"

#include <algorithm>

namespace warpsim::timing {

namespace {

template <size_t N>
void addUnique(uint32_t (&list)[N], uint8_t& n, uint32_t reg) {
  for (unsigned i = 0; i < n; ++i)
    if (list[i] == reg) return;
  if (n < N) list[n++] = reg;
}

}  // namespace

DecodedInstr decodeInstr(const func::LinkedInstr& li) {
  const ir::Instr& in = li.in;
  DecodedInstr d;
  const ir::OpClass cls = ir::opClass(in);
  d.unit = unitFor(cls);
  for (unsigned i = 0; i < li.numSrcRegs; ++i) addUnique(d.src, d.numSrc, li.srcRegs[i]);
  for (unsigned i = 0; i < li.numDstRegs; ++i) addUnique(d.dst, d.numDst, li.dstRegs[i]);
  if (in.guard != ir::kNoReg) addUnique(d.predSrc, d.numPredSrc, in.guard);
  const unsigned nops = std::min<unsigned>(in.numDst + in.numSrc, ir::kMaxOperands);
  for (unsigned k = 0; k < nops; ++k) {
    const ir::Operand& op = in.ops[k];
    if (op.kind != ir::OperandKind::Pred) continue;
    if (k < in.numDst) addUnique(d.predDst, d.numPredDst, op.reg);
    else addUnique(d.predSrc, d.numPredSrc, op.reg);
  }
  switch (in.op) {
    case ir::Op::Ld: case ir::Op::Ldu: case ir::Op::St: case ir::Op::Atom: case ir::Op::Red:
    case ir::Op::Prefetch:
      d.flags |= DecodedInstr::kMemory;
      if (li.space != ir::Space::Shared) d.flags |= DecodedInstr::kLongLatency;
      if (in.op == ir::Op::St || in.op == ir::Op::Red || in.op == ir::Op::Prefetch)
        d.flags |= DecodedInstr::kStore;
      break;
    case ir::Op::Bra: d.flags |= DecodedInstr::kControl; break;
    case ir::Op::Exit: d.flags |= DecodedInstr::kControl | DecodedInstr::kBarrier; break;
    case ir::Op::Call: d.flags |= DecodedInstr::kControl | DecodedInstr::kDrain; break;
    case ir::Op::Ret: d.flags |= DecodedInstr::kControl | DecodedInstr::kDrain | DecodedInstr::kBarrier; break;
    case ir::Op::Membar: d.flags |= DecodedInstr::kFence; break;
    case ir::Op::Bar: d.flags |= DecodedInstr::kBarrier; break;
    case ir::Op::Fence:
      // bar.warp.sync is lowered to a fence with its mask as the one source: no memory effect.
      if (in.numSrc == 0) d.flags |= DecodedInstr::kFence;
      break;
    default: break;
  }
  return d;
}

void DecodedProgram::build(const func::Program& program, uint32_t instructionBytes, uint32_t lineBytes) {
  const size_t n = program.module().functions.size();
  code_.assign(n, {});
  base_.assign(n, 0);
  maxRegs_ = maxPreds_ = 0;
  uint64_t next = 0;
  for (size_t f = 0; f < n; ++f) {
    const func::LinkedFunction& lf = program.function(static_cast<uint32_t>(f));
    base_[f] = next;
    next += (uint64_t{lf.code.size()} * instructionBytes + lineBytes - 1) / lineBytes * lineBytes;
    code_[f].reserve(lf.code.size());
    const std::vector<ir::RegInfo>& regs = program.module().functions[f].regs;
    auto wide = [&](uint32_t r) { return r < regs.size() && regs[r].bits > 32; };
    for (const func::LinkedInstr& li : lf.code) {
      DecodedInstr d = decodeInstr(li);
      for (unsigned i = 0; i < d.numSrc; ++i) d.srcWide |= static_cast<uint8_t>(wide(d.src[i]) << i);
      for (unsigned i = 0; i < d.numDst; ++i) d.dstWide |= static_cast<uint8_t>(wide(d.dst[i]) << i);
      code_[f].push_back(d);
    }
    maxRegs_ = std::max(maxRegs_, lf.numRegs);
    maxPreds_ = std::max(maxPreds_, lf.numPreds);
  }
}

}  // namespace warpsim::timing
