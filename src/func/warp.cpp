#include "func/warp.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include <fmt/format.h>

#include "func/address_space.h"
#include "func/cta.h"

namespace warpsim::func {

namespace {
// Local memory charged to every call beyond the callee's depot (return address and saved
// state, as a real ABI stack frame would hold), so that unbounded recursion overflows.
constexpr uint32_t kCallFrameOverhead = 16;

uint32_t roundUpToMultiple(uint32_t v, uint32_t a) { return a <= 1 ? v : (v + a - 1) / a * a; }

// Population count without relying on a hardware instruction being enabled at compile time.
inline uint32_t laneCount(uint32_t m) {
  m = m - ((m >> 1) & 0x55555555u);
  m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
  return (((m + (m >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24;
}

}  // namespace

Warp::Warp(Cta& cta, GridContext& grid, uint32_t warpInCta, uint32_t lanes)
    : cta_(&cta), grid_(&grid), warpInCta_(warpInCta) {
  ctx_.warp = this;
  reductions_.reserve(kWarpSize);
  const Dim3& b = grid.config->block;
  const uint32_t first = warpInCta * kWarpSize;
  uint32_t x = first % b.x, y = (first / b.x) % b.y, z = first / (b.x * b.y);
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {  // x fastest, then y, then z
    tid_[0][lane] = x;
    tid_[1][lane] = y;
    tid_[2][lane] = z;
    if (++x == b.x) {
      x = 0;
      if (++y == b.y) {
        y = 0;
        ++z;
      }
    }
  }
  reset(lanes);
}

void Warp::reset(uint32_t lanes) {
  exited_ = ~lanes;  // lanes past the end of the CTA never run
  events_ = 0;
  barrierWait_ = -1;
  done_ = lanes == 0;
  executingPc_ = 0;
  instructions_ = 0;
  ctx_.carry = 0;
  error_.clear();
  arrival_ = BarrierArrival{};
  blockedOnOwnLanes_ = false;
  reductions_.clear();
  simt_.clear();
  frames_.clear();
  if (!local_.empty()) std::fill(local_.begin(), local_.end(), uint8_t{0});
  pushFrame(grid_->kernel, lanes, 0, 0);
}

uint32_t Warp::currentLine() const {
  if (done_ || simt_.empty() || !code_) return 0;
  return code_[simt_.back().pc].in.line;
}

// ---- frames --------------------------------------------------------------------------------

void Warp::bindFrame() {
  const Frame& f = frames_.back();
  fn_ = &grid_->program->function(f.function);
  code_ = fn_->code.data();
  ctx_.regs = regStack_.data() + f.regBase;
  ctx_.preds = predStack_.data() + f.predBase;
}

void Warp::pushFrame(uint32_t function, uint32_t mask, uint32_t callPc, uint32_t localBase) {
  const LinkedFunction& g = grid_->program->function(function);
  Frame f;
  f.function = function;
  f.simtBase = static_cast<uint32_t>(simt_.size());
  f.localBase = localBase;
  f.callPc = callPc;
  if (!frames_.empty()) {
    const Frame& p = frames_.back();
    f.regBase = p.regBase + size_t{fn_->numRegs} * kWarpSize;
    f.predBase = p.predBase + fn_->numPreds;
    f.paramBase = p.paramBase + size_t{fn_->frameParamBytes} * kWarpSize;
  }
  const size_t regEnd = f.regBase + size_t{g.numRegs} * kWarpSize;
  if (regStack_.size() < regEnd) regStack_.resize(regEnd);
  std::copy(g.regTemplate.begin(), g.regTemplate.end(), regStack_.begin() + static_cast<ptrdiff_t>(f.regBase));
  for (const auto& sc : g.sharedConsts) {
    const uint64_t v = static_cast<uint64_t>(grid_->layout->symbolOffset[sc.symbol] + sc.addend);
    std::fill_n(regStack_.begin() + static_cast<ptrdiff_t>(f.regBase + size_t{sc.reg} * kWarpSize), kWarpSize, v);
  }
  const size_t predEnd = f.predBase + g.numPreds;
  if (predStack_.size() < predEnd) predStack_.resize(predEnd);
  std::fill_n(predStack_.begin() + static_cast<ptrdiff_t>(f.predBase), g.numPreds, 0u);
  const size_t paramEnd = f.paramBase + size_t{g.frameParamBytes} * kWarpSize;
  if (paramStack_.size() < paramEnd) paramStack_.resize(paramEnd);
  std::fill_n(paramStack_.begin() + static_cast<ptrdiff_t>(f.paramBase), size_t{g.frameParamBytes} * kWarpSize, uint8_t{0});
  frames_.push_back(f);
  simt_.push_back({0, ir::kNoTarget, mask});
  bindFrame();
}

void Warp::popFrame() {
  const Frame callee = frames_.back();
  const LinkedFunction& calleeFn = *fn_;
  frames_.pop_back();
  bindFrame();
  // Copy return values of the lanes that returned (not those that exited) to the caller.
  const ir::Module& m = grid_->module();
  const ir::Function& callerIr = m.functions[frames_.back().function];
  const ir::CallSite& site = callerIr.calls[code_[callee.callPc].in.target];
  const ir::Function& calleeIr = m.functions[callee.function];
  const uint32_t lanes = callee.returnedMask & ~exited_;
  const size_t n = std::min(site.retOffsets.size(), calleeIr.rets.size());
  for (uint32_t l = lanes; l != 0; l &= l - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(l));
    const uint8_t* src = paramStack_.data() + callee.paramBase + size_t{lane} * calleeFn.frameParamBytes;
    uint8_t* dst = frameParams(lane);
    for (size_t i = 0; i < n; ++i)
      std::memcpy(dst + site.retOffsets[i], src + calleeIr.rets[i].offset, calleeIr.rets[i].size);
  }
}

// ---- control -------------------------------------------------------------------------------

void Warp::branch(uint32_t target, uint32_t taken, const LinkedInstr& li) {
  SimtEntry& t = simt_.back();
  const uint32_t notTaken = t.mask & ~taken;
  if (taken == 0) return;
  if (notTaken == 0) {
    t.pc = target;
    return;
  }
  uint32_t rpc = li.reconvergePc;
  if (rpc == ir::kNoTarget) rpc = t.rpc;
  const uint32_t fallThrough = t.pc;  // already advanced past the branch
  if (rpc == t.rpc) {
    simt_.pop_back();  // the enclosing entry already waits at the same point
  } else {
    t.pc = rpc;
  }
  simt_.push_back({target, rpc, taken});
  simt_.push_back({fallThrough, rpc, notTaken});
  events_ |= kEvControl;
}

void Warp::call(uint32_t calleeFn, const ir::CallSite& site, uint32_t mask, uint32_t callPc) {
  const Frame& caller = frames_.back();
  const LinkedFunction& g = grid_->program->function(calleeFn);
  const uint32_t base = roundUpToMultiple(caller.localBase + fn_->localBytes + kCallFrameOverhead,
                                          std::max<uint32_t>(g.localAlign, 8));
  if (uint64_t{base} + g.localBytes > grid_->localBytesPerThread) {
    fault(static_cast<unsigned>(std::countr_zero(mask)),
          fmt::format("stack overflow calling '{}' at call depth {} (per-thread local memory is {} bytes; "
                      "raise the stack size)",
                      grid_->module().functions[calleeFn].name, frames_.size(), grid_->localBytesPerThread));
    return;
  }
  const size_t callerParams = caller.paramBase;
  const uint32_t callerParamBytes = fn_->frameParamBytes;
  pushFrame(calleeFn, mask, callPc, base);
  const ir::Function& calleeIr = grid_->module().functions[calleeFn];
  const size_t n = std::min(site.argOffsets.size(), calleeIr.params.size());
  for (uint32_t l = mask; l != 0; l &= l - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(l));
    const uint8_t* src = paramStack_.data() + callerParams + size_t{lane} * callerParamBytes;
    uint8_t* dst = frameParams(lane);
    for (size_t i = 0; i < n; ++i)
      std::memcpy(dst + calleeIr.params[i].offset, src + site.argOffsets[i], calleeIr.params[i].size);
  }
  events_ |= kEvControl;
}

void Warp::ret(uint32_t mask) {
  if (frames_.size() == 1) {  // ret from the kernel: the lanes are done
    exitLanes(mask);
    return;
  }
  Frame& f = frames_.back();
  f.returnedMask |= mask;
  for (size_t i = f.simtBase; i < simt_.size(); ++i) simt_[i].mask &= ~mask;
  events_ |= kEvControl;
}

void Warp::exitLanes(uint32_t mask) {
  exited_ |= mask;
  for (SimtEntry& e : simt_) e.mask &= ~mask;
  events_ |= kEvControl;
}

void Warp::settle() {
  for (;;) {
    const Frame& f = frames_.back();
    if (simt_.size() == f.simtBase) {  // every lane of this frame returned or exited
      if (frames_.size() == 1) {
        done_ = true;
        return;
      }
      popFrame();
      continue;
    }
    const SimtEntry& t = simt_.back();
    if (t.mask == 0 || t.pc == t.rpc) {
      simt_.pop_back();
      continue;
    }
    // Lanes waiting at a barrier for the rest of their warp never run: switch paths.
    if ((t.mask & arrival_.lanes) != 0 && settleBarrierWait()) continue;
    return;
  }
}

// ---- faults --------------------------------------------------------------------------------

std::string Warp::location(unsigned lane) const {
  const Dim3& c = cta_->ctaId();
  const uint32_t line = code_ ? code_[executingPc_].in.line : 0;
  return fmt::format("kernel '{}' CTA ({},{},{}) thread ({},{},{}) at {}:{}", grid_->kernelName(), c.x, c.y,
                     c.z, tid_[0][lane], tid_[1][lane], tid_[2][lane], grid_->module().sourceName, line);
}

void Warp::fault(unsigned lane, const std::string& message) {
  if (!error_.empty()) return;  // keep the first fault
  error_ = location(lane) + ": " + message;
  events_ |= kEvError;
}

void Warp::faultWarp(const std::string& message) {
  const uint32_t m = ctx_.mask != 0 ? ctx_.mask : activeMask();
  fault(m != 0 ? static_cast<unsigned>(std::countr_zero(m)) : 0, message);
}

// ---- stepping ------------------------------------------------------------------------------

StepStatus Warp::handleEvents() {
  const uint32_t ev = events_;
  events_ = 0;
  if (ev & kEvError) return StepStatus::Error;
  // A barrier may be the last instruction before its path's reconvergence point.
  if ((ev & kEvControl) || simt_.back().pc == simt_.back().rpc) settle();
  events_ = 0;  // settle() may have arrived at the CTA's barrier (already accounted for here)
  if (done_) {
    cta_->onWarpDone(*this);
    return StepStatus::Exited;
  }
  return barrierWait_ >= 0 ? StepStatus::AtBarrier : StepStatus::Ok;
}

template <bool kRecord>
inline StepStatus Warp::stepImpl(ExecRecord* record) {
  SimtEntry& top = simt_.back();
  const uint32_t pc = top.pc;
  const LinkedInstr& li = code_[pc];
  const uint32_t issue = top.mask;
  uint32_t mask = issue;
  if (li.in.guard != ir::kNoReg) {
    const uint32_t p = ctx_.preds[li.in.guard];
    mask &= li.in.guardNegate ? ~p : p;
  }
  ctx_.mask = mask;
  top.pc = pc + 1;
  executingPc_ = pc;
  ++instructions_;
  ++grid_->warpInstructions;
  grid_->threadInstructions += issue == kFullMask ? kWarpSize : laneCount(issue);
  if constexpr (kRecord) {
    ExecRecord& r = *record;
    r.instr = &li.in;
    r.pc = pc;
    r.function = frames_.back().function;
    r.warpInCta = warpInCta_;
    r.ctaLinear = cta_->ctaLinear();
    r.issueMask = issue;
    r.execMask = mask;
    r.numDstRegs = li.numDstRegs;
    r.numSrcRegs = li.numSrcRegs;
    for (unsigned i = 0; i < li.numDstRegs; ++i) {
      r.dstRegs[i] = li.dstRegs[i];
      r.dstValues[i] = ctx_.reg(li.dstRegs[i]);
    }
    for (unsigned i = 0; i < li.numSrcRegs; ++i) r.srcRegs[i] = li.srcRegs[i];
    r.writesPred = li.writesPred;
    r.space = ir::Space::None;
    r.accessBytes = 0;
    r.isStore = r.isAtomic = false;
    r.numStoreRegs = 0;
    r.isBranch = false;
    r.takenMask = 0;
    r.diverged = false;
    ctx_.record = record;
  }
  li.fn(li.in, ctx_);
  if (events_ != 0) return handleEvents();
  if (top.pc == top.rpc) {
    events_ |= kEvControl;
    return handleEvents();
  }
  return StepStatus::Ok;
}

StepStatus Warp::step(ExecRecord* record) {
  if (done_ || !error_.empty() || barrierWait_ >= 0) {  // nothing to execute
    if (record) record->instr = nullptr;
    return done_ ? StepStatus::Exited : (!error_.empty() ? StepStatus::Error : StepStatus::AtBarrier);
  }
  if (record) {
    StepStatus s = stepImpl<true>(record);
    ctx_.record = nullptr;
    return s;
  }
  return stepImpl<false>(nullptr);
}

StepStatus Warp::run(uint64_t budget, uint64_t* executed) {
  uint64_t n = 0;
  StepStatus s = StepStatus::Ok;
  if (done_) s = StepStatus::Exited;
  else if (!error_.empty()) s = StepStatus::Error;
  else if (barrierWait_ >= 0) s = StepStatus::AtBarrier;
  else {
    while (n < budget) {
      ++n;
      s = stepImpl<false>(nullptr);
      if (s != StepStatus::Ok) break;
    }
  }
  if (executed) *executed = n;
  return s;
}

}  // namespace warpsim::func
