// bra, call (and vprintf), ret, exit, trap, brkpt and the CTA barriers.
#include <bit>
#include <cstring>
#include <iostream>

#include <fmt/format.h>

#include "func/cta.h"
#include "func/executors.h"
#include "func/printf_format.h"
#include "func/warp.h"

namespace warpsim::func {
namespace {

// The value of a uniform operand (barrier id, thread count): the first executing lane's.
uint64_t uniformValue(ExecCtx& ctx, const ir::Operand& op) {
  return ctx.reg(op.reg)[std::countr_zero(ctx.mask)];
}

void doPrintf(Warp& w, const ir::CallSite& site, uint32_t mask) {
  std::ostream& out = w.grid().printfOut ? *w.grid().printfOut : std::cout;
  if (site.argOffsets.empty()) {
    w.faultWarp("vprintf called without a format argument");
    return;
  }
  std::string format, text, error;
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(m));
    uint64_t fmtAddr = 0, args = 0;
    std::memcpy(&fmtAddr, w.frameParams(lane) + site.argOffsets[0], 8);
    if (site.argOffsets.size() > 1) std::memcpy(&args, w.frameParams(lane) + site.argOffsets[1], 8);
    if (!w.readGenericString(fmtAddr, lane, format, 1 << 16)) {
      w.fault(lane, fmt::format("printf format string at {:#x} is not readable", fmtAddr));
      return;
    }
    PrintfSource src;
    src.readArg = [&](uint64_t off, void* dst, unsigned n) { return args != 0 && w.readGeneric(args + off, lane, dst, n); };
    src.readString = [&](uint64_t addr, std::string& s) { return w.readGenericString(addr, lane, s, 1 << 16); };
    text.clear();
    const int consumed = formatPrintf(format, src, &text, &error);
    if (consumed < 0) {
      w.fault(lane, error);
      return;
    }
    out << text;
    if (!site.retOffsets.empty()) {
      const int32_t ret = consumed;
      std::memcpy(w.frameParams(lane) + site.retOffsets[0], &ret, 4);
    }
  }
  out.flush();
}

}  // namespace

void execBra(const ir::Instr& in, ExecCtx& ctx) {
  Warp& w = *ctx.warp;
  const uint32_t issue = w.top().mask;
  if (ExecRecord* r = ctx.record) {
    r->isBranch = true;
    r->takenMask = ctx.mask;
    r->diverged = ctx.mask != 0 && ctx.mask != issue;
  }
  w.branch(in.target, ctx.mask, linkedOf(in));
}

void execCall(const ir::Instr& in, ExecCtx& ctx) {
  if (ctx.mask == 0) return;
  Warp& w = *ctx.warp;
  const ir::Function& caller = w.grid().module().functions[w.frame().function];
  const ir::CallSite& site = caller.calls[in.target];
  if (site.isPrintf) {
    doPrintf(w, site, ctx.mask);
    return;
  }
  const uint32_t callPc = w.top().pc - 1;  // the entry was advanced past the call
  w.call(site.callee, site, ctx.mask, callPc);
}

void execRet(const ir::Instr&, ExecCtx& ctx) {
  if (ctx.mask != 0) ctx.warp->ret(ctx.mask);
}

void execExit(const ir::Instr&, ExecCtx& ctx) {
  if (ctx.mask != 0) ctx.warp->exitLanes(ctx.mask);
}

void execTrap(const ir::Instr&, ExecCtx& ctx) {
  if (ctx.mask != 0) ctx.warp->faultWarp("trap executed");
}

void execBrkpt(const ir::Instr&, ExecCtx& ctx) {
  if (ctx.mask != 0) ctx.warp->faultWarp("breakpoint (brkpt) executed; no debugger is attached");
}

// bar{.cta}.sync / barrier{.cta}.sync a{, b}; bar.arrive a, b; bar.red.op d, a{, b}, {!}c.
// With or without .aligned alike: sm_70 and later GPUs count every thread, and nvcc emits the
// aligned bar.sync for __syncthreads() even in divergent code (see warp_barrier.cpp).
void execBar(const ir::Instr& in, ExecCtx& ctx) {
  if (ctx.mask == 0) return;
  Warp& w = *ctx.warp;
  const auto op = static_cast<ir::BarOp>(in.sub);
  const bool isRed = op == ir::BarOp::RedPopc || op == ir::BarOp::RedAnd || op == ir::BarOp::RedOr;
  const ir::Operand* srcs = in.ops + in.numDst;
  const uint64_t id = uniformValue(ctx, srcs[0]);
  if (id >= Cta::kNumBarriers) {
    w.faultWarp(fmt::format("barrier id {} out of range (0..15)", id));
    return;
  }
  uint32_t countWarps = 0;
  if (in.has(ir::kHasBarCount)) {
    const uint64_t threads = uniformValue(ctx, srcs[1]);
    if (threads == 0 || threads % kWarpSize != 0) {
      w.faultWarp(fmt::format("barrier thread count {} is not a positive multiple of the warp size", threads));
      return;
    }
    countWarps = static_cast<uint32_t>(threads / kWarpSize);
  } else if (op == ir::BarOp::Arrive) {
    w.faultWarp("bar.arrive needs a thread count");
    return;
  }
  uint32_t pred = 0;
  if (isRed) {
    const ir::Operand& c = srcs[in.numSrc - 1];
    pred = ctx.preds[c.reg];
    if (c.negate) pred = ~pred;
  }
  w.arriveAtBarrier(static_cast<unsigned>(id), countWarps, op, ctx.mask, pred, &in);
}

}  // namespace warpsim::func
