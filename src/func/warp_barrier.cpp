// A warp at a CTA barrier, as sm_70 and later GPUs run it: every thread arrives for itself, so
// the two paths of a diverged warp may reach the barrier at different barrier instructions
// (`if (...) { ...; __syncthreads(); } else { ...; __syncthreads(); }`, which nvcc compiles to
// two `bar.sync 0`). The PTX ISA: a barrier instruction makes the executing thread wait for all
// non-exited threads of its warp, then marks the warp's arrival; .sync and .red also wait for the
// other participating warps. So a warp counts once at the CTA's barrier (Cta counts warps, and a
// thread count b means b / 32 warps), when its last non-exited lane has arrived.
//
// Until then the warp runs its lanes that have not arrived. A path counts as arrived as a whole
// (its SIMT entry; lanes a guard switched off wait with it), and only paths of the current call
// frame can be switched to: lanes that wait in a calling function while the rest of the warp is
// at a barrier in the callee block the warp, which the CTA reports as a deadlock.
#include <bit>

#include <fmt/format.h>

#include "func/cta.h"
#include "func/warp.h"

namespace warpsim::func {

namespace {

const char* barOpName(ir::BarOp op) {
  switch (op) {
    case ir::BarOp::Sync: return "sync";
    case ir::BarOp::Arrive: return "arrive";
    case ir::BarOp::RedPopc: return "red.popc";
    case ir::BarOp::RedAnd: return "red.and";
    case ir::BarOp::RedOr: return "red.or";
  }
  return "?";
}

std::string describe(unsigned id, ir::BarOp op, uint32_t countWarps) {
  return countWarps == 0 ? fmt::format("barrier {} ({}, all threads)", id, barOpName(op))
                         : fmt::format("barrier {} ({}, {} threads)", id, barOpName(op), countWarps * kWarpSize);
}

bool isReduction(ir::BarOp op) {
  return op == ir::BarOp::RedPopc || op == ir::BarOp::RedAnd || op == ir::BarOp::RedOr;
}

}  // namespace

void Warp::arriveAtBarrier(unsigned id, uint32_t countWarps, ir::BarOp op, uint32_t executing,
                           uint32_t predicate, const ir::Instr* in) {
  BarrierArrival& a = arrival_;
  if (a.lanes != 0 && (a.barrier != static_cast<int>(id) || a.op != op || a.countWarps != countWarps)) {
    faultWarp(fmt::format("this path of a diverged warp arrives at {} while lanes {:#010x} of the warp wait at {}; "
                          "all threads of a warp must reach the same barrier",
                          describe(id, op, countWarps), a.lanes,
                          describe(static_cast<unsigned>(a.barrier), a.op, a.countWarps)));
    return;
  }
  a.barrier = static_cast<int>(id);
  a.op = op;
  a.countWarps = countWarps;
  a.lanes |= simt_.back().mask;
  if (isReduction(op)) {
    const uint32_t p = predicate & executing;
    a.popc += static_cast<uint32_t>(std::popcount(p));
    a.all = a.all && p == executing;
    a.any = a.any || p != 0;
    reductions_.push_back({in, executing});
  }
  if ((~exited_ & ~a.lanes) == 0) {
    arriveAtCta();
  } else {
    events_ |= kEvControl;  // settle() brings a path that has not arrived to the top
  }
}

void Warp::arriveAtCta() {
  const BarrierArrival a = arrival_;
  arrival_ = BarrierArrival{};
  cta_->barrierArrive(*this, a);
}

// The top entry holds lanes waiting at the barrier. Returns true when another entry is now on
// top (settle() goes on), false when the warp arrived at the CTA's barrier or is blocked.
bool Warp::settleBarrierWait() {
  const uint32_t arrived = arrival_.lanes;
  if ((~exited_ & ~arrived) == 0) {  // the lanes still missing exited meanwhile
    arriveAtCta();
    return false;
  }
  const size_t base = frames_.back().simtBase;
  for (size_t i = simt_.size(); i-- > base;) {
    SimtEntry& e = simt_[i];
    const uint32_t missing = e.mask & ~arrived;
    if (missing == 0) continue;
    // Entries above e hold only waiting lanes, so e's missing lanes are either a path not yet
    // started or lanes waiting at e's pc for siblings to reconverge: either way they may run
    // from e's pc to e's reconvergence point on their own.
    const SimtEntry run{e.pc, e.rpc, missing};
    e.mask &= arrived;
    if (e.mask == 0) simt_.erase(simt_.begin() + static_cast<ptrdiff_t>(i));
    simt_.push_back(run);
    return true;
  }
  barrierWait_ = arrival_.barrier;
  blockedOnOwnLanes_ = true;
  return false;
}

void Warp::completeBarrier(ir::BarOp op, uint32_t popc, bool all, bool any) {
  for (const PendingReduction& r : reductions_) {
    const ir::Operand& d = r.in->dst(0);
    if (d.kind == ir::OperandKind::Pred) {
      const bool v = op == ir::BarOp::RedAnd ? all : any;
      ctx_.preds[d.reg] = (ctx_.preds[d.reg] & ~r.lanes) | (v ? r.lanes : 0);
    } else if (d.kind == ir::OperandKind::Reg) {
      uint64_t* reg = ctx_.reg(d.reg);
      const uint64_t v = op == ir::BarOp::RedPopc ? popc : (op == ir::BarOp::RedAnd ? all : any);
      for (uint32_t l = r.lanes; l != 0; l &= l - 1) reg[std::countr_zero(l)] = v;
    }
  }
  reductions_.clear();
  barrierWait_ = -1;
}

}  // namespace warpsim::func
