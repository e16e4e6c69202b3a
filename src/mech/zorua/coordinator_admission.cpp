// The coordinator's admission (TryAdmitAll, whole grants, the oversubscription rules) and its
// choice of victims for swap space (coordinator.h).
#include "mech/zorua/coordinator.h"

#include <algorithm>
#include <bit>

namespace warpsim::mech::zorua {


// ---- admission ---------------------------------------------------------------------------------

void Coordinator::tryAdmitAll(Cycle now) {
  for (Queue q : {Queue::Registers, Queue::Scratchpad, Queue::Thread}) {
    auto& queue = queues_[static_cast<unsigned>(q)];
    for (size_t i = 0; i < queue.size();) {
      const uint32_t slot = queue[i];
      if (tryGrant(slot, now)) {
        queue.erase(queue.begin() + static_cast<std::ptrdiff_t>(i));
      } else {
        ++i;
      }
    }
  }
}

bool Coordinator::mayOversubscribe(Resource r, uint32_t extra, bool forced) const {
  if (forced) return true;
  if (!params_.oversubscribe) return false;
  const auto i = static_cast<unsigned>(r);
  return swapped_[i] + extra <= thresholds_[i].threshold();
}

bool Coordinator::tryGrant(uint32_t slot, Cycle now) {
  Warp& w = warps_[slot];
  Cta& c = ctas_[w.cta];
  if (w.atBarrier && w.slotSaved) return false;  // waits for its CTA's barrier first
  const bool forced = schedulableWarps() < minSchedulable_;
  bool oversubscribed = false;

  // Warp slot: a warp waiting at a barrier gives its slot up without counting against the
  // threshold (it does not need it until the barrier opens).
  // A warp whose state was saved comes back to a free slot or a barrier's, never by pushing
  // a running warp out (that would only trade one for the other).
  const uint32_t needSlot = (!w.slot || w.slotSaved) ? 1 : 0;
  if (needSlot > free_[kSlots] && slotVictims(slot, true) == 0) {
    if (w.slotSaved || !mayOversubscribe(Resource::WarpSlots, 1, forced) || slotVictims(slot, false) == 0)
      return false;
    oversubscribed = true;
  }
  // Scratchpad: the sets the CTA lacks, plus any of its sets in swap (they come back first).
  const uint32_t newShared = w.needShared > c.shared ? w.needShared - c.shared : 0;
  const uint32_t sharedIn = newShared + c.sharedSwapped;
  if (sharedIn > free_[kShared]) {
    const uint32_t extra = sharedIn - free_[kShared];
    const uint32_t grows = extra > c.sharedSwapped ? extra - c.sharedSwapped : 0;
    if ((grows > 0 && !mayOversubscribe(Resource::Scratchpad, grows, forced)) ||
        scratchpadVictims(w.cta) < extra)
      return false;
    oversubscribed = oversubscribed || grows > 0;
  }
  // Registers: the sets of its phase it does not hold yet.
  const uint64_t newSets = w.needSets & ~w.sets;
  const auto needRegs = static_cast<uint32_t>(std::popcount(newSets));
  if (needRegs > free_[kRegs]) {
    const uint32_t extra = needRegs - free_[kRegs];
    if (!mayOversubscribe(Resource::Registers, extra, forced) || registerVictims(slot) < extra) return false;
    oversubscribed = true;
  }

  // Everything at once.
  if (needSlot) {
    if (free_[kSlots] == 0) evictSlot(slot, now);
    --free_[kSlots];
    if (w.slotSaved) {
      --swapped_[kSlots];
      w.slotSaved = false;
      w.restoring = true;
      ++c_.warpRestores;
      swap_->restoreWarp(slot, now);
    }
    w.slot = true;
  }
  if (sharedIn) {
    if (sharedIn > free_[kShared]) evictScratchpad(sharedIn - free_[kShared], w.cta, now);
    free_[kShared] -= sharedIn;
    if (c.sharedSwapped) {
      swapped_[kShared] -= c.sharedSwapped;
      c_.sharedFills += c.sharedSwapped;
      c.sharedFilling = true;
      swap_->fillShared(w.cta, c.shared - c.sharedSwapped, c.sharedSwapped, now);
      c.sharedSwapped = 0;
    }
    c.shared += newShared;
  }
  if (needRegs) {
    if (needRegs > free_[kRegs]) evictRegisters(needRegs - free_[kRegs], slot, now);
    free_[kRegs] -= needRegs;
    w.sets |= newSets;
  }
  ++c_.grants;
  if (oversubscribed) {
    ++c_.oversubscribedGrants;
    if (forced) ++c_.forcedGrants;
  }
  w.queue = Queue::None;
  if (ready(w) && !w.atBarrier) setSchedulable(slot, true);
  for (unsigned r = 0; r < kNumResources; ++r) c_.swapPeak[r] = std::max<uint64_t>(c_.swapPeak[r], swapped_[r]);
  return true;
}

// ---- victims -----------------------------------------------------------------------------------

uint32_t Coordinator::registerVictims(uint32_t exceptSlot) const {
  uint32_t n = 0;
  for (uint32_t s = 0; s < warps_.size(); ++s) {
    const Warp& w = warps_[s];
    if (s != exceptSlot && w.live && !w.exited)
      n += static_cast<uint32_t>(std::popcount(w.sets & ~w.swappedSets & ~w.filling & ~w.pinned));
  }
  return n;
}

void Coordinator::evictRegisters(uint32_t count, uint32_t exceptSlot, Cycle now) {
  std::array<uint64_t, 64> spilled{};
  for (uint32_t k = 0; k < count; ++k) {
    uint32_t bestSlot = UINT32_MAX, bestSet = 0, bestUses = UINT32_MAX;
    for (uint32_t s = 0; s < warps_.size(); ++s) {
      const Warp& w = warps_[s];
      if (s == exceptSlot || !w.live || w.exited) continue;
      for (uint64_t m = w.sets & ~w.swappedSets & ~w.filling & ~w.pinned; m != 0; m &= m - 1) {
        const auto set = static_cast<uint32_t>(std::countr_zero(m));
        if (w.setUses[set] <= bestUses) {  // ties: the later warp, the higher set
          bestUses = w.setUses[set];
          bestSlot = s;
          bestSet = set;
        }
      }
    }
    if (bestSlot == UINT32_MAX) break;
    Warp& v = warps_[bestSlot];
    v.swappedSets |= uint64_t{1} << bestSet;
    spilled[bestSlot] |= uint64_t{1} << bestSet;
    ++swapped_[kRegs];
    ++free_[kRegs];
    ++c_.registerSpills;
  }
  for (uint32_t s = 0; s < warps_.size(); ++s) {
    if (spilled[s] == 0) continue;
    swap_->spillRegisters(s, spilled[s], now);
    gate_->setOffChipRegisters(s, warps_[s].swappedSets | warps_[s].filling);
  }
}

bool Coordinator::ctaHasSchedulable(uint32_t cta) const {
  for (const Warp& w : warps_) {
    if (w.live && !w.exited && w.cta == cta && w.schedulable && !w.atBarrier) return true;
  }
  return false;
}

uint32_t Coordinator::scratchpadVictims(uint32_t exceptCta) const {
  uint32_t n = 0;
  for (uint32_t i = 0; i < ctas_.size(); ++i) {
    const Cta& c = ctas_[i];
    if (i != exceptCta && c.live && !c.sharedFilling && !ctaHasSchedulable(i)) n += c.shared - c.sharedSwapped;
  }
  return n;
}

void Coordinator::evictScratchpad(uint32_t count, uint32_t exceptCta, Cycle now) {
  while (count > 0) {
    uint32_t best = kNoCta;
    for (uint32_t i = 0; i < ctas_.size(); ++i) {
      const Cta& c = ctas_[i];
      if (i == exceptCta || !c.live || c.sharedFilling || c.shared == c.sharedSwapped || ctaHasSchedulable(i)) continue;
      if (best == kNoCta || c.uses <= ctas_[best].uses) best = i;
    }
    if (best == kNoCta) return;
    Cta& c = ctas_[best];
    const uint32_t take = std::min(count, c.shared - c.sharedSwapped);
    c.sharedSwapped += take;
    swapped_[kShared] += take;
    free_[kShared] += take;
    c_.sharedSpills += take;
    count -= take;
    swap_->spillShared(best, c.shared - c.sharedSwapped, take, now);
    // Its warps at a barrier may not go on before the sets are back.
    for (uint32_t s = 0; s < warps_.size(); ++s) {
      if (warps_[s].live && warps_[s].cta == best) setSchedulable(s, false);
    }
  }
}

uint32_t Coordinator::slotVictims(uint32_t exceptSlot, bool atBarrierOnly) const {
  uint32_t n = 0;
  for (uint32_t s = 0; s < warps_.size(); ++s) {
    const Warp& w = warps_[s];
    if (s != exceptSlot && w.live && !w.exited && w.slot && !w.slotSaved && !w.restoring &&
        (!atBarrierOnly || w.atBarrier))
      ++n;
  }
  return n;
}

void Coordinator::evictSlot(uint32_t exceptSlot, Cycle now) {
  // A warp waiting at a barrier first, then one waiting for resources, then the one that
  // issued least.
  auto rank = [](const Warp& w) { return w.atBarrier ? 0 : (!w.schedulable ? 1 : 2); };
  uint32_t best = UINT32_MAX;
  for (uint32_t s = 0; s < warps_.size(); ++s) {
    const Warp& w = warps_[s];
    if (s == exceptSlot || !w.live || w.exited || !w.slot || w.slotSaved || w.restoring) continue;
    if (best == UINT32_MAX) {
      best = s;
      continue;
    }
    const Warp& b = warps_[best];
    if (rank(w) != rank(b) ? rank(w) < rank(b) : w.issues <= b.issues) best = s;
  }
  if (best == UINT32_MAX) return;
  Warp& v = warps_[best];
  v.slotSaved = true;
  ++swapped_[kSlots];
  ++free_[kSlots];
  ++c_.warpSaves;
  setSchedulable(best, false);
  swap_->saveWarp(best, now);
  if (!v.atBarrier) enqueue(best);
}

}  // namespace warpsim::mech::zorua
