// Back end: the cycle loop, dispatch from operand collectors to execution units, unit
// completions, the load/store hand-over to the memory pipeline, write-back and warp/CTA
// retirement.
#include <algorithm>
#include <bit>

#include "func/warp.h"
#include "timing/sm/sm_impl.h"

namespace warpsim::timing {

void Sm::Impl::cycle(Cycle t) {
  if (!error.empty() || !grid) return;
  if (accounted != kNever && t < accounted) return;  // this cycle already ran
  accountUntil(t);
  now = t;
  progress = false;
  memory->cycle(t);
  memoryCompletions(t);
  unitCompletions(t);
  if (manager) managerTraffic(t);
  rf->cycle(t);
  if (storageBanks) memory->portCycle(t);  // memory passes after the registers' claims
  for (uint32_t tag; rf->popWritten(tag);) finish(tag, t);
  dispatch(t);
  fetch(t);
  issueStage(t);
  // This cycle's accounting (issue reasons were counted by issueStage).
  const auto resident = static_cast<uint32_t>(std::popcount(~freeSlots & liveMask()));
  lastResidentWarps = resident;
  residentWarpCycles += resident;
  if (residentCtas != 0) ++activeCycles;
  accounted = t + 1;
  nextWake = progress ? t + 1 : computeWake(t + 1);
}

void Sm::Impl::memoryCompletions(Cycle t) {
  for (uint32_t token; memory->popCompleted(token);) {
    progress = true;
    if (token & kManagerToken) {
      const uint32_t i = token & ~kManagerToken;
      freeManagerTokens.push_back(i);
      --managerInFlight;
      manager->onDataMoved(managerTags[i], t);
      continue;
    }
    writeBack(token, t);
  }
}

// A result is ready: value registers go through the register file's write ports; instructions
// without them (stores, branches, predicate-only results) finish at once.
void Sm::Impl::writeBack(uint32_t fid, Cycle t) {
  InFlight& f = inflight[fid];
  if (f.numDst == 0 || f.execMask == 0) {  // no register lane to write
    finish(fid, t);
    return;
  }
  RegisterWrite w;
  w.tag = fid;
  w.warpSlot = f.slot;
  w.partition = slots[f.slot].partition;
  w.numDst = f.numDst;
  for (unsigned i = 0; i < f.numDst; ++i) {
    w.dstRegs[i] = f.dst[i];
    w.values[i] = f.values[i];
  }
  if (f.decoded) w.wideMask = f.decoded->dstWide;
  w.activeMask = f.execMask;
  w.longLatency = f.decoded && f.decoded->has(DecodedInstr::kLongLatency);
  w.unit = f.unit;
  w.instr = f.instr;
  w.function = f.function;
  w.pc = f.pc;
  rf->write(w, t);
}

void Sm::Impl::finish(uint32_t fid, Cycle t) {
  InFlight& f = inflight[fid];
  WarpSlot& w = slots[f.slot];
  progress = true;
  hazardValid &= ~(uint64_t{1} << f.slot);
  blocked &= ~(uint64_t{1} << f.slot);
  if (f.assist) {
    // Assist instructions do not hold their parent's slot: a low-priority routine may outlive
    // the warp that triggered it (a store's compression).
    freeInflight.push_back(fid);
    assist->onCompleted(f.assistTag, t);
    return;
  }
  scoreboard.release(f.slot, *f.decoded);
  if (f.decoded->has(DecodedInstr::kMemory)) --w.outstandingMem;
  --w.inflight;
  freeInflight.push_back(fid);
  if (w.exited && w.inflight == 0) freeSlot(f.slot);
}

void Sm::Impl::unitCompletions(Cycle t) {
  lsuBlocked = false;
  for (size_t gi = 0; gi < groups.size(); ++gi) {
    UnitGroup& g = groups[gi];
    const bool lsu = gi % kNumUnitClasses == static_cast<unsigned>(UnitClass::Lsu);
    while (g.count != 0 && g.front().done <= t) {
      const uint32_t fid = g.front().id;
      InFlight& f = inflight[fid];
      if (lsu && !f.assist) {
        // Hand-over: the memory pipeline takes the whole warp instruction or the LSU waits.
        const func::ExecRecord& rec = memRecords[f.record];
        if (!memory->canAccept(rec)) {
          lsuBlocked = true;
          break;
        }
        memory->accept(rec, fid, t);
        freeRecords.push_back(f.record);
        f.record = kNone;
        g.pop();
        progress = true;
        continue;
      }
      g.pop();
      progress = true;
      writeBack(fid, t);
    }
  }
}

void Sm::Impl::dispatch(Cycle t) {
  const uint32_t per = rf->collectorsPerPartition();
  const uint32_t parts = params.partitions();
  uint32_t order[64];
  for (uint32_t p = 0; p < parts; ++p) {
    uint64_t ready = rf->ready(p, t);
    if (ready == 0) continue;
    // Oldest instruction first.
    uint32_t n = 0;
    for (; ready != 0; ready &= ready - 1) {
      const uint32_t c = p * per + static_cast<uint32_t>(std::countr_zero(ready));
      uint32_t i = n++;
      while (i > 0 && inflight[collectorOwner[order[i - 1]]].seq > inflight[collectorOwner[c]].seq) {
        order[i] = order[i - 1];
        --i;
      }
      order[i] = c;
    }
    for (uint32_t k = 0; k < n; ++k) {
      const uint32_t c = order[k];
      const uint32_t fid = collectorOwner[c];
      UnitGroup& g = groups[p * kNumUnitClasses + static_cast<unsigned>(inflight[fid].unit)];
      if (g.full()) continue;
      uint32_t inst = 0;
      while (inst < g.instances && g.nextFree[inst] > t) ++inst;
      if (inst == g.instances) continue;
      // Lanes that do the work; the register-file model may gate some (executionWidth).
      const InFlight& f = inflight[fid];
      const ExecutionWidth width = rf->executionWidth(c);
      const auto active = static_cast<uint32_t>(std::popcount(f.execMask));
      const uint32_t lanes = std::min(width.lanes, active);
      const auto unitIndex = static_cast<unsigned>(f.unit);
      unitLaneOps[unitIndex] += lanes;
      unitGatedLaneOps[unitIndex] += active - lanes;
      g.nextFree[inst] = t + (width.interval != 0 ? width.interval : g.interval);
      g.push(fid, t + g.latency + width.extraLatency);
      --g.waiting;
      rf->release(c);
      collectorOwner[c] = kNone;
      progress = true;
    }
  }
}

void Sm::Impl::freeSlot(uint32_t slot) {
  WarpSlot& w = slots[slot];
  CtaEntry& c = ctas[w.cta];
  rf->onWarpExit(slot);
  scoreboard.clearSlot(slot);
  blocked &= ~(uint64_t{1} << slot);
  unblocked &= ~(uint64_t{1} << slot);
  held &= ~(uint64_t{1} << slot);
  if (offChipSlots & (uint64_t{1} << slot)) setOffChipRegisters(slot, 0);
  w.live = false;
  w.warp = nullptr;
  freeSlots |= uint64_t{1} << slot;
  updateFetchNeed(slot);
  if (--c.liveSlots == 0) {
    retired.push_back(c.cta);
    c.cta = nullptr;
    --residentCtas;
  }
}

// The earliest cycle >= t at which something can happen when nothing happened in t - 1:
// results leaving units, collectors becoming ready, units freeing up for waiting collectors,
// instructions arriving in instruction buffers. (Memory completions are the memory pipeline's
// nextEvent; barrier releases and scoreboard releases follow from these events.)
Cycle Sm::Impl::computeWake(Cycle t) const {
  if (lsuBlocked) return t;
  Cycle next = rf->nextEvent(t);
  for (const UnitGroup& g : groups) {
    if (g.count != 0) next = std::min(next, std::max(g.front().done, t));
    if (g.waiting != 0)
      for (Cycle f : g.nextFree)
        if (f >= t) next = std::min(next, f);
  }
  for (uint64_t m = ~freeSlots & liveMask(); m != 0; m &= m - 1) {
    const WarpSlot& w = slots[static_cast<size_t>(std::countr_zero(m))];
    if (w.ibCount != 0 && w.ibReady[w.ibHead] >= t) next = std::min(next, w.ibReady[w.ibHead]);
  }
  return next;
}

}  // namespace warpsim::timing
