#include "func/cta.h"

#include <algorithm>
#include <bit>

#include <fmt/format.h>

namespace warpsim::func {

namespace {
// Lanes that exist in warp w of a CTA of `threads` threads.
uint32_t warpLanes(uint32_t threads, uint32_t w) {
  const uint32_t left = threads - w * kWarpSize;
  return left >= kWarpSize ? kFullMask : (1u << left) - 1;
}
}  // namespace

Cta::Cta(GridContext& grid, uint32_t ctaLinear) : grid_(&grid) {
  const uint32_t threads = grid.threadsPerCta;
  const uint32_t n = (threads + kWarpSize - 1) / kWarpSize;
  warps_.reserve(n);
  setId(ctaLinear);
  for (uint32_t w = 0; w < n; ++w) warps_.push_back(std::make_unique<Warp>(*this, grid, w, warpLanes(threads, w)));
  shared_.assign(grid.sharedBytes, 0);
  liveWarps_ = n;
  pendingRed_.assign(n, nullptr);
  pendingRedMask_.assign(n, 0);
}

void Cta::setId(uint32_t ctaLinear) {
  ctaLinear_ = ctaLinear;
  const Dim3& g = grid_->config->grid;
  ctaId_.x = ctaLinear % g.x;
  ctaId_.y = (ctaLinear / g.x) % g.y;
  ctaId_.z = ctaLinear / (g.x * g.y);
  smId_ = grid_->options->numSms == 0 ? 0 : ctaLinear % grid_->options->numSms;
}

void Cta::reset(uint32_t ctaLinear) {
  setId(ctaLinear);
  std::fill(shared_.begin(), shared_.end(), uint8_t{0});
  for (uint32_t w = 0; w < warps_.size(); ++w) warps_[w]->reset(warpLanes(grid_->threadsPerCta, w));
  liveWarps_ = static_cast<uint32_t>(warps_.size());
  for (Barrier& b : barriers_) b = Barrier{};
  std::fill(pendingRed_.begin(), pendingRed_.end(), nullptr);
  std::fill(pendingRedMask_.begin(), pendingRedMask_.end(), 0u);
}

void Cta::barrierArrive(Warp& w, unsigned id, uint32_t countWarps, ir::BarOp op, uint32_t mask,
                        uint32_t predMask, const ir::Instr* in) {
  Barrier& b = barriers_[id];
  if (b.arrived == 0 && countWarps != 0) b.expected = countWarps;
  ++b.arrived;
  b.redOp = op;
  b.popc += static_cast<uint32_t>(std::popcount(predMask & mask));
  b.all = b.all && (predMask & mask) == mask;
  b.any = b.any || (predMask & mask) != 0;
  if (op != ir::BarOp::Arrive) {
    b.waiting |= 1u << w.warpInCta();
    if (op == ir::BarOp::RedPopc || op == ir::BarOp::RedAnd || op == ir::BarOp::RedOr) {
      pendingRed_[w.warpInCta()] = in;
      pendingRedMask_[w.warpInCta()] = mask;
    }
    w.waitAtBarrier(static_cast<int>(id));
  }
  tryComplete(id);
}

void Cta::tryComplete(unsigned id) {
  Barrier& b = barriers_[id];
  const uint32_t need = b.expected != 0 ? b.expected : liveWarps_;
  if (b.arrived == 0 || b.arrived < need) return;
  for (uint32_t waiting = b.waiting; waiting != 0; waiting &= waiting - 1) {
    const auto wi = static_cast<uint32_t>(std::countr_zero(waiting));
    Warp& w = *warps_[wi];
    if (const ir::Instr* in = pendingRed_[wi]) {
      const uint32_t lanes = pendingRedMask_[wi];
      const ir::Operand& d = in->dst(0);
      ExecCtx& c = w.ctx();
      if (d.kind == ir::OperandKind::Pred) {
        const bool v = b.redOp == ir::BarOp::RedAnd ? b.all : b.any;
        c.preds[d.reg] = (c.preds[d.reg] & ~lanes) | (v ? lanes : 0);
      } else if (d.kind == ir::OperandKind::Reg) {
        uint64_t* r = c.reg(d.reg);
        uint64_t v = b.redOp == ir::BarOp::RedPopc ? b.popc : (b.redOp == ir::BarOp::RedAnd ? b.all : b.any);
        for (uint32_t l = lanes; l != 0; l &= l - 1) r[std::countr_zero(l)] = v;
      }
      pendingRed_[wi] = nullptr;
    }
    w.releaseFromBarrier();
  }
  b = Barrier{};
}

void Cta::onWarpDone(Warp& w) {
  --liveWarps_;
  for (unsigned id = 0; id < kNumBarriers; ++id)
    if (barriers_[id].arrived != 0 && barriers_[id].expected == 0) tryComplete(id);
}

std::string Cta::deadlockReport() const {
  uint32_t blocked = 0;
  for (const auto& w : warps_) blocked += w->waitingAtBarrier() ? 1 : 0;
  const ir::Module& m = grid_->module();
  std::string s = fmt::format(
      "kernel '{}' CTA ({},{},{}): deadlock: {} warp(s) wait at barriers that can never complete "
      "({} of {} warps still running)",
      grid_->kernelName(), ctaId_.x, ctaId_.y, ctaId_.z, blocked, liveWarps_, warps_.size());
  for (const auto& w : warps_) {
    if (w->done()) {
      s += fmt::format("\n  warp {}: exited", w->warpInCta());
      continue;
    }
    const bool waiting = w->waitingAtBarrier();
    s += fmt::format("\n  warp {}: pc {} ({}:{}) in '{}' active mask {:#010x}", w->warpInCta(),
                     waiting ? w->lastPc() : w->pc(), m.sourceName, waiting ? w->lastLine() : w->currentLine(),
                     m.functions[w->function()].name, w->activeMask());
    if (w->waitingAtBarrier()) {
      const Barrier& b = barriers_[w->barrierWaitedOn()];
      const uint32_t need = b.expected != 0 ? b.expected : liveWarps_;
      s += fmt::format(" waiting at barrier {} ({} of {} warps arrived)", w->barrierWaitedOn(), b.arrived, need);
    }
  }
  return s;
}

bool Cta::runToCompletion(std::string* error) {
  ExecObserver* observer = grid_->options->observer;
  const uint64_t limit = grid_->options->maxWarpInstructions;
  ExecRecord record;
  auto limitError = [&](Warp& w) {
    *error = fmt::format(
        "kernel '{}' CTA ({},{},{}) warp {} at {}:{}: instruction limit of {} warp-instructions reached "
        "(infinite loop?)",
        grid_->kernelName(), ctaId_.x, ctaId_.y, ctaId_.z, w.warpInCta(), grid_->module().sourceName,
        w.currentLine(), limit);
    return false;
  };
  for (;;) {
    bool progress = false;
    for (auto& wp : warps_) {
      Warp& w = *wp;
      if (w.done() || w.waitingAtBarrier()) continue;
      progress = true;
      StepStatus s = StepStatus::Ok;
      if (observer) {
        while (s == StepStatus::Ok) {
          if (limit != 0 && grid_->warpInstructions >= limit) return limitError(w);
          s = w.step(&record);
          if (s != StepStatus::Error) observer->onExec(record);
        }
      } else {
        const uint64_t budget = limit == 0 ? UINT64_MAX : limit - std::min(limit, grid_->warpInstructions);
        s = w.run(budget, nullptr);
        if (s == StepStatus::Ok) return limitError(w);
      }
      if (s == StepStatus::Error) {
        *error = w.error();
        return false;
      }
    }
    if (liveWarps_ == 0) return true;
    if (!progress) {
      *error = deadlockReport();
      return false;
    }
  }
}

}  // namespace warpsim::func
