// SmMemoryUnit::accept: a warp memory instruction becomes queued accesses (see
// sm_memory_unit.h).
#include <algorithm>
#include <bit>

#include "func/address_space.h"
#include "timing/mem/coalescer.h"
#include "timing/mem/sm_memory_unit.h"
#include "timing/storage_banks.h"

namespace warpsim::timing::mem {

namespace {

// The offset of a lane's access within its space: generic addresses lose their window base.
inline uint64_t spaceOffset(const func::ExecRecord& r, unsigned lane) {
  return r.space == ir::Space::Generic ? r.addr[lane] - func::windowBase(r.laneSpace[lane])
                                       : r.addr[lane];
}

}  // namespace

void SmMemoryUnit::accept(const func::ExecRecord& r, uint32_t token, Cycle now) {
  const uint32_t slot = allocateSlot(r, token);
  const ir::Instr* in = r.instr;
  const uint32_t mask = r.execMask;
  const Cycle fixed = now + params_.l1.hitLatency;
  if (in == nullptr || in->op == ir::Op::Prefetch) {
    finishAt(slot, fixed);
    return;
  }
  if (in->op == ir::Op::Membar || in->op == ir::Op::Fence) {
    // bar.warp.sync (a Fence with a mask operand) orders nothing in memory.
    if (in->op == ir::Op::Fence && in->numSrc != 0) {
      finishAt(slot, fixed);
      return;
    }
    Access a;
    a.kind = Kind::Fence;
    a.slot = static_cast<uint16_t>(slot);
    a.last = true;
    slots_[slot].pending = 1;
    push(a);
    ++queuedInstructions_;
    return;
  }
  if (mask == 0) {
    finishAt(slot, fixed);
    return;
  }

  // Lanes by the space their access resolved to.
  uint32_t shared = 0, global = 0, local = 0, constant = 0;
  auto classify = [&](ir::Space space, uint32_t lanes) {
    switch (space) {
      case ir::Space::Shared:
        shared |= lanes;
        break;
      case ir::Space::Global:
        global |= lanes;
        break;
      case ir::Space::Local:
        local |= lanes;
        break;
      case ir::Space::Const:
      case ir::Space::KernelParam:
        constant |= lanes;
        break;
      default:
        break;  // call-frame parameters: registers on real hardware
    }
  };
  if (r.space != ir::Space::Generic) {
    classify(r.space, mask);
  } else {
    for (uint32_t m = mask; m != 0; m &= m - 1) {
      const unsigned lane = static_cast<unsigned>(std::countr_zero(m));
      classify(r.laneSpace[lane], 1u << lane);
    }
  }

  const uint32_t before = queue_.size();
  uint32_t n = 0;
  if (shared) n += queueShared(r, shared, static_cast<uint16_t>(slot));
  if (global) n += queueGlobal(r, global, static_cast<uint16_t>(slot));
  if (local) n += queueLocal(r, local, static_cast<uint16_t>(slot), now);
  if (constant) n += queueConst(r, constant, static_cast<uint16_t>(slot));
  if (n == 0) {
    finishAt(slot, fixed);
    return;
  }
  slots_[slot].pending = n;
  queue_.at(before + n - 1).last = true;
  ++queuedInstructions_;
}

uint32_t SmMemoryUnit::queueShared(const func::ExecRecord& r, uint32_t mask, uint16_t slot) {
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(m));
    offsets_[lane] = spaceOffset(r, lane);
  }
  const SharedPasses p = banks_.passes(offsets_, mask, r.accessBytes);
  ++sharedStats_.accesses;
  sharedStats_.bankConflictReplays += p.replays();
  if (p.replays() != 0) ++sharedStats_.conflictedAccesses;
  Access a;
  if (storageBanks_ != nullptr) {
    for (uint32_t m = mask; m != 0; m &= m - 1)
      a.banks |= storageBanks_->banksOf(offsets_[std::countr_zero(m)], r.accessBytes);
  }
  a.kind = r.isStore && !r.isAtomic ? Kind::SharedStore : Kind::SharedLoad;
  a.value = p.cycles;
  a.slot = slot;
  a.space = ir::Space::Shared;
  push(a);
  return 1;
}

void SmMemoryUnit::queueLines(uint32_t count, Kind kind, ir::Space space, uint16_t slot,
                              bool uncached) {
  for (uint32_t i = 0; i < count; ++i) {
    const LineRequest& l = lines_[i];
    Access a;
    a.kind = kind;
    a.line = l.line;
    a.sectors = l.sectors;
    a.value = l.bytes;
    a.atomicOps = static_cast<uint16_t>(l.atomicOps);
    a.slot = slot;
    a.space = space;
    a.uncached = uncached;
    push(a);
  }
}

uint32_t SmMemoryUnit::queueGlobal(const func::ExecRecord& r, uint32_t mask, uint16_t slot) {
  const CacheGeometry& g = params_.l1.cache;
  // Global lanes of a generic access carry the device address already (window base 0).
  const uint32_t count = coalesce(r.addr, mask, r.accessBytes, g.lineBytes, g.sectorBytes,
                                  lines_.data(), 0, r.isAtomic);
  Kind kind = Kind::Load;
  if (r.isAtomic) {
    kind = r.instr->op == ir::Op::Red ? Kind::Reduction : Kind::Atomic;
  } else if (r.isStore) {
    kind = Kind::Store;
  }
  const bool uncached =
      kind == Kind::Load && (!params_.l1.cacheGlobalLoads || r.instr->has(ir::kVolatile) ||
                             r.instr->has(ir::kL2Only));
  queueLines(count, kind, ir::Space::Global, slot, uncached);
  return count;
}

uint32_t SmMemoryUnit::queueLocal(const func::ExecRecord& r, uint32_t mask, uint16_t slot,
                                  Cycle now) {
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(m));
    offsets_[lane] = spaceOffset(r, lane);
  }
  LocalWarp warp;
  warp.ctaLinear = r.ctaLinear;
  warp.warpInCta = r.warpInCta;
  warp.slot = wiring_.sm * params_.warpSlotsPerSm + r.warpSlot;
  warp.rowBlocks = params_.numSms * params_.warpSlotsPerSm;
  uint32_t n = 0;
  ILocalMemoryPath::Access pathAccess;
  pathAccess.record = &r;
  pathAccess.mask = mask;
  pathAccess.store = r.isStore;
  pathAccess.bytes = r.accessBytes;
  pathAccess.offset = offsets_;
  pathAccess.warp = warp;
  pathAccess.requests = pathRequests_.data();
  const ILocalMemoryPath::Outcome out = localPath_->access(pathAccess, now);
  slots_[slot].extra = std::max(slots_[slot].extra, out.extraLatency);
  const uint32_t served = out.served & mask;
  if (served != 0) {
    Access a;
    a.kind = Kind::Fixed;
    a.value = out.latency;
    a.slot = slot;
    a.space = ir::Space::Local;
    push(a);
    ++n;
  }
  const Kind kind = r.isStore ? Kind::Store : Kind::Load;
  if (out.listed) {
    for (uint32_t i = 0; i < out.count && i < kMaxRequestsPerInstruction; ++i) {
      const ILocalMemoryPath::Request& q = pathRequests_[i];
      Access a;
      a.kind = q.byPath ? Kind::Fixed : kind;
      a.line = q.line;
      a.sectors = q.sectors;
      a.value = q.byPath ? out.latency : q.bytes;
      a.slot = slot;
      a.space = ir::Space::Local;
      a.uncached = !q.byPath && !r.isStore && q.aroundL1;
      push(a);
      ++n;
    }
    return n;
  }
  const uint32_t rest = mask & ~served;
  if (rest != 0) {
    const CacheGeometry& g = params_.l1.cache;
    const uint32_t count = coalesceLocal(offsets_, rest, r.accessBytes, params_.l1.localLayout,
                                         warp, g.lineBytes, g.sectorBytes, lines_.data(), 0,
                                         scratch_);
    queueLines(count, kind, ir::Space::Local, slot, false);
    n += count;
  }
  return n;
}

uint32_t SmMemoryUnit::queueConst(const func::ExecRecord& r, uint32_t mask, uint16_t slot) {
  ir::Space space = ir::Space::Const;
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(m));
    const bool param =
        r.space == ir::Space::KernelParam ||
        (r.space == ir::Space::Generic && r.laneSpace[lane] == ir::Space::KernelParam);
    if (param) space = ir::Space::KernelParam;
    scratch_[lane] = param ? kParamRegionBase + spaceOffset(r, lane) : r.addr[lane];
  }
  uint64_t unique[32];
  const uint32_t count = distinctAddresses(scratch_, mask, unique);
  for (uint32_t i = 0; i < count; ++i) {
    Access a;
    a.kind = Kind::Const;
    a.line = unique[i];
    a.slot = slot;
    a.space = space;
    push(a);
  }
  return count;
}

}  // namespace warpsim::timing::mem
