#include "timing/mem/constant_cache.h"

namespace warpsim::timing::mem {

ConstantCache::ConstantCache(const ConstParams& params, SmPort& port, CompletionSink& sink)
    : port_(port),
      sink_(sink),
      tags_(params.cache, port.sm()),
      mshrs_(params.mshrs, params.mshrMerge),
      l15Latency_(params.l15Latency),
      fromL15_(params.l15.sizeBytes != 0 ? params.mshrs : 0) {
  if (params.l15.sizeBytes != 0) l15_.emplace(params.l15, port.sm());
}

AccessResult ConstantCache::load(uint64_t addr, uint32_t slot, const RequestOrigin& origin,
                                 Cycle now) {
  const uint64_t line = addr & ~uint64_t{tags_.lineBytes() - 1};
  const uint32_t set = tags_.setOf(line / tags_.lineBytes());
  const uint32_t way = tags_.find(set, line);
  if (way != kNoWay && tags_.line(set, way).pending == 0) {
    tags_.touch(set, way);
    ++stats_.accesses;
    ++stats_.hits;
    return AccessResult::Done;
  }
  if (way != kNoWay) {  // the line is on its way: join its MSHR
    const uint32_t e = mshrs_.find(line);
    if (e == kNoMshr || !mshrs_.canMerge(e)) return AccessResult::Stalled;
    mshrs_.addWaiter(e, slot, tags_.allSectors());
  } else {
    const uint32_t victim = tags_.victim(set);
    if (victim == kNoWay || mshrs_.full()) return AccessResult::Stalled;
    const bool inL15 = l15_ && l15Holds(line);
    if (!inL15 && port_.room() == 0) {
      port_.noteStall();
      return AccessResult::Stalled;
    }
    tags_.install(set, victim, line, InsertPosition::Mru, PinKind::None);
    tags_.line(set, victim).pending = tags_.allSectors();
    const uint32_t e = mshrs_.allocate(line, set, victim);
    mshrs_.entry(e).pending = tags_.allSectors();
    mshrs_.addWaiter(e, slot, tags_.allSectors());
    if (inL15) {
      fromL15_.push(L15Fill{now + l15Latency_, e});
      ++stats_.l15Hits;
    } else {
      port_.send(PacketKind::Read, line, tags_.allSectors(), 0, ReplyTo::ConstMshr, e, origin);
      if (l15_) ++stats_.l15Misses;
    }
  }
  ++stats_.accesses;
  ++stats_.misses;
  return AccessResult::Waiting;
}

ConstantCache::L15Place ConstantCache::l15PlaceOf(uint64_t line) const {
  L15Place p;
  p.tag = line & ~uint64_t{l15_->lineBytes() - 1};
  p.set = l15_->setOf(p.tag / l15_->lineBytes());
  p.sector = 1u << ((line - p.tag) / l15_->sectorBytes());
  return p;
}

bool ConstantCache::l15Holds(uint64_t line) {
  const L15Place p = l15PlaceOf(line);
  const uint32_t way = l15_->find(p.set, p.tag);
  if (way == kNoWay || (l15_->line(p.set, way).valid & p.sector) == 0) return false;
  l15_->touch(p.set, way);
  return true;
}

void ConstantCache::l15Install(uint64_t line) {
  const L15Place p = l15PlaceOf(line);
  uint32_t way = l15_->find(p.set, p.tag);
  if (way == kNoWay) {
    way = l15_->victim(p.set);  // never kNoWay: L1.5 lines have no pending sectors
    l15_->install(p.set, way, p.tag, InsertPosition::Mru, PinKind::None);
  } else {
    l15_->touch(p.set, way);
  }
  l15_->line(p.set, way).valid |= p.sector;
}

void ConstantCache::fill(uint32_t mshr, Cycle now) {
  if (l15_) l15Install(mshrs_.entry(mshr).tag);
  complete(mshr, now);
}

void ConstantCache::complete(uint32_t mshr, Cycle now) {
  MshrTable::Entry& e = mshrs_.entry(mshr);
  CacheLine& line = tags_.line(e.set, e.way);
  line.valid = tags_.allSectors();
  line.pending = 0;
  mshrs_.fill(mshr, tags_.allSectors(), line.valid,
              [&](const MshrWaiter& w) { sink_.completeAccess(w.id, now); });
}

}  // namespace warpsim::timing::mem
