// Issue: each scheduler picks at most one warp per cycle (the policy, i_warp_scheduler.h) among
// warps whose next instruction is decoded, has no scoreboard hazard, finds room in its unit's
// pipeline and a free operand collector. The chosen instruction executes in the functional
// engine now (execute at issue); the pipeline then only times it.
#include <algorithm>
#include <bit>

#include "func/warp.h"
#include "hints/launch_hints.h"
#include "timing/sm/sm_impl.h"

namespace warpsim::timing {

// Dependences of the warp's next instruction: fence, frame change (call/ret), scoreboard.
// Cached per warp until its next instruction changes or one of its instructions finishes, the
// only events that change the answer (most warps are checked many cycles while they wait).
Stall Sm::Impl::hazardOf(uint32_t slot, const WarpSlot& w, const DecodedInstr& d, bool* longLatency) const {
  const uint64_t bit = uint64_t{1} << slot;
  if (hazardValid & bit) {
    *longLatency = hazard[slot].longLatency;
    return hazard[slot].stall;
  }
  Stall s = Stall::Issued;
  bool lng = false;
  if (d.has(DecodedInstr::kFence) && w.outstandingMem != 0) {
    s = Stall::Memory;
    lng = true;
  } else if (d.has(DecodedInstr::kDrain) && scoreboard.pending(slot) != 0) {
    lng = scoreboard.pendingMemory(slot) != 0;
    s = lng ? Stall::Memory : Stall::Scoreboard;
  } else {
    s = scoreboard.check(slot, d, &lng);
  }
  hazard[slot] = {s, lng};
  hazardValid |= bit;
  *longLatency = lng;
  return s;
}

Stall Sm::Impl::stallOf(uint32_t slot, bool* stable) const {
  const WarpSlot& w = slots[slot];
  bool dummy = false;
  bool& st = stable ? *stable : dummy;
  st = false;
  if (w.exited) return w.outstandingMem != 0 ? Stall::Memory : Stall::Scoreboard;
  if (w.atBarrier) {
    st = true;
    return Stall::Barrier;
  }
  if (held & (uint64_t{1} << slot)) {
    st = true;
    return Stall::Resources;
  }
  if (w.ibCount == 0) {
    st = true;
    return Stall::Fetch;
  }
  if (w.ibReady[w.ibHead] > now) return Stall::Fetch;
  const DecodedInstr& d = decoded.at(w.fn, w.ibPc[w.ibHead]);
  if (assistActive && assist->blocksWarp(slot)) return Stall::Assist;
  bool lng = false;
  const Stall s = hazardOf(slot, w, d, &lng);
  if (s != Stall::Issued) {
    st = true;
    return s;
  }
  return resourceStall(w.partition, d.unit);
}

// Reasons that only an event of the warp itself can end (a finished instruction, a fetch, its
// own issue, a barrier release) are remembered in `blocked`, so that the many cycles a warp
// waits cost one bit test each.
// Likewise a warp whose next instruction is decoded and free of dependences stays so until it
// issues: `unblocked` remembers it with the instruction's unit, and only the shared resources
// (unit, collectors) are checked again. Both keep the cold warp state out of the common case.
Stall Sm::Impl::check(uint32_t slot) {
  const uint64_t bit = uint64_t{1} << slot;
  Stall s;
  if (blocked & bit) {
    s = blockedReason[slot];
  } else if ((offChipSlots & bit) && !(held & bit) && offChipStall(slot) != Stall::Issued) {
    s = Stall::Resources;  // asked again every cycle until the sets are back
  } else if (unblocked & bit) {
    s = resourceStall(slotPartition[slot], readyUnit[slot]);
  } else {
    bool stable = false;
    s = stallOf(slot, &stable);
    if (stable) {
      blocked |= bit;
      blockedReason[slot] = s;
    } else if (s == Stall::Issued || s == Stall::Pipeline || s == Stall::Collector ||
               (s == Stall::Memory && !slots[slot].exited && !assistActive)) {
      // Dependences are resolved (Memory here: load/store back-pressure, see stallOf).
      const WarpSlot& w = slots[slot];
      if (!assistActive && w.ibCount != 0 && w.ibReady[w.ibHead] <= now) {
        unblocked |= bit;
        readyUnit[slot] = decoded.at(w.fn, w.ibPc[w.ibHead]).unit;
      }
    }
  }
  if (stallRank(s) > stallRank(best)) best = s;
  return s;
}

Stall Sm::Impl::resourceStall(uint32_t partition, UnitClass unit) const {
  const UnitGroup& g = groups[partition * kNumUnitClasses + static_cast<unsigned>(unit)];
  if (g.waiting >= g.instances) {
    // A load/store unit held up by the memory pipeline's back-pressure waits on memory.
    return unit == UnitClass::Lsu && lsuBlocked ? Stall::Memory : Stall::Pipeline;
  }
  if (!rf->canAllocate(partition)) return Stall::Collector;
  return Stall::Issued;
}

bool Sm::Impl::waitsOnLongLatency(uint32_t slot) const {
  const WarpSlot& w = slots[slot];
  if (w.exited || w.atBarrier) return true;
  const DecodedInstr* d = head(w);
  if (!d) return false;
  bool lng = false;
  return hazardOf(slot, w, *d, &lng) != Stall::Issued && lng;
}

void Sm::Impl::deschedule(uint32_t slot) { rf->onWarpDescheduled(slot, now); }
void Sm::Impl::activate(uint32_t slot) { rf->onWarpActivated(slot, now); }

bool Sm::Impl::head(uint32_t slot, uint32_t& function, uint32_t& pc) const {
  const WarpSlot& w = slots[slot];
  if (w.ibCount == 0) return false;
  function = w.fn;
  pc = w.ibPc[w.ibHead];
  return true;
}

uint32_t Sm::Impl::allocInflight() {
  if (freeInflight.empty()) {
    inflight.emplace_back();
    return static_cast<uint32_t>(inflight.size() - 1);
  }
  const uint32_t id = freeInflight.back();
  freeInflight.pop_back();
  return id;
}

void Sm::Impl::issueStage(Cycle t) {
  for (uint32_t s = 0; s < params.schedulers; ++s) {
    Stall reason = Stall::Empty;
    AssistInstr a;
    if (assistActive && assist->next(s, IAssistWarp::Priority::High, t, a)) {
      // High priority: the slot belongs to the assist warp whether or not it can go.
      if (assistResources(a, &reason)) {
        issueAssist(a, t);
        reason = Stall::Issued;
      }
      lastReason[s] = reason;
      ++issueCounts[static_cast<unsigned>(reason)];
      continue;
    }
    best = Stall::Empty;
    const uint32_t slot = schedulers[s]->pick(*this);
    if (slot != kNoWarp) {
      issueWarp(slot, t);
      if (!error.empty()) return;
      reason = Stall::Issued;
    } else {
      reason = best;
      if (reason == Stall::Empty) {
        // Exited warps that still drain their instructions are not the policy's any more.
        for (uint64_t m = schedulerMask[s] & ~freeSlots; m != 0; m &= m - 1) {
          const Stall d = stallOf(static_cast<uint32_t>(std::countr_zero(m)));
          if (stallRank(d) > stallRank(reason)) reason = d;
        }
      }
      if (assistActive && assist->next(s, IAssistWarp::Priority::Low, t, a) && assistResources(a, nullptr)) {
        issueAssist(a, t);
        reason = Stall::Issued;
      }
    }
    lastReason[s] = reason;
    ++issueCounts[static_cast<unsigned>(reason)];
  }
}

void Sm::Impl::keepLocalStoreData(uint32_t recordIndex, uint32_t slot) {
  func::ExecRecord& r = memRecords[recordIndex];
  r.warpSlot = slot;
  if (!r.isStore || r.isAtomic) return;
  bool local = r.space == ir::Space::Local;
  if (r.space == ir::Space::Generic) {
    for (uint32_t m = r.execMask; m != 0 && !local; m &= m - 1) {
      local = r.laneSpace[std::countr_zero(m)] == ir::Space::Local;
    }
  }
  if (!local) return;
  uint64_t* copy = storeCopies[recordIndex].data();
  for (unsigned k = 0; k < r.numStoreRegs && k < 4; ++k) {
    if (r.storeValues[k] == nullptr) continue;
    std::copy_n(r.storeValues[k], 32, copy + 32 * k);
    r.storeValues[k] = copy + 32 * k;
  }
}

void Sm::Impl::issueWarp(uint32_t slot, Cycle t) {
  WarpSlot& w = slots[slot];
  if (w.managerIssues != 0) {  // the manager's instruction takes this slot
    --w.managerIssues;
    ++managerInstructions;
    progress = true;
    return;
  }
  const uint32_t pc = w.ibPc[w.ibHead];
  const DecodedInstr& d = decoded.at(w.fn, pc);
  const bool mem = d.has(DecodedInstr::kMemory);
  uint32_t recordIndex = kNone;
  func::ExecRecord* rec = &scratch;
  if (mem) {
    recordIndex = freeRecords.back();
    freeRecords.pop_back();
    rec = &memRecords[recordIndex];
  }
  hazardValid &= ~(uint64_t{1} << slot);
  blocked &= ~(uint64_t{1} << slot);
  unblocked &= ~(uint64_t{1} << slot);
  const func::StepStatus st = w.warp->step(rec);
  if (st == func::StepStatus::Error) {
    error = w.warp->error();
    if (mem) freeRecords.push_back(recordIndex);
    return;
  }
  progress = true;
  if (mem) keepLocalStoreData(recordIndex, slot);
  if (rec->instr->op == ir::Op::AtomHint && system != nullptr) {
    // The atom operations reach every cache now, before any later instruction's accesses.
    const hints::LaunchHints* launch = w.warp->grid().config->hints.get();
    for (uint32_t i = 0; i < rec->numAtomOps; ++i) system->hintOp(rec->atomOps[i], launch);
  }
  if (trace) trace->onIssue(id, w.scheduler, slot, *rec, t);
  ++warpInstructions;
  threadInstructions += static_cast<uint32_t>(std::popcount(rec->issueMask));

  const uint32_t fid = allocInflight();
  InFlight& f = inflight[fid];
  f.decoded = &d;
  f.instr = rec->instr;
  f.function = rec->function;
  f.pc = rec->pc;
  for (unsigned i = 0; i < rec->numDstRegs && i < 4; ++i) f.values[i] = rec->dstValues[i];
  f.seq = seq++;
  f.slot = slot;
  f.execMask = rec->execMask;
  f.record = recordIndex;
  f.numDst = d.numDst;
  for (unsigned i = 0; i < d.numDst; ++i) f.dst[i] = d.dst[i];
  f.unit = d.unit;
  f.assist = false;
  scoreboard.reserve(slot, d);

  RegisterRead rr;
  rr.warpSlot = slot;
  rr.partition = w.partition;
  rr.numSrc = d.numSrc;
  for (unsigned i = 0; i < d.numSrc; ++i) rr.srcRegs[i] = d.src[i];
  rr.wideMask = d.srcWide;
  rr.activeMask = rec->execMask;
  rr.unit = d.unit;
  rr.record = rec;
  collectorOwner[rf->allocate(rr, t)] = fid;
  ++groups[w.partition * kNumUnitClasses + static_cast<unsigned>(d.unit)].waiting;
  ++w.inflight;
  if (mem) ++w.outstandingMem;

  // Instruction buffer: the head is consumed; a change of flow empties it.
  w.ibHead = w.ibHead + 1 == kMaxIbuffer ? 0 : w.ibHead + 1;
  --w.ibCount;
  if (st == func::StepStatus::Exited) {
    w.exited = true;
    w.ibCount = 0;
    schedulers[w.scheduler]->removeWarp(slot);
    if (manager) manager->onWarpExit(slot, t);
  } else if (d.has(DecodedInstr::kControl) || w.warp->pc() != pc + 1 || w.warp->function() != w.fn) {
    flushIbuffer(w);
  }
  if (st == func::StepStatus::AtBarrier) {
    ++barrierWaits;
    w.atBarrier = true;
    if (manager) manager->onBarrierWait(slot, t);
  }
  if (phases) {
    manager->onRegisterAccess(slot, phases->at(rec->function, rec->pc).instructionSets);
    if (!w.exited) notePhase(slot);
  }
  // A barrier instruction or an exit may have released the CTA's waiting warps.
  if (d.has(DecodedInstr::kBarrier) || st == func::StepStatus::Exited) refreshBarrierWaits(w.cta);
  updateFetchNeed(slot);
}

void Sm::Impl::refreshBarrierWaits(uint32_t cta) {
  for (uint64_t m = ~freeSlots & liveMask(); m != 0; m &= m - 1) {
    WarpSlot& o = slots[static_cast<size_t>(std::countr_zero(m))];
    if (o.cta == cta && o.atBarrier && !o.warp->waitingAtBarrier()) {
      o.atBarrier = false;
      const auto s = static_cast<uint32_t>(&o - slots.data());
      blocked &= ~(uint64_t{1} << s);
      if (manager) manager->onBarrierRelease(s, now);
    }
  }
}

bool Sm::Impl::assistResources(const AssistInstr& a, Stall* why) const {
  const WarpSlot& w = slots[a.parentSlot];
  const UnitGroup& g = groups[w.partition * kNumUnitClasses + static_cast<unsigned>(a.unit)];
  if (g.waiting >= g.instances) {
    if (why) *why = Stall::Pipeline;
    return false;
  }
  if (!rf->canAllocate(w.partition)) {
    if (why) *why = Stall::Collector;
    return false;
  }
  return true;
}

void Sm::Impl::issueAssist(const AssistInstr& a, Cycle t) {
  WarpSlot& w = slots[a.parentSlot];
  progress = true;
  ++assistInstructions;
  const uint32_t fid = allocInflight();
  InFlight& f = inflight[fid];
  f = InFlight{};
  f.seq = seq++;
  f.slot = a.parentSlot;
  f.execMask = a.activeMask;
  f.assistTag = a.tag;
  f.numDst = a.numDst;
  for (unsigned i = 0; i < a.numDst && i < 2; ++i) f.dst[i] = a.dstRegs[i];
  f.unit = a.unit;
  f.assist = true;
  RegisterRead rr;
  rr.warpSlot = a.parentSlot;
  rr.partition = w.partition;
  rr.numSrc = a.numSrc;
  for (unsigned i = 0; i < a.numSrc && i < 3; ++i) rr.srcRegs[i] = a.srcRegs[i];
  rr.activeMask = a.activeMask;
  rr.unit = a.unit;
  collectorOwner[rf->allocate(rr, t)] = fid;
  ++groups[w.partition * kNumUnitClasses + static_cast<unsigned>(a.unit)].waiting;
  assist->onIssued(a, t);
}

}  // namespace warpsim::timing
