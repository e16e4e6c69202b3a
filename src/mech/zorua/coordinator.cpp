#include "mech/zorua/coordinator.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include <nlohmann/json.hpp>

namespace warpsim::mech::zorua {

namespace {
uint64_t lowSets(uint32_t registers) {
  const uint32_t sets = (registers + kRegistersPerSet - 1) / kRegistersPerSet;
  return sets >= 64 ? ~uint64_t{0} : (uint64_t{1} << sets) - 1;
}
}  // namespace

const char* resourceName(Resource r) {
  switch (r) {
    case Resource::WarpSlots: return "warp_slots";
    case Resource::Scratchpad: return "scratchpad";
    case Resource::Registers: return "registers";
  }
  return "?";
}

Coordinator::Coordinator(const CoordinatorParams& params, WarpGate& gate, SwapPath& swap)
    : params_(params), gate_(&gate), swap_(&swap) {
  physical_ = {params.warpSlots, params.scratchpadSets, params.registerSets};
  for (auto& q : queues_) q.reserve(params.logicalWarps);
  warps_.resize(params.logicalWarps);
  ctas_.resize(params.logicalCtas);
}

void Coordinator::beginKernel(const KernelResources& kernel, Cycle now) {
  kernel_ = kernel;
  kernelSets_ = lowSets(kernel.registersPerThread + kernel.assistRegistersPerThread);
  kernelShared_ = (kernel.sharedBytesPerCta + params_.scratchpadSetBytes - 1) / params_.scratchpadSetBytes;
  minSchedulable_ = static_cast<uint32_t>(std::ceil(params_.minParallelism * params_.warpSlots));
  std::fill(warps_.begin(), warps_.end(), Warp{});
  std::fill(ctas_.begin(), ctas_.end(), Cta{});
  for (auto& q : queues_) q.clear();
  free_ = physical_;
  swapped_ = {};
  for (unsigned r = 0; r < kNumResources; ++r) thresholds_[r] = ThresholdController(params_.threshold, physical_[r]);
  nextEpoch_ = kNever;  // set by the first tick
  lastTick_ = now;
  liveWarps_ = liveCtas_ = 0;
  schedulable_ = 0;
  c_ = Counters{};
}

bool Coordinator::canAdmitCta(uint32_t warps) const {
  return liveCtas_ < params_.logicalCtas && liveWarps_ + warps <= params_.logicalWarps;
}

uint32_t Coordinator::ctaIndex(uint32_t ctaLinear) const {
  for (uint32_t i = 0; i < ctas_.size(); ++i)
    if (ctas_[i].live && ctas_[i].ctaLinear == ctaLinear) return i;
  return kNoCta;
}

void Coordinator::ctaArrive(uint32_t ctaLinear, uint32_t warps) {
  for (Cta& c : ctas_) {
    if (c.live) continue;
    c = Cta{};
    c.live = true;
    c.generation = ++generations_;
    c.ctaLinear = ctaLinear;
    c.warps = warps;
    ++liveCtas_;
    liveWarps_ += warps;
    return;
  }
}

void Coordinator::ctaEnd(uint32_t ctaLinear, Cycle now) {
  const uint32_t i = ctaIndex(ctaLinear);
  if (i == kNoCta) return;
  Cta& c = ctas_[i];
  swapped_[kShared] -= c.sharedSwapped;
  free_[kShared] += c.shared - c.sharedSwapped;
  for (Warp& w : warps_) {
    if (w.live && w.cta == i) {
      schedulable_ -= counts(w);
      w = Warp{};
    }
  }
  liveWarps_ -= c.warps;
  --liveCtas_;
  c = Cta{};
  tryAdmitAll(now);
}

uint32_t Coordinator::sharedSetsOf(const ResourcePhase& phase) const {
  const uint32_t bytes = phase.sharedDynamic ? kernel_.sharedBytesPerCta
                                             : std::min(phase.sharedBytes, kernel_.sharedBytesPerCta);
  return (bytes + params_.scratchpadSetBytes - 1) / params_.scratchpadSetBytes;
}

bool Coordinator::ready(const Warp& w) const {
  const Cta& c = ctas_[w.cta];
  return w.slot && !w.slotSaved && !w.restoring && c.shared >= w.needShared &&
         c.sharedSwapped == 0 && !c.sharedFilling && (w.needSets & ~w.sets) == 0;
}

void Coordinator::setSchedulable(uint32_t slot, bool on) {
  Warp& w = warps_[slot];
  if (w.schedulable == on) return;
  schedulable_ -= counts(w);
  w.schedulable = on;
  schedulable_ += counts(w);
  gate_->setSchedulable(slot, on);
}

uint32_t Coordinator::counts(const Warp& w) { return w.live && !w.exited && w.schedulable && !w.atBarrier ? 1 : 0; }

void Coordinator::enqueue(uint32_t slot) {
  Warp& w = warps_[slot];
  const Cta& c = ctas_[w.cta];
  Queue q = Queue::None;
  if (!w.slot || w.slotSaved) q = Queue::Thread;
  else if (c.shared < w.needShared || c.sharedSwapped != 0) q = Queue::Scratchpad;
  else if ((w.needSets & ~w.sets) != 0) q = Queue::Registers;
  if (q == Queue::None || w.queue == q) return;
  if (w.queue != Queue::None) {
    auto& old = queues_[static_cast<unsigned>(w.queue)];
    old.erase(std::find(old.begin(), old.end(), slot));
  }
  w.queue = q;
  w.ticket = nextTicket_++;
  queues_[static_cast<unsigned>(q)].push_back(slot);
}

void Coordinator::warpStart(uint32_t slot, uint32_t ctaLinear, const ResourcePhase* phase, Cycle now) {
  Warp& w = warps_[slot];
  schedulable_ -= counts(w);
  w = Warp{};
  w.live = true;
  w.generation = ++generations_;
  w.cta = ctaIndex(ctaLinear);
  if (w.cta == kNoCta) {  // the manager admitted no such CTA: treat it as arriving now
    ctaArrive(ctaLinear, 1);
    w.cta = ctaIndex(ctaLinear);
  }
  if (phase && phase->specifier && params_.specifierIssueSlot) gate_->spendIssueSlot(slot);
  w.needSets = phase && phase->phase != 0 ? phase->registerSets : kernelSets_;
  w.needShared = phase && phase->phase != 0 ? sharedSetsOf(*phase) : kernelShared_;
  enqueue(slot);
  tryAdmitAll(now);
}

void Coordinator::releaseSets(uint32_t slot, uint64_t sets) {
  Warp& w = warps_[slot];
  sets &= w.sets;
  if (sets == 0) return;
  const auto inSwap = static_cast<uint32_t>(std::popcount(sets & w.swappedSets));
  swapped_[kRegs] -= inSwap;
  free_[kRegs] += static_cast<uint32_t>(std::popcount(sets)) - inSwap;
  w.sets &= ~sets;
  w.filling &= ~sets;
  w.pinned &= ~sets;
  if (w.swappedSets & sets) {
    w.swappedSets &= ~sets;
    gate_->setOffChipRegisters(slot, w.swappedSets | w.filling);
  }
}

void Coordinator::shrinkShared(uint32_t cta) {
  Cta& c = ctas_[cta];
  uint32_t need = 0;
  for (const Warp& w : warps_) {
    if (w.live && !w.exited && w.cta == cta) need = std::max(need, w.needShared);
  }
  if (c.shared <= need) return;
  const uint32_t surplus = c.shared - need;
  const uint32_t fromSwap = std::min(surplus, c.sharedSwapped);
  swapped_[kShared] -= fromSwap;
  c.sharedSwapped -= fromSwap;
  free_[kShared] += surplus - fromSwap;
  c.shared = need;
}

void Coordinator::phaseChange(uint32_t slot, const ResourcePhase& phase, Cycle now) {
  Warp& w = warps_[slot];
  if (!w.live || w.exited) return;
  ++c_.phaseChanges;
  if (phase.specifier && params_.specifierIssueSlot) gate_->spendIssueSlot(slot);
  w.needSets = phase.registerSets;
  releaseSets(slot, w.sets & ~w.needSets);
  w.needShared = sharedSetsOf(phase);
  shrinkShared(w.cta);
  if (ready(w)) {
    tryAdmitAll(now);  // what this warp gave up may let others in
    return;
  }
  setSchedulable(slot, false);
  enqueue(slot);
  tryAdmitAll(now);
}

void Coordinator::barrierWait(uint32_t slot, Cycle now) {
  Warp& w = warps_[slot];
  if (!w.live) return;
  schedulable_ -= counts(w);
  w.atBarrier = true;
  tryAdmitAll(now);  // its slot may go to a waiting warp
}

void Coordinator::barrierRelease(uint32_t slot, Cycle now) {
  Warp& w = warps_[slot];
  if (!w.live) return;
  w.atBarrier = false;
  schedulable_ += counts(w);
  if (!ready(w)) setSchedulable(slot, false);
  settle(slot);
  tryAdmitAll(now);
}

void Coordinator::warpExit(uint32_t slot, Cycle now) {
  Warp& w = warps_[slot];
  if (!w.live || w.exited) return;
  releaseSets(slot, w.sets);
  if (w.slot) {
    if (w.slotSaved) --swapped_[kSlots];
    else ++free_[kSlots];
  }
  if (w.queue != Queue::None) {
    auto& q = queues_[static_cast<unsigned>(w.queue)];
    q.erase(std::find(q.begin(), q.end(), slot));
    w.queue = Queue::None;
  }
  w.slot = w.slotSaved = w.restoring = false;
  schedulable_ -= counts(w);
  w.exited = true;
  w.schedulable = false;  // the SM forgets exited warps; no gate call
  tryAdmitAll(now);
}

void Coordinator::countAccess(uint32_t slot, uint64_t sets) {
  Warp& w = warps_[slot];
  ++w.issues;
  w.pinned &= ~sets;
  ++ctas_[w.cta].uses;
  c_.registerAccesses += static_cast<uint64_t>(std::popcount(sets));
  for (uint64_t m = sets; m != 0; m &= m - 1) ++w.setUses[static_cast<unsigned>(std::countr_zero(m))];
}

void Coordinator::accessOffChip(uint32_t slot, uint64_t sets, Cycle now) {
  Warp& w = warps_[slot];
  sets &= w.swappedSets & ~w.filling;
  if (sets == 0) return;  // already on its way back
  const auto n = static_cast<uint32_t>(std::popcount(sets));
  if (free_[kRegs] < n) {
    // An exchange: the least used on-chip sets of other warps make room (swap use unchanged).
    if (registerVictims(slot) < n - free_[kRegs]) return;  // nothing to exchange with: wait
    evictRegisters(n - free_[kRegs], slot, now);
  }
  c_.registerOffChipAccesses += n;
  c_.registerFills += n;
  free_[kRegs] -= n;
  swapped_[kRegs] -= n;
  w.swappedSets &= ~sets;
  w.filling |= sets;
  swap_->fillRegisters(slot, sets, now);
}

void Coordinator::registersFilled(uint32_t slot, uint64_t sets, Cycle now) {
  (void)now;
  Warp& w = warps_[slot];
  w.filling &= ~sets;
  w.pinned |= sets & w.sets;  // until the warp has used them (no ping-pong between warps)
  gate_->setOffChipRegisters(slot, w.swappedSets | w.filling);
}

void Coordinator::settle(uint32_t slot) {
  const Warp& w = warps_[slot];
  if (!w.live || w.exited || w.atBarrier || w.queue != Queue::None) return;
  if (ready(w)) setSchedulable(slot, true);
  else enqueue(slot);  // nothing to queue for when it only waits for data on its way
}

void Coordinator::sharedFilled(uint32_t cta, Cycle now) {
  ctas_[cta].sharedFilling = false;
  for (uint32_t s = 0; s < warps_.size(); ++s) {
    if (warps_[s].live && warps_[s].cta == cta) settle(s);
  }
  tryAdmitAll(now);
}

void Coordinator::warpRestored(uint32_t slot, Cycle now) {
  warps_[slot].restoring = false;
  settle(slot);
  tryAdmitAll(now);
}

// ---- time --------------------------------------------------------------------------------------

void Coordinator::tick(Cycle now) {
  if (nextEpoch_ == kNever) {
    nextEpoch_ = now + params_.threshold.epochCycles;
    lastTick_ = now;
    epochStart_ = gate_->issueActivity();
  }
  if (now > lastTick_) {
    const Cycle dt = now - lastTick_;
    c_.cycles += dt;
    c_.schedulableWarpCycles += dt * lastSchedulable_;
    for (unsigned q = 1; q < 4; ++q) c_.queuedWarpCycles[q] += dt * queues_[q].size();
    lastTick_ = now;
  }
  lastSchedulable_ = schedulable_;
  while (now >= nextEpoch_) {
    const WarpGate::IssueActivity a = gate_->issueActivity();
    const uint32_t n = std::max(gate_->schedulerCount(), 1u);
    const uint64_t idle = (a.idle - epochStart_.idle) / n;
    const uint64_t memory = (a.memory - epochStart_.memory) / n;
    epochStart_ = a;
    for (auto& t : thresholds_) t.endEpoch(idle, memory);
    for (Warp& w : warps_) {
      w.issues >>= 1;
      for (uint32_t& u : w.setUses) u >>= 1;
    }
    for (Cta& c : ctas_) c.uses >>= 1;
    ++c_.epochs;
    nextEpoch_ += params_.threshold.epochCycles;
  }
}

void Coordinator::reportStats(nlohmann::json& out) const {
  nlohmann::json& z = out["zorua"];
  z["phase_changes"] = c_.phaseChanges;
  z["grants"] = c_.grants;
  z["oversubscribed_grants"] = c_.oversubscribedGrants;
  z["forced_grants"] = c_.forcedGrants;
  z["cycles"] = c_.cycles;
  z["schedulable_warp_cycles"] = c_.schedulableWarpCycles;
  z["queued_warp_cycles"] = {{"thread", c_.queuedWarpCycles[1]},
                             {"scratchpad", c_.queuedWarpCycles[2]},
                             {"registers", c_.queuedWarpCycles[3]}};
  z["epochs"] = c_.epochs;
  z["registers"] = {{"accesses", c_.registerAccesses},
                    {"off_chip_accesses", c_.registerOffChipAccesses},
                    {"spills", c_.registerSpills},
                    {"fills", c_.registerFills},
                    {"swap_peak", c_.swapPeak[kRegs]},
                    {"threshold", thresholds_[kRegs].threshold()},
                    {"threshold_raises", thresholds_[kRegs].raises()},
                    {"threshold_lowers", thresholds_[kRegs].lowers()}};
  z["scratchpad"] = {{"spills", c_.sharedSpills},
                     {"fills", c_.sharedFills},
                     {"swap_peak", c_.swapPeak[kShared]},
                     {"threshold", thresholds_[kShared].threshold()}};
  z["warp_slots"] = {{"saves", c_.warpSaves},
                     {"restores", c_.warpRestores},
                     {"swap_peak", c_.swapPeak[kSlots]},
                     {"threshold", thresholds_[kSlots].threshold()}};
}

}  // namespace warpsim::mech::zorua
