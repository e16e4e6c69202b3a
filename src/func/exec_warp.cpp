// Warp-level data exchange: shfl.sync, vote.sync, match.sync, activemask.
//
// The participating lanes are the executing lanes (ctx.mask). A lane executing one of the .sync
// forms while missing from membermask is a fault (undefined behaviour in PTX). A shfl that reads
// a source lane that is not executing (diverged or exited) reads that lane's register as it is,
// which is what the register file would deliver; PTX leaves the value unspecified.
#include <bit>

#include <fmt/format.h>

#include "func/alu/lanes.h"
#include "func/executors.h"
#include "func/warp.h"

namespace warpsim::func {
namespace {

// Checks membermask (the last source operand of the .sync forms); false after a fault.
bool checkMembers(const ir::Instr& in, ExecCtx& ctx, bool hasMemberMask) {
  if (!hasMemberMask) return true;
  const ir::Operand& mm = in.src(in.numSrc - 1);
  const uint64_t* v = ctx.reg(mm.reg);
  for (uint32_t m = ctx.mask; m != 0; m &= m - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(m));
    if (((v[lane] >> lane) & 1) == 0) {
      ctx.warp->fault(lane, fmt::format("{}.sync executed by a lane missing from membermask {:#010x}",
                                        ir::opName(in.op), static_cast<uint32_t>(v[lane])));
      return false;
    }
  }
  return true;
}

}  // namespace

// shfl.sync.{up,down,bfly,idx}.b32 d[|p], a, b, c, membermask  (PTX ISA pseudo-code for j/pval)
void execShfl(const ir::Instr& in, ExecCtx& ctx) {
  if (ctx.mask == 0) return;
  if (!checkMembers(in, ctx, in.numSrc >= 4)) return;
  const auto mode = static_cast<ir::ShflMode>(in.sub);
  const uint64_t* a = ctx.reg(in.src(0).reg);
  const uint64_t* b = ctx.reg(in.src(1).reg);
  const uint64_t* c = ctx.reg(in.src(2).reg);
  uint64_t src[kWarpSize];
  for (unsigned l = 0; l < kWarpSize; ++l) src[l] = a[l];
  uint64_t* d = in.dst(0).kind == ir::OperandKind::Reg ? ctx.reg(in.dst(0).reg) : nullptr;
  const uint64_t dmask = lanes::dstMask(in.dst(0), 32);
  uint32_t pvals = 0;
  for (uint32_t m = ctx.mask; m != 0; m &= m - 1) {
    const int lane = std::countr_zero(m);
    const int bval = static_cast<int>(b[lane] & 0x1f);
    const int cval = static_cast<int>(c[lane] & 0x1f);
    const int segmask = static_cast<int>((c[lane] >> 8) & 0x1f);
    const int maxLane = (lane & segmask) | (cval & ~segmask);
    const int minLane = lane & segmask;
    int j = lane;
    bool pval = false;
    switch (mode) {
      case ir::ShflMode::Up: j = lane - bval; pval = j >= maxLane; break;
      case ir::ShflMode::Down: j = lane + bval; pval = j <= maxLane; break;
      case ir::ShflMode::Bfly: j = lane ^ bval; pval = j <= maxLane; break;
      case ir::ShflMode::Idx: j = minLane | (bval & ~segmask); pval = j <= maxLane; break;
    }
    if (!pval) j = lane;
    if (d) d[lane] = src[j] & dmask;
    if (pval) pvals |= 1u << lane;
  }
  if (in.numDst > 1 && in.dst(1).kind == ir::OperandKind::Pred) lanes::writePred(ctx, in.dst(1).reg, pvals, ctx.mask);
}

// vote.sync.{all,any,uni}.pred d, {!}a, membermask; vote.sync.ballot.b32 d, {!}a, membermask
void execVote(const ir::Instr& in, ExecCtx& ctx) {
  if (ctx.mask == 0) return;
  if (!checkMembers(in, ctx, in.numSrc >= 2)) return;
  const uint32_t e = ctx.mask;
  const uint32_t a = lanes::predValue(ctx, in.src(0)) & e;
  const ir::Operand& d = in.dst(0);
  const auto mode = static_cast<ir::VoteMode>(in.sub);
  if (mode == ir::VoteMode::Ballot) {
    if (d.kind != ir::OperandKind::Reg) return;
    uint64_t* r = ctx.reg(d.reg);
    for (uint32_t m = e; m != 0; m &= m - 1) r[std::countr_zero(m)] = a;
    return;
  }
  bool v = false;
  switch (mode) {
    case ir::VoteMode::All: v = a == e; break;
    case ir::VoteMode::Any: v = a != 0; break;
    case ir::VoteMode::Uni: v = a == e || a == 0; break;
    case ir::VoteMode::Ballot: break;
  }
  if (d.kind == ir::OperandKind::Pred) lanes::writePred(ctx, d.reg, v ? e : 0, e);
}

// match.any.sync.b{32,64} d, a, membermask; match.all.sync.b{32,64} d[|p], a, membermask
void execMatch(const ir::Instr& in, ExecCtx& ctx) {
  if (ctx.mask == 0) return;
  if (!checkMembers(in, ctx, in.numSrc >= 2)) return;
  const uint32_t e = ctx.mask;
  const uint64_t vmask = lanes::widthMask(ir::bits(in.type));
  const uint64_t* a = ctx.reg(in.src(0).reg);
  uint64_t* d = in.dst(0).kind == ir::OperandKind::Reg ? ctx.reg(in.dst(0).reg) : nullptr;
  const auto mode = static_cast<ir::MatchMode>(in.sub);
  if (mode == ir::MatchMode::Any) {
    for (uint32_t m = e; m != 0; m &= m - 1) {
      const int lane = std::countr_zero(m);
      uint32_t same = 0;
      for (uint32_t o = e; o != 0; o &= o - 1) {
        const int other = std::countr_zero(o);
        if (((a[other] ^ a[lane]) & vmask) == 0) same |= 1u << other;
      }
      if (d) d[lane] = same;
    }
    return;
  }
  const uint64_t first = a[std::countr_zero(e)] & vmask;
  bool all = true;
  for (uint32_t m = e; m != 0; m &= m - 1)
    if ((a[std::countr_zero(m)] & vmask) != first) all = false;
  if (d)
    for (uint32_t m = e; m != 0; m &= m - 1) d[std::countr_zero(m)] = all ? e : 0;
  if (in.numDst > 1 && in.dst(1).kind == ir::OperandKind::Pred) lanes::writePred(ctx, in.dst(1).reg, all ? e : 0, e);
}

void execActivemask(const ir::Instr& in, ExecCtx& ctx) {
  const ir::Operand& d = in.dst(0);
  if (d.kind != ir::OperandKind::Reg) return;
  uint64_t* r = ctx.reg(d.reg);
  for (uint32_t m = ctx.mask; m != 0; m &= m - 1) r[std::countr_zero(m)] = ctx.mask;
}

}  // namespace warpsim::func
