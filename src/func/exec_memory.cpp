// ld / ldu / st in every state space, scalar and .v2/.v4.
#include <bit>
#include <cstring>

#include "func/address_space.h"
#include "func/alu/lanes.h"
#include "func/executors.h"
#include "func/speculative_memory.h"
#include "func/warp.h"

namespace warpsim::func {
namespace {

inline uint64_t loadBits(const uint8_t* p, unsigned n) {
  switch (n) {
    case 1: return *p;
    case 2: { uint16_t v; std::memcpy(&v, p, 2); return v; }
    case 4: { uint32_t v; std::memcpy(&v, p, 4); return v; }
    default: { uint64_t v; std::memcpy(&v, p, 8); return v; }
  }
}
inline void storeBits(uint8_t* p, uint64_t v, unsigned n) {
  switch (n) {
    case 1: *p = static_cast<uint8_t>(v); break;
    case 2: { auto x = static_cast<uint16_t>(v); std::memcpy(p, &x, 2); break; }
    case 4: { auto x = static_cast<uint32_t>(v); std::memcpy(p, &x, 4); break; }
    default: std::memcpy(p, &v, 8); break;
  }
}

// Registers of a data operand: a scalar register or the elements of a vector (kNoReg for `_`).
inline unsigned dataRegs(const ir::Operand& op, uint32_t out[4]) {
  if (op.kind == ir::OperandKind::Vector) {
    for (unsigned k = 0; k < 4; ++k) out[k] = op.vec[k];
    return op.count;
  }
  out[0] = op.reg;
  return 1;
}

// The record's store data (ExecRecord::storeValues): an element whose register is not among the
// instruction's value-register sources is a hidden constant register (an immediate or a
// symbol's address), which holds the same bits in every lane.
inline void recordStoreData(ExecRecord& r, const LinkedInstr& li, const uint32_t regs[4],
                            const uint64_t* const src[4], unsigned n) {
  r.numStoreRegs = static_cast<uint8_t>(n);
  for (unsigned k = 0; k < n; ++k) {
    bool isValueReg = false;
    for (unsigned s = 0; s < li.numSrcRegs; ++s) isValueReg |= li.srcRegs[s] == regs[k];
    r.storeValues[k] = isValueReg ? src[k] : nullptr;
    r.storeImm[k] = isValueReg || !src[k] ? 0 : src[k][0];
  }
}

inline void beginRecord(ExecCtx& ctx, const LinkedInstr& li, bool store) {
  if (ExecRecord* r = ctx.record) {
    r->space = li.space;
    r->accessBytes = li.accessBytes;
    r->isStore = store;
  }
}

// Calls f(lane, hostPointer) for every executing lane in lane order, recording addresses; stops
// at the first illegal access (the warp holds the fault). Addresses in 32-bit spaces wrap modulo
// 2^32 (func/address_space.h). Global and const accesses inside an allocation take a fast path
// that remembers the allocation and page of the previous lane; everything else, and every device
// access while initcheck is on (kChecked), goes through Warp::resolve.
template <bool kChecked, class F>
inline void forEachAccessIn(ExecCtx& ctx, const LinkedInstr& li, const char* what, F&& f) {
  Warp& w = *ctx.warp;
  const bool generic = li.space == ir::Space::Generic;
  const uint64_t mask = addressMask(li.space);
  const uint64_t base = w.addrBase(li.addr, generic);
  const uint64_t* breg = li.addr.baseReg != ir::kNoReg ? ctx.reg(li.addr.baseReg) : nullptr;
  const unsigned n = li.accessBytes;
  ExecRecord* rec = ctx.record;
  const bool global = li.space == ir::Space::Global || li.space == ir::Space::Const;
  // A register-free address in a space shared by the lanes (kernel parameters, shared, global):
  // one translation serves the warp.
  if (!breg && ctx.mask != 0 &&
      (global || li.space == ir::Space::KernelParam || li.space == ir::Space::Shared)) {
    uint64_t a = base;
    ir::Space space;
    uint8_t* p = w.resolve(li.space, a, n, static_cast<unsigned>(std::countr_zero(ctx.mask)), what, &space,
                           static_cast<uint32_t>(std::popcount(ctx.mask)));
    if (!p) return;
    for (uint32_t m = ctx.mask; m != 0; m &= m - 1) {
      const unsigned lane = static_cast<unsigned>(std::countr_zero(m));
      f(lane, p);
      if (rec) {
        rec->addr[lane] = base;
        rec->laneSpace[lane] = space;
      }
    }
    return;
  }
  DeviceMemory::Cursor cursor(*w.grid().memory);
  // A CTA running ahead of others (parallel functional mode) reaches global memory through its
  // speculative view.
  SpeculativeMemory* view = w.grid().speculation;
  const auto kind = what[0] == 'l' ? SpeculativeMemory::Access::Read : SpeculativeMemory::Access::Write;
  for (uint32_t m = ctx.mask; m != 0; m &= m - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(m));
    const uint64_t issued = (base + (breg ? breg[lane] : 0)) & mask;
    uint64_t a = issued;
    ir::Space space = li.space;
    uint8_t* p = nullptr;
    if (!kChecked && global && (a & (n - 1)) == 0) {
      if (!view) p = cursor.get(a, n);
      else if (cursor.allocated(a, n)) p = view->access(a, n, kind);
    }
    if (!p) {
      p = w.resolve(li.space, a, n, lane, what, &space);  // slow path; faults when illegal
      if (!p) return;
    }
    f(lane, p);
    if (rec) {
      rec->addr[lane] = issued;
      rec->laneSpace[lane] = space;
    }
  }
}

template <class F>
inline void forEachAccess(ExecCtx& ctx, const LinkedInstr& li, const char* what, F&& f) {
  if (ctx.warp->grid().options->initcheck) forEachAccessIn<true>(ctx, li, what, f);
  else forEachAccessIn<false>(ctx, li, what, f);
}

}  // namespace

void execLoad(const ir::Instr& in, ExecCtx& ctx) {
  const LinkedInstr& li = linkedOf(in);
  uint32_t regs[4];
  const unsigned n = dataRegs(in.dst(0), regs);
  const unsigned eb = li.elemBytes;
  const bool sext = ir::isSigned(in.type);
  uint64_t masks[4];
  uint64_t* dst[4];
  for (unsigned k = 0; k < n; ++k) {
    masks[k] = lanes::widthMask(li.dstBits[k]);
    dst[k] = regs[k] == ir::kNoReg ? nullptr : ctx.reg(regs[k]);
  }
  beginRecord(ctx, li, false);
  forEachAccess(ctx, li, "load", [&](unsigned lane, const uint8_t* p) {
    for (unsigned k = 0; k < n; ++k) {
      if (!dst[k]) continue;
      uint64_t v = loadBits(p + k * eb, eb);
      if (sext) v = static_cast<uint64_t>(lanes::signExtend(v, eb * 8));
      dst[k][lane] = v & masks[k];
    }
  });
}

void execStore(const ir::Instr& in, ExecCtx& ctx) {
  const LinkedInstr& li = linkedOf(in);
  uint32_t regs[4];
  const unsigned n = dataRegs(in.ops[1], regs);
  const unsigned eb = li.elemBytes;
  const uint64_t* src[4];
  for (unsigned k = 0; k < n; ++k) src[k] = regs[k] == ir::kNoReg ? nullptr : ctx.reg(regs[k]);
  beginRecord(ctx, li, true);
  if (ctx.record) recordStoreData(*ctx.record, li, regs, src, n);
  forEachAccess(ctx, li, "store", [&](unsigned lane, uint8_t* p) {
    for (unsigned k = 0; k < n; ++k)
      if (src[k]) storeBits(p + k * eb, src[k][lane], eb);
  });
}

void execNop(const ir::Instr&, ExecCtx&) {}

}  // namespace warpsim::func
