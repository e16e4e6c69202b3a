#include "timing/mem/l1_data_cache.h"

#include <bit>

namespace warpsim::timing::mem {

namespace {
constexpr uint32_t kMaxL1Prefetches = 4;
}

L1DataCache::L1DataCache(const L1Params& params, SmPort& port, ICachePolicy& policy,
                         CompletionSink& sink)
    : params_(params),
      enabled_(params.cache.sizeBytes != 0),
      assoc_(params.cache.assoc),
      port_(port),
      policy_(policy),
      sink_(sink),
      tags_(params.cache, port.sm()),
      mshrs_(params.mshrs, params.mshrMerge),
      roomWays_(tags_.ways()) {}

CacheAccessInfo L1DataCache::infoOf(const LineAccess& a, bool write) const {
  CacheAccessInfo info;
  info.line = a.line;
  info.sectors = a.sectors;
  info.space = a.origin.space;
  info.write = write;
  info.sm = port_.sm();
  info.pc = a.origin.pc;
  info.cta = a.origin.cta;
  info.warp = a.origin.warp;
  return info;
}

uint32_t L1DataCache::packetsForVictim(uint32_t set, uint32_t way) const {
  const CacheLine& v = tags_.line(set, way);
  return v.allocated && v.dirty != 0 ? 1 : 0;
}

void L1DataCache::evict(uint32_t set, uint32_t way, const RequestOrigin& origin) {
  const CacheLine& v = tags_.line(set, way);
  if (!v.allocated) return;
  ++stats_.evictions;
  if (v.pin != PinKind::None) ++stats_.pinnedEvictions;
  if (v.prefetched) ++stats_.prefetchUnused;
  sink_.evicted(v.tag);
  if (v.dirty != 0) {
    ++stats_.writebacks;
    RequestOrigin o = origin;
    o.space = ir::Space::Local;  // dirty lines come from write-back spaces (local by default)
    port_.send(PacketKind::Writeback, v.tag, v.dirty,
               static_cast<uint32_t>(std::popcount(v.dirty)) * tags_.sectorBytes(), ReplyTo::None,
               0, o);
  }
}

bool L1DataCache::makeRoom(uint32_t set, uint32_t way, uint32_t packets,
                           const RequestOrigin& origin) {
  if (!tags_.compressedCapacity()) return true;
  const uint32_t n = tags_.roomFor(set, way, 0, roomWays_.data());
  if (n == kNoRoom) return false;
  for (uint32_t i = 0; i < n; ++i) packets += packetsForVictim(set, roomWays_[i]);
  if (port_.room() < packets) {
    port_.noteStall();
    return false;
  }
  for (uint32_t i = 0; i < n; ++i) {
    evict(set, roomWays_[i], origin);
    tags_.drop(set, roomWays_[i]);
  }
  return true;
}

void L1DataCache::setUnpinPeriod(uint64_t period, Cycle now) {
  unpinPeriod_ = period;
  nextUnpin_ = now + period;
}

void L1DataCache::unpinDue(Cycle now) {
  // Pins only matter when a victim is chosen, so clearing them at the first access at or after
  // the reset time is the same as clearing them at that time.
  tags_.unpin(PinKind::Hard);
  ++stats_.pinResets;
  nextUnpin_ += ((now - nextUnpin_) / unpinPeriod_ + 1) * unpinPeriod_;
}

AccessResult L1DataCache::load(const LineAccess& a, Cycle now, uint8_t* form) {
  if (params_.countFootprint) footprint_.insert(a.line / params_.cache.lineBytes);
  if (!enabled_ || a.uncached) {
    if (port_.room() == 0) {
      port_.noteStall();
      return AccessResult::Stalled;
    }
    port_.send(PacketKind::Read, a.line, a.sectors, 0, ReplyTo::Slot, a.slot, a.origin);
    return AccessResult::Waiting;
  }
  if (unpinPeriod_ != 0 && now >= nextUnpin_) unpinDue(now);
  CacheAccessInfo info = infoOf(a, false);
  const uint32_t set = setOf(a.line);
  const uint32_t way = tags_.find(set, a.line);
  if (way != kNoWay) {
    CacheLine& line = tags_.line(set, way);
    const uint32_t missing = a.sectors & ~line.valid;
    stats_.demandUseOfPrefetch(line.prefetched, missing == 0);
    if (missing == 0) {
      tags_.touch(set, way);
      ++stats_.hits;
      if (line.form != 0) {
        ++stats_.formHits;
        if (form != nullptr) *form = line.form;
      }
    } else {
      uint32_t e = mshrs_.find(a.line);
      const uint32_t wanted = params_.fillLines ? tags_.allSectors() & ~line.valid : missing;
      const uint32_t fresh = e == kNoMshr ? wanted : wanted & ~line.pending;
      if (e == kNoMshr ? mshrs_.full() : !mshrs_.canMerge(e)) {
        ++stats_.mshrFullStalls;
        return AccessResult::Stalled;
      }
      if (fresh != 0 && port_.room() == 0) {
        port_.noteStall();
        return AccessResult::Stalled;
      }
      if (e == kNoMshr) e = mshrs_.allocate(a.line, set, way);
      if (fresh != 0) {
        mshrs_.entry(e).pending |= fresh;
        line.pending |= fresh;
        port_.send(PacketKind::Read, a.line, fresh, 0, ReplyTo::L1Mshr, e, a.origin);
      } else {
        ++stats_.mshrMerges;
      }
      mshrs_.addWaiter(e, a.slot, a.sectors);
      tags_.touch(set, way);
      ++stats_.sectorMisses;
    }
  } else if (policy_.bypass(info)) {
    if (port_.room() == 0) {
      port_.noteStall();
      return AccessResult::Stalled;
    }
    port_.send(PacketKind::Read, a.line, a.sectors, 0, ReplyTo::Slot, a.slot, a.origin);
    ++stats_.misses;
  } else {
    const uint32_t victim = tags_.victim(set);
    if (victim == kNoWay) return AccessResult::Stalled;
    if (mshrs_.full()) {
      ++stats_.mshrFullStalls;
      return AccessResult::Stalled;
    }
    if (port_.room() < 1 + packetsForVictim(set, victim)) {
      port_.noteStall();
      return AccessResult::Stalled;
    }
    if (!makeRoom(set, victim, 1 + packetsForVictim(set, victim), a.origin))
      return AccessResult::Stalled;
    evict(set, victim, a.origin);
    tags_.install(set, victim, a.line, policy_.insertion(info), policy_.pin(info));
    const uint32_t fetch = params_.fillLines ? tags_.allSectors() : a.sectors;
    tags_.line(set, victim).pending = fetch;
    const uint32_t e = mshrs_.allocate(a.line, set, victim);
    mshrs_.entry(e).pending = fetch;
    mshrs_.addWaiter(e, a.slot, a.sectors);
    port_.send(PacketKind::Read, a.line, fetch, 0, ReplyTo::L1Mshr, e, a.origin);
    ++stats_.misses;
  }
  ++stats_.accesses;
  ++stats_.reads;
  const bool hit = way != kNoWay && (a.sectors & ~tags_.line(set, way).valid) == 0;
  info.hit = hit;
  prefetch(info, a.origin);
  return hit ? AccessResult::Done : AccessResult::Waiting;
}

AccessResult L1DataCache::store(const LineAccess& a, WritePolicy policy, Cycle now) {
  if (params_.countFootprint) footprint_.insert(a.line / params_.cache.lineBytes);
  const bool through = policy != WritePolicy::WriteBackAllocate;
  // A deferred write-through store sends nothing now (the caller sends it later).
  const uint32_t sends = through && !a.deferWrite ? 1 : 0;
  if (!enabled_) {
    if (a.deferWrite) return AccessResult::Done;
    if (port_.room() == 0) {
      port_.noteStall();
      return AccessResult::Stalled;
    }
    port_.send(PacketKind::Write, a.line, a.sectors, a.bytes, ReplyTo::None, 0, a.origin);
    return AccessResult::Done;
  }
  if (unpinPeriod_ != 0 && now >= nextUnpin_) unpinDue(now);
  const uint32_t set = setOf(a.line);
  const uint32_t way = tags_.find(set, a.line);
  if (way != kNoWay) {
    if (sends != 0 && port_.room() == 0) {
      port_.noteStall();
      return AccessResult::Stalled;
    }
    CacheLine& line = tags_.line(set, way);
    if ((a.sectors & ~line.valid) == 0) {
      ++stats_.hits;
    } else {
      ++stats_.sectorMisses;
    }
    if (line.form != 0 && line.pending == 0) {
      tags_.drop(set, way);  // plain data cannot merge into a line held in a form
    } else {
      if (policy != WritePolicy::WriteThroughNoAllocate) line.valid |= a.sectors;
      if (!through) line.dirty |= a.sectors;
      tags_.touch(set, way);
    }
  } else {
    const CacheAccessInfo info = infoOf(a, true);
    // Not allocating: the data goes down (also for a write-back space the policy bypasses).
    if (policy == WritePolicy::WriteThroughNoAllocate || policy_.bypass(info)) {
      if (!a.deferWrite && port_.room() == 0) {
        port_.noteStall();
        return AccessResult::Stalled;
      }
      if (!a.deferWrite)
        port_.send(PacketKind::Write, a.line, a.sectors, a.bytes, ReplyTo::None, 0, a.origin);
      ++stats_.misses;
      ++stats_.accesses;
      ++stats_.writes;
      return AccessResult::Done;
    }
    const uint32_t victim = tags_.victim(set);
    if (victim == kNoWay) return AccessResult::Stalled;
    if (port_.room() < sends + packetsForVictim(set, victim)) {
      port_.noteStall();
      return AccessResult::Stalled;
    }
    if (!makeRoom(set, victim, sends + packetsForVictim(set, victim), a.origin))
      return AccessResult::Stalled;
    evict(set, victim, a.origin);
    tags_.install(set, victim, a.line, policy_.insertion(info), policy_.pin(info));
    CacheLine& line = tags_.line(set, victim);
    line.valid = a.sectors;
    if (!through) line.dirty = a.sectors;
    ++stats_.misses;
  }
  if (sends != 0)
    port_.send(PacketKind::Write, a.line, a.sectors, a.bytes, ReplyTo::None, 0, a.origin);
  ++stats_.accesses;
  ++stats_.writes;
  return AccessResult::Done;
}

void L1DataCache::fill(uint32_t mshr, uint32_t sectors, Cycle now, uint8_t form, uint32_t bytes) {
  MshrTable::Entry& e = mshrs_.entry(mshr);
  CacheLine& line = tags_.line(e.set, e.way);
  line.valid |= sectors;
  line.pending &= ~sectors;
  if (params_.keepFillForm && form != 0 && line.pending == 0) {
    // Held as it arrived: its compressed size frees the rest of its room.
    line.form = form;
    tags_.resize(e.set, e.way, bytes);
  }
  mshrs_.fill(mshr, sectors, line.valid,
              [&](const MshrWaiter& w) { sink_.completeAccess(w.id, now); });
  if (pendingCapacity_ != kNoPendingCapacity && mshrs_.used() == 0) applyCapacity(pendingCapacity_);
}

void L1DataCache::setCapacity(uint64_t bytes) {
  if (waitingForFills()) {
    pendingCapacity_ = bytes;
  } else {
    applyCapacity(bytes);
  }
}

void L1DataCache::applyCapacity(uint64_t bytes) {
  pendingCapacity_ = kNoPendingCapacity;
  CacheGeometry g = params_.cache;
  if (params_.resizeWays) {
    // The configured sets stay; the capacity is whole ways of them.
    const uint64_t wayBytes = uint64_t{params_.cache.sets()} * g.lineBytes;
    g.assoc = static_cast<uint32_t>(wayBytes == 0 ? 0 : bytes / wayBytes);
    g.sizeBytes = g.assoc * wayBytes;
  } else {
    const uint64_t setBytes = uint64_t{g.assoc} * g.lineBytes;
    g.sizeBytes = bytes / setBytes * setBytes;
  }
  const bool same = enabled_ && g.sizeBytes == capacity();
  enabled_ = g.sizeBytes != 0;
  if (!enabled_ || same) {
    tags_.invalidateAll();  // no L1 (the tags stay, unused), or the same capacity
    return;
  }
  assoc_ = g.assoc;
  tags_ = CacheTags(g, port_.sm());
  roomWays_.assign(tags_.ways(), 0);
}

uint32_t L1DataCache::invalidate(uint64_t lineAddr) {
  if (!enabled_) return 0;
  const uint32_t set = setOf(lineAddr);
  const uint32_t way = tags_.find(set, lineAddr);
  if (way == kNoWay) return 0;
  CacheLine& line = tags_.line(set, way);
  const uint32_t dirty = line.dirty;
  if (line.pending != 0) {
    // A fill is on its way: keep the line (and its MSHR) but drop its data.
    line.valid = line.dirty = 0;
  } else {
    tags_.drop(set, way);
  }
  return dirty;
}

void L1DataCache::prefetch(const CacheAccessInfo& info, const RequestOrigin& origin) {
  uint64_t lines[kMaxL1Prefetches];
  const uint32_t n = policy_.prefetch(info, lines, kMaxL1Prefetches);
  for (uint32_t i = 0; i < n; ++i) {
    const uint64_t line = lines[i] & ~uint64_t{tags_.lineBytes() - 1};
    const uint32_t set = setOf(line);
    if (tags_.find(set, line) != kNoWay || mshrs_.full()) continue;
    const uint32_t victim = tags_.victim(set);
    if (victim == kNoWay || port_.room() < 1 + packetsForVictim(set, victim)) continue;
    if (!makeRoom(set, victim, 1 + packetsForVictim(set, victim), origin)) continue;
    CacheAccessInfo pf = info;
    pf.line = line;
    pf.sectors = tags_.allSectors();
    pf.prefetch = true;
    evict(set, victim, origin);
    tags_.install(set, victim, line, policy_.insertion(pf), policy_.pin(pf));
    tags_.line(set, victim).pending = pf.sectors;
    tags_.line(set, victim).prefetched = true;
    ++stats_.prefetches;
    const uint32_t e = mshrs_.allocate(line, set, victim);
    mshrs_.entry(e).pending = pf.sectors;
    port_.send(PacketKind::Read, line, pf.sectors, 0, ReplyTo::L1Mshr, e, origin);
  }
}

}  // namespace warpsim::timing::mem
