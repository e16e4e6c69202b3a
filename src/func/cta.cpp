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
  ready_ = allWarpsMask();
}

uint32_t Cta::allWarpsMask() const {
  const auto n = static_cast<uint32_t>(warps_.size());
  return n >= 32 ? ~0u : (1u << n) - 1;
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
  ready_ = allWarpsMask();
}

void Cta::barrierArrive(Warp& w, const BarrierArrival& a) {
  const auto id = static_cast<unsigned>(a.barrier);
  Barrier& b = barriers_[id];
  if (b.arrived == 0 && a.countWarps != 0) b.expected = a.countWarps;
  ++b.arrived;
  b.redOp = a.op;
  b.popc += a.popc;
  b.all = b.all && a.all;
  b.any = b.any || a.any;
  if (a.op != ir::BarOp::Arrive) {
    b.waiting |= 1u << w.warpInCta();
    w.waitAtBarrier(a.barrier);
  }
  tryComplete(id);
}

void Cta::tryComplete(unsigned id) {
  Barrier& b = barriers_[id];
  const uint32_t need = b.expected != 0 ? b.expected : liveWarps_;
  if (b.arrived == 0 || b.arrived < need) return;
  for (uint32_t waiting = b.waiting; waiting != 0; waiting &= waiting - 1) {
    const auto wi = static_cast<uint32_t>(std::countr_zero(waiting));
    warps_[wi]->completeBarrier(b.redOp, b.popc, b.all, b.any);
    ready_ |= 1u << wi;
  }
  b = Barrier{};
}

void Cta::onWarpDone(Warp& w) {
  --liveWarps_;
  ready_ &= ~(1u << w.warpInCta());
  for (unsigned id = 0; id < kNumBarriers; ++id)
    if (barriers_[id].arrived != 0 && barriers_[id].expected == 0) tryComplete(id);
}

std::string Cta::describeWarp(const Warp& w) const {
  if (w.done()) return fmt::format("\n  warp {}: exited", w.warpInCta());
  const ir::Module& m = grid_->module();
  const bool waiting = w.waitingAtBarrier();
  std::string s = fmt::format("\n  warp {}: pc {} ({}:{}) in '{}' active mask {:#010x}", w.warpInCta(),
                              waiting ? w.lastPc() : w.pc(), m.sourceName, waiting ? w.lastLine() : w.currentLine(),
                              m.functions[w.function()].name, w.activeMask());
  if (!waiting) return s;
  if (w.blockedOnOwnLanes()) {
    const uint32_t missing = ~w.exitedMask() & ~w.lanesAtBarrier();
    return s + fmt::format(" lanes {:#010x} waiting at barrier {} for lanes {:#010x} of the same warp, which wait in "
                           "a calling function and cannot reach it",
                           w.lanesAtBarrier(), w.barrierWaitedOn(), missing);
  }
  const Barrier& b = barriers_[w.barrierWaitedOn()];
  const uint32_t need = b.expected != 0 ? b.expected : liveWarps_;
  return s + fmt::format(" waiting at barrier {} ({} of {} warps arrived)", w.barrierWaitedOn(), b.arrived, need);
}

std::string Cta::deadlockReport() const {
  uint32_t blocked = 0;
  for (const auto& w : warps_) blocked += w->waitingAtBarrier() ? 1 : 0;
  std::string s = fmt::format(
      "kernel '{}' CTA ({},{},{}): deadlock: {} warp(s) wait at barriers that can never complete "
      "({} of {} warps still running)",
      grid_->kernelName(), ctaId_.x, ctaId_.y, ctaId_.z, blocked, liveWarps_, warps_.size());
  for (const auto& w : warps_) s += describeWarp(*w);
  return s;
}

bool Cta::limitError(const Warp& w, std::string* error) const {
  *error = fmt::format(
      "kernel '{}' CTA ({},{},{}) warp {} at {}:{}: instruction limit of {} warp-instructions reached "
      "(infinite loop?)",
      grid_->kernelName(), ctaId_.x, ctaId_.y, ctaId_.z, w.warpInCta(), grid_->module().sourceName,
      w.currentLine(), grid_->options->maxWarpInstructions);
  return false;
}

bool Cta::runToCompletion(std::string* error) {
  ExecRecord record;
  while (ready_ != 0) {
    if (!runRound(record, error)) return false;
  }
  if (liveWarps_ == 0) return true;
  *error = deadlockReport();
  return false;
}

// Rounds over the warps that can run when the round starts; a warp a barrier releases during
// a round takes its first turn in the next one.
bool Cta::runRound(ExecRecord& record, std::string* error) {
  ExecObserver* observer = grid_->options->observer;
  const uint64_t limit = grid_->options->maxWarpInstructions;
  // Quantum 0: each warp runs until it blocks or exits (no interleaving).
  const uint64_t quantum = grid_->options->warpQuantum == 0 ? UINT64_MAX : grid_->options->warpQuantum;
  for (uint32_t round = ready_; round != 0; round &= round - 1) {
    const auto wi = static_cast<uint32_t>(std::countr_zero(round));
    Warp& w = *warps_[wi];
    StepStatus s = StepStatus::Ok;
    if (observer) {
      for (uint64_t n = 0; n < quantum && s == StepStatus::Ok; ++n) {
        if (limit != 0 && grid_->warpInstructions >= limit) return limitError(w, error);
        s = w.step(&record);
        if (s != StepStatus::Error) observer->onExec(record);
      }
    } else {
      uint64_t budget = quantum;
      if (limit != 0) {
        if (grid_->warpInstructions >= limit) return limitError(w, error);
        budget = std::min(budget, limit - grid_->warpInstructions);
      }
      s = w.run(budget, nullptr);
    }
    if (s == StepStatus::Error) {
      *error = w.error();
      return false;
    }
    if (s != StepStatus::Ok) ready_ &= ~(1u << wi);  // waits at a barrier, or exited
  }
  return true;
}

}  // namespace warpsim::func
