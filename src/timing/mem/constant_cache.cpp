#include "timing/mem/constant_cache.h"

namespace warpsim::timing::mem {

ConstantCache::ConstantCache(const ConstParams& params, SmPort& port, CompletionSink& sink)
    : port_(port),
      sink_(sink),
      tags_(params.cache, port.sm()),
      mshrs_(params.mshrs, params.mshrMerge) {}

AccessResult ConstantCache::load(uint64_t addr, uint32_t slot, const RequestOrigin& origin) {
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
    if (port_.room() == 0) {
      port_.noteStall();
      return AccessResult::Stalled;
    }
    tags_.install(set, victim, line, InsertPosition::Mru, PinKind::None);
    tags_.line(set, victim).pending = tags_.allSectors();
    const uint32_t e = mshrs_.allocate(line, set, victim);
    mshrs_.entry(e).pending = tags_.allSectors();
    mshrs_.addWaiter(e, slot, tags_.allSectors());
    port_.send(PacketKind::Read, line, tags_.allSectors(), 0, ReplyTo::ConstMshr, e, origin);
  }
  ++stats_.accesses;
  ++stats_.misses;
  return AccessResult::Waiting;
}

void ConstantCache::fill(uint32_t mshr, Cycle now) {
  MshrTable::Entry& e = mshrs_.entry(mshr);
  CacheLine& line = tags_.line(e.set, e.way);
  line.valid = tags_.allSectors();
  line.pending = 0;
  mshrs_.fill(mshr, tags_.allSectors(), line.valid,
              [&](const MshrWaiter& w) { sink_.completeAccess(w.id, now); });
}

}  // namespace warpsim::timing::mem
