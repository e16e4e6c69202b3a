// ld / ldu / st in every state space, scalar and .v2/.v4.
#include <bit>
#include <cstring>

#include "func/alu/lanes.h"
#include "func/executors.h"
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

inline void beginRecord(ExecCtx& ctx, const LinkedInstr& li, bool store) {
  if (ExecRecord* r = ctx.record) {
    r->space = li.space;
    r->accessBytes = li.accessBytes;
    r->isStore = store;
  }
}

}  // namespace

void execLoad(const ir::Instr& in, ExecCtx& ctx) {
  const LinkedInstr& li = linkedOf(in);
  Warp& w = *ctx.warp;
  const bool generic = li.space == ir::Space::Generic;
  const uint64_t base = w.addrBase(li.addr, generic);
  const uint64_t* breg = li.addr.baseReg != ir::kNoReg ? ctx.reg(li.addr.baseReg) : nullptr;
  uint32_t regs[4];
  const unsigned n = dataRegs(in.dst(0), regs);
  const unsigned eb = li.elemBytes;
  const bool sext = ir::isSigned(in.type);
  uint64_t masks[4];
  for (unsigned k = 0; k < n; ++k) masks[k] = lanes::widthMask(li.dstBits[k]);
  ExecRecord* rec = ctx.record;
  beginRecord(ctx, li, false);
  for (uint32_t m = ctx.mask; m != 0; m &= m - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(m));
    uint64_t a = base + (breg ? breg[lane] : 0);
    ir::Space space;
    const uint8_t* p = w.resolve(li.space, a, li.accessBytes, lane, "load", &space);
    if (!p) return;
    for (unsigned k = 0; k < n; ++k) {
      if (regs[k] == ir::kNoReg) continue;
      uint64_t v = loadBits(p + k * eb, eb);
      if (sext) v = static_cast<uint64_t>(lanes::signExtend(v, eb * 8));
      ctx.reg(regs[k])[lane] = v & masks[k];
    }
    if (rec) {
      rec->addr[lane] = a;
      rec->laneSpace[lane] = space;
    }
  }
}

void execStore(const ir::Instr& in, ExecCtx& ctx) {
  const LinkedInstr& li = linkedOf(in);
  Warp& w = *ctx.warp;
  const bool generic = li.space == ir::Space::Generic;
  const uint64_t base = w.addrBase(li.addr, generic);
  const uint64_t* breg = li.addr.baseReg != ir::kNoReg ? ctx.reg(li.addr.baseReg) : nullptr;
  uint32_t regs[4];
  const unsigned n = dataRegs(in.ops[1], regs);
  const unsigned eb = li.elemBytes;
  ExecRecord* rec = ctx.record;
  beginRecord(ctx, li, true);
  for (uint32_t m = ctx.mask; m != 0; m &= m - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(m));
    uint64_t a = base + (breg ? breg[lane] : 0);
    ir::Space space;
    uint8_t* p = w.resolve(li.space, a, li.accessBytes, lane, "store", &space);
    if (!p) return;
    for (unsigned k = 0; k < n; ++k)
      if (regs[k] != ir::kNoReg) storeBits(p + k * eb, ctx.reg(regs[k])[lane], eb);
    if (rec) {
      rec->addr[lane] = a;
      rec->laneSpace[lane] = space;
    }
  }
}

void execNop(const ir::Instr&, ExecCtx&) {}

}  // namespace warpsim::func
