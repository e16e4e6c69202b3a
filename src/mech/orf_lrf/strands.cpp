#include "mech/orf_lrf/strands.h"

#include <algorithm>

namespace warpsim::mech::orf_lrf {

namespace {

using timing::DecodedInstr;

bool producesLongLatency(const DecodedInstr& d) {
  return d.has(DecodedInstr::kLongLatency) && !d.has(DecodedInstr::kStore) && d.numDst > 0;
}

}  // namespace

FunctionCode decodeFunction(const func::Program& program, uint32_t function) {
  FunctionCode f;
  f.ir = &program.module().functions[function];
  const func::LinkedFunction& lf = program.function(function);
  const std::vector<ir::RegInfo>& regs = f.ir->regs;
  auto wide = [&](uint32_t r) { return r < regs.size() && regs[r].bits > 32; };
  f.code.reserve(lf.code.size());
  for (const func::LinkedInstr& li : lf.code) {
    timing::DecodedInstr d = timing::decodeInstr(li);
    for (unsigned i = 0; i < d.numSrc; ++i) d.srcWide |= static_cast<uint8_t>(wide(d.src[i]) << i);
    for (unsigned i = 0; i < d.numDst; ++i) d.dstWide |= static_cast<uint8_t>(wide(d.dst[i]) << i);
    f.code.push_back(d);
    f.guarded.push_back(li.in.guard != ir::kNoReg ? 1 : 0);
    const bool param = li.space == ir::Space::KernelParam || li.space == ir::Space::FrameParam;
    f.longLatency.push_back(producesLongLatency(d) && !param ? 1 : 0);
  }
  return f;
}

Strands formStrands(const FunctionCode& f) {
  const size_t n = f.code.size();
  const ir::Function& fn = *f.ir;
  std::vector<int> cause(n + 1, -1);  // the cause of a strand beginning at pc, or -1
  auto begin = [&](size_t pc, StrandCause c) {
    if (pc < n && cause[pc] < 0) cause[pc] = static_cast<int>(c);
  };
  if (n == 0) return {};
  begin(0, StrandCause::FunctionEntry);
  for (const ir::BasicBlock& b : fn.blocks) {
    for (uint32_t s : b.succs) {
      if (fn.blocks[s].first <= b.last) {  // backward edge
        begin(fn.blocks[s].first, StrandCause::LoopHead);
        begin(b.last + 1, StrandCause::BackwardBranch);
      }
    }
  }
  for (size_t pc = 0; pc < n; ++pc) {
    const DecodedInstr& d = f.code[pc];
    if (d.has(DecodedInstr::kFence) || (d.has(DecodedInstr::kBarrier) && !d.has(DecodedInstr::kControl))) {
      begin(pc + 1, StrandCause::Barrier);
    }
    if (d.has(DecodedInstr::kDrain) && !d.has(DecodedInstr::kBarrier)) begin(pc + 1, StrandCause::Call);
  }
  // Long-latency dependences: registers a long-latency instruction of the current strand may
  // still be writing, propagated forward in layout order (forward edges only: a backward edge
  // always enters a new strand).
  const size_t words = (std::max<size_t>(fn.regs.size(), 1) + 63) / 64 + 1;
  std::vector<std::vector<uint64_t>> pendingOut(fn.blocks.size(), std::vector<uint64_t>(words, 0));
  std::vector<uint64_t> pending(words);
  auto has = [&](uint32_t r) { return r / 64 < words && (pending[r / 64] >> (r % 64) & 1u); };
  auto set = [&](uint32_t r, bool v) {
    if (r / 64 >= words) return;
    if (v) pending[r / 64] |= uint64_t{1} << (r % 64);
    else pending[r / 64] &= ~(uint64_t{1} << (r % 64));
  };
  for (size_t bi = 0; bi < fn.blocks.size(); ++bi) {
    const ir::BasicBlock& b = fn.blocks[bi];
    std::fill(pending.begin(), pending.end(), 0);
    for (uint32_t p : b.preds) {
      if (fn.blocks[p].last < b.first) {
        for (size_t w = 0; w < words; ++w) pending[w] |= pendingOut[p][w];
      }
    }
    for (uint32_t pc = b.first; pc <= b.last; ++pc) {
      if (cause[pc] >= 0) std::fill(pending.begin(), pending.end(), 0);
      const DecodedInstr& d = f.code[pc];
      bool waits = false;
      for (unsigned i = 0; i < d.numSrc; ++i) waits = waits || has(d.src[i]);
      if (waits) {
        begin(pc, StrandCause::LongLatency);
        std::fill(pending.begin(), pending.end(), 0);
      }
      if (!f.guarded[pc])
        for (unsigned i = 0; i < d.numDst; ++i) set(d.dst[i], false);
      if (f.longLatency[pc])
        for (unsigned i = 0; i < d.numDst; ++i) set(d.dst[i], true);
    }
    pendingOut[bi] = pending;
  }
  Strands s;
  s.strandOf.resize(n);
  for (size_t pc = 0; pc < n; ++pc) {
    if (cause[pc] >= 0) {
      s.start.push_back(static_cast<uint32_t>(pc));
      s.cause.push_back(static_cast<StrandCause>(cause[pc]));
    }
    s.strandOf[pc] = static_cast<uint32_t>(s.start.size() - 1);
  }
  return s;
}

}  // namespace warpsim::mech::orf_lrf
