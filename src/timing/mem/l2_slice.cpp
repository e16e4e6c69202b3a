#include "timing/mem/l2_slice.h"

#include <algorithm>
#include <bit>

namespace warpsim::timing::mem {

namespace {

constexpr uint32_t kBypassTag = 1u << 31;  // DRAM read tag: a packet that bypassed the cache
constexpr uint32_t kSideTag = kBypassTag - 1;  // DRAM read tag: compression side traffic
constexpr uint32_t kMaxL2Prefetches = 4;

bool heapAfter(const auto& a, const auto& b) {
  return a.ready != b.ready ? a.ready > b.ready : a.seq > b.seq;
}

}  // namespace

L2Slice::L2Slice(const L2Params& params, const CacheGeometry& geometry, const L2SliceWiring& wiring)
    : params_(params),
      w_(wiring),
      tags_(geometry, wiring.index),
      mshrs_(params.mshrs, params.mshrMerge),
      pipeline_(params.hitLatency + 1),
      granule_(wiring.mapping->granuleBytes()) {
  roomWays_.resize(tags_.ways());
  replies_.reserve(size_t{params.mshrs} * params.mshrMerge + params.hitLatency + 64);
}

void L2Slice::beginKernel() { stats_ = CacheStats{}; }

void L2Slice::setPinsFollowUse(bool follow) {
  pinsFollowUse_ = follow;
  if (follow) tags_.unpin(PinKind::Soft);
}

uint32_t L2Slice::setOf(uint64_t line) const {
  const uint64_t local = w_.mapping->map(line).local;
  const uint64_t granules = local / granule_ / w_.slicesPerChannel;
  const uint64_t sliceLocal = granules * granule_ + local % granule_;
  return tags_.setOf(sliceLocal / tags_.lineBytes());
}

CacheAccessInfo L2Slice::infoOf(const Packet& p, uint64_t line, uint32_t sectors) const {
  CacheAccessInfo info;
  info.line = line;
  info.sectors = sectors;
  info.space = p.space;
  info.write = p.kind == PacketKind::Write || p.kind == PacketKind::Writeback;
  info.atomic = p.kind == PacketKind::Atomic || p.kind == PacketKind::Reduction;
  info.sm = p.sm;
  info.pc = p.pc;
  info.cta = p.cta;
  info.warp = p.warp;
  return info;
}

void L2Slice::cycle(Cycle now) {
  now_ = now;
  takeFills(now);
  if (!pipeline_.empty() && pipeline_.front().ready <= now) {
    if (process(pipeline_.front().packet, now)) {
      pipeline_.pop();
      ++moved_;
    }
  }
  sendReplies(now);
  if (!pipeline_.full() && w_.requests->hasPacket(w_.index)) {
    pipeline_.push(Staged{w_.requests->front(w_.index), now + params_.hitLatency});
    w_.requests->pop(w_.index);
  }
}

Cycle L2Slice::nextWorkCycle(Cycle now) const {
  Cycle next = kNever;
  if (!pipeline_.empty()) next = std::min(next, std::max(now, pipeline_.front().ready));
  if (!replies_.empty()) next = std::min(next, std::max(now, replies_.front().ready));
  if (!pipeline_.full() && w_.requests->hasPacket(w_.index)) next = now;
  RingBuffer<DramCompletion>& done = w_.dram->completions(w_.sliceInChannel);
  if (!done.empty()) next = std::min(next, std::max(now, done.front().visibleAt));
  return next;
}

void L2Slice::takeFills(Cycle now) {
  RingBuffer<DramCompletion>& done = w_.dram->completions(w_.sliceInChannel);
  while (!done.empty() && done.front().visibleAt <= now) {
    const DramCompletion c = done.front();
    done.pop();
    ++moved_;
    w_.dram->countReadLatency(now - std::min(now, c.sent));
    if (c.tag == kSideTag) continue;  // metadata or read-modify-write read: nothing waits
    const Cycle ready = now + c.delay;
    if (c.tag & kBypassTag) {
      complete(c.tag & ~kBypassTag, nullptr, ready, true);
      continue;
    }
    MshrTable::Entry& e = mshrs_.entry(c.tag);
    CacheLine& line = tags_.line(e.set, e.way);
    line.valid |= c.sectors;
    line.pending &= ~c.sectors;
    mshrs_.fill(c.tag, c.sectors, line.valid,
                [&](const MshrWaiter& waiter) { complete(waiter.id, &line, ready, true); });
  }
}

bool L2Slice::process(uint32_t packet, Cycle now) {
  const Packet& p = (*w_.pool)[packet];
  const uint32_t lineBytes = tags_.lineBytes();
  const uint64_t line = p.addr & ~uint64_t{lineBytes - 1};
  const uint32_t sectors = p.sectors << ((p.addr - line) / tags_.sectorBytes());
  const uint32_t set = setOf(line);
  const PacketKind kind = p.kind;  // processing turns the packet into its reply
  const bool write = kind == PacketKind::Write || kind == PacketKind::Writeback;
  const bool ok = write ? processWrite(packet, line, sectors, set, now)
                        : processRead(packet, line, sectors, set, now);
  if (!ok) return false;
  ++stats_.accesses;
  if (write) {
    ++stats_.writes;
  } else if (kind == PacketKind::Read) {
    ++stats_.reads;
  } else {
    ++stats_.atomics;
  }
  return true;
}

bool L2Slice::processRead(uint32_t packet, uint64_t lineAddr, uint32_t sectors, uint32_t set,
                          Cycle now) {
  const Packet& p = (*w_.pool)[packet];
  const bool atomic = p.kind != PacketKind::Read;
  CacheAccessInfo info = infoOf(p, lineAddr, sectors);
  const uint32_t way = tags_.find(set, lineAddr);
  if (way != kNoWay) {
    CacheLine& line = tags_.line(set, way);
    if (pinsFollowUse_ && !atomic) {
      info.hit = true;
      line.pin = w_.policy->pin(info);
      info.hit = false;
    }
    const uint32_t missing = sectors & ~line.valid;
    stats_.demandUseOfPrefetch(line.prefetched, missing == 0);
    if (missing == 0) {
      tags_.touch(set, way);
      ++stats_.hits;
      complete(packet, &line, now, false);
    } else {
      const uint32_t wanted = params_.fillLines ? tags_.allSectors() & ~line.valid : missing;
      const uint32_t fresh = wanted & ~line.pending;
      uint32_t e = mshrs_.find(lineAddr);
      const bool mshrOk = e == kNoMshr ? !mshrs_.full() : mshrs_.canMerge(e);
      if (!mshrOk) {
        ++stats_.mshrFullStalls;
        return false;
      }
      if (fresh != 0 && !dramRoom(1, 0)) return false;
      if (e == kNoMshr) e = mshrs_.allocate(lineAddr, set, way);
      if (fresh != 0) {
        const uint32_t moved = readDram(lineAddr, fresh, e);
        mshrs_.entry(e).pending |= moved;
        line.pending |= moved;
      } else {
        ++stats_.mshrMerges;
      }
      mshrs_.addWaiter(e, packet, sectors);
      tags_.touch(set, way);
      ++stats_.sectorMisses;
    }
  } else if (!atomic && w_.policy->bypass(info)) {
    if (!dramRoom(1, 0)) return false;
    readDram(lineAddr, sectors, packet | kBypassTag);
    ++stats_.misses;
  } else {
    const uint32_t victim = tags_.victim(set);
    if (victim == kNoWay) return false;
    if (mshrs_.full()) {
      ++stats_.mshrFullStalls;
      return false;
    }
    const CacheLine& old = tags_.line(set, victim);
    const uint32_t writes = old.allocated && old.dirty != 0 ? 1 : 0;
    if (!dramRoom(1, writes)) return false;
    const uint32_t size = sizeOf(lineAddr);
    if (!makeRoom(set, victim, size, 1, writes)) return false;
    evict(set, victim);
    tags_.install(set, victim, lineAddr, w_.policy->insertion(info), w_.policy->pin(info), size);
    CacheLine& line = tags_.line(set, victim);
    const uint32_t e = mshrs_.allocate(lineAddr, set, victim);
    const uint32_t moved =
        readDram(lineAddr, params_.fillLines && !atomic ? tags_.allSectors() : sectors, e);
    line.pending = moved;
    mshrs_.entry(e).pending = moved;
    mshrs_.addWaiter(e, packet, sectors);
    ++stats_.misses;
  }
  if (!atomic) {
    info.hit = way != kNoWay && (sectors & ~tags_.line(set, way).valid) == 0;
    prefetch(info);
  }
  return true;
}

bool L2Slice::processWrite(uint32_t packet, uint64_t lineAddr, uint32_t sectors, uint32_t set,
                           Cycle now) {
  Packet& p = (*w_.pool)[packet];
  const uint32_t way = tags_.find(set, lineAddr);
  if (way != kNoWay && p.kind == PacketKind::Write && p.format == 0 &&
      sectors != tags_.allSectors() && tags_.line(set, way).valid == tags_.allSectors() &&
      w_.compression->refusesWrite(lineAddr, sectors)) {
    refuseWrite(packet, lineAddr, set, way, now);
    return true;
  }
  // The compression learns of a write before the write's line is sized (storedBytes).
  const bool notify = p.kind == PacketKind::Write && w_.compression != nullptr;
  if (way != kNoWay) {
    if (notify) w_.compression->written(lineAddr, sectors, p.format);
    CacheLine& line = tags_.line(set, way);
    if ((sectors & ~line.valid) == 0) {
      ++stats_.hits;
    } else {
      ++stats_.sectorMisses;
    }
    line.valid |= sectors;
    line.dirty |= sectors;
    tags_.touch(set, way);
    if (tags_.compressedCapacity()) {
      // The written line's new size; growing past the set's data, others leave if they can.
      const uint32_t size = sizeOf(lineAddr);
      makeRoom(set, way, size, 0, 0);
      tags_.resize(set, way, size);
    }
  } else {
    const CacheAccessInfo info = infoOf(p, lineAddr, sectors);
    if (w_.policy->bypass(info)) {
      if (!dramRoom(0, 1)) return false;
      if (notify) w_.compression->written(lineAddr, sectors, p.format);
      writeDram(lineAddr, sectors);
    } else {
      const uint32_t victim = tags_.victim(set);
      if (victim == kNoWay) return false;
      const CacheLine& old = tags_.line(set, victim);
      const uint32_t writes = old.allocated && old.dirty != 0 ? 1 : 0;
      if (writes != 0 && !dramRoom(0, writes)) return false;
      // (A miss that must wait for room below is retried: the compression may hear of it twice.)
      if (notify) w_.compression->written(lineAddr, sectors, p.format);
      const uint32_t size = sizeOf(lineAddr);
      if (!makeRoom(set, victim, size, 0, writes)) return false;
      evict(set, victim);
      tags_.install(set, victim, lineAddr, w_.policy->insertion(info), w_.policy->pin(info),
                    size);
      CacheLine& line = tags_.line(set, victim);
      line.valid = line.dirty = sectors;
    }
    ++stats_.misses;
  }
  if (p.kind == PacketKind::Write) {
    p.kind = PacketKind::WriteAck;
    p.bytes = 0;
    pushReply(packet, now);
  } else {
    w_.pool->release(packet);
  }
  return true;
}

void L2Slice::refuseWrite(uint32_t packet, uint64_t lineAddr, uint32_t set, uint32_t way,
                          Cycle now) {
  Packet& p = (*w_.pool)[packet];
  tags_.touch(set, way);
  ++stats_.hits;
  const uint32_t lineBytes = tags_.lineBytes();
  const ReplyCost cost = w_.compression->reply(lineAddr, tags_.allSectors(), lineBytes, false);
  p.kind = PacketKind::WriteRefused;
  p.bytes = cost.bytes;
  p.format = cost.format;
  pushReply(packet, now + cost.extraCycles);
}

void L2Slice::warm(uint64_t lineAddr, uint32_t sectors, bool write) {
  if (tags_.compressedCapacity()) return;  // a set's room depends on the compressed sizes
  const uint32_t set = setOf(lineAddr);
  uint32_t way = tags_.find(set, lineAddr);
  if (way == kNoWay) {
    way = tags_.victim(set);
    if (way == kNoWay || tags_.line(set, way).pending != 0) return;
    tags_.install(set, way, lineAddr, InsertPosition::Mru, PinKind::None);
  }
  CacheLine& line = tags_.line(set, way);
  line.valid |= sectors;
  if (write) line.dirty |= sectors;
  tags_.touch(set, way);
}

void L2Slice::evict(uint32_t set, uint32_t way) {
  const CacheLine& old = tags_.line(set, way);
  if (!old.allocated) return;
  ++stats_.evictions;
  if (old.pin != PinKind::None) ++stats_.pinnedEvictions;
  if (old.prefetched) ++stats_.prefetchUnused;
  if (old.dirty != 0) {
    ++stats_.writebacks;
    writeDram(old.tag, old.dirty);
  }
}

uint32_t L2Slice::sizeOf(uint64_t line) const {
  return tags_.compressedCapacity() ? w_.compression->storedBytes(line) : 0;
}

bool L2Slice::makeRoom(uint32_t set, uint32_t way, uint32_t size, uint32_t reads,
                       uint32_t writes) {
  if (!tags_.compressedCapacity()) return true;
  const uint32_t n = tags_.roomFor(set, way, size, roomWays_.data());
  if (n == kNoRoom) return false;
  // One line at a time, as far as the DRAM queue takes the write-backs: a large line among well
  // compressed ones may need more dirty lines out than the queue ever holds beside the request's
  // own traffic; what has left stays out, and the retry next cycle needs that much less.
  for (uint32_t i = 0; i < n; ++i) {
    if (tags_.line(set, roomWays_[i]).dirty != 0 && !dramRoom(0, 1)) return false;
    evict(set, roomWays_[i]);
    tags_.drop(set, roomWays_[i]);
  }
  return dramRoom(reads, writes);
}

bool L2Slice::dramRoom(uint32_t reads, uint32_t writes) const {
  const uint32_t side = w_.compression->maxSideRequests() * (reads + writes);
  return w_.dram->canAccept(w_.sliceInChannel, reads + side, writes);
}

void L2Slice::sideRequest(uint64_t addr, uint32_t bursts, bool write) {
  const DramAddress a = w_.mapping->map(addr);
  DramRequest r;
  r.line = addr;
  r.sectors = 1;
  r.bursts = std::max<uint32_t>(bursts, 1);
  r.bank = a.bank;
  r.row = a.row;
  r.tag = kSideTag;
  r.sent = now_;
  r.slice = static_cast<uint16_t>(w_.sliceInChannel);
  r.write = write;
  w_.dram->enqueue(r);
}

void L2Slice::sideRequests(const CompressedTransfer& t) {
  if (t.metadataRead != kNoSideLine) sideRequest(t.metadataRead, 1, false);
  if (t.metadataWrite != kNoSideLine) sideRequest(t.metadataWrite, 1, true);
}

uint32_t L2Slice::readDram(uint64_t line, uint32_t sectors, uint32_t tag) {
  const CompressedTransfer t = w_.compression->transfer(line, sectors, false);
  sideRequests(t);
  const DramAddress a = w_.mapping->map(line);
  DramRequest r;
  r.line = line;
  r.sectors = t.sectors != 0 ? t.sectors : sectors;
  r.bursts = std::max<uint32_t>(t.bursts, 1);
  r.bank = a.bank;
  r.row = a.row;
  r.tag = tag;
  r.sent = now_;
  r.delay = t.extraCycles;
  r.slice = static_cast<uint16_t>(w_.sliceInChannel);
  r.write = false;
  w_.dram->enqueue(r);
  return r.sectors;
}

void L2Slice::writeDram(uint64_t line, uint32_t sectors) {
  const CompressedTransfer t = w_.compression->transfer(line, sectors, true);
  sideRequests(t);
  if (t.readFirstBursts != 0) sideRequest(line, t.readFirstBursts, false);
  const DramAddress a = w_.mapping->map(line);
  DramRequest r;
  r.line = line;
  r.sectors = t.sectors != 0 ? t.sectors : sectors;
  r.bursts = std::max<uint32_t>(t.bursts, 1);
  r.bank = a.bank;
  r.row = a.row;
  r.slice = static_cast<uint16_t>(w_.sliceInChannel);
  r.write = true;
  w_.dram->enqueue(r);
}

void L2Slice::complete(uint32_t packet, CacheLine* line, Cycle ready, bool fromDram) {
  Packet& p = (*w_.pool)[packet];
  switch (p.kind) {
    case PacketKind::Read: {
      p.kind = PacketKind::ReadReply;
      const uint64_t l = p.addr & ~uint64_t{tags_.lineBytes() - 1};
      const uint32_t sectors = p.sectors << ((p.addr - l) / tags_.sectorBytes());
      const uint32_t bytes = static_cast<uint32_t>(std::popcount(p.sectors)) * tags_.sectorBytes();
      // Constant-cache fills stay plain: only data loads may arrive in another form.
      const ReplyCost cost = p.replyTo == ReplyTo::ConstMshr ? ReplyCost{bytes, 0, 0}
                                                             : w_.compression->reply(l, sectors, bytes, fromDram);
      p.bytes = cost.bytes;
      p.format = cost.format;
      pushReply(packet, ready + cost.extraCycles);
      return;
    }
    case PacketKind::Atomic:
    case PacketKind::Reduction: {
      const Cycle start = std::max(ready, atomicFree_);
      atomicFree_ = start + p.atomicOps;
      if (line) {
        const uint64_t l = line->tag;
        line->dirty |= p.sectors << ((p.addr - l) / tags_.sectorBytes());
      }
      if (p.kind == PacketKind::Atomic) {
        p.kind = PacketKind::AtomicReply;  // carries the old values: as many bytes as it brought
      } else {
        p.kind = PacketKind::WriteAck;
        p.bytes = 0;
      }
      pushReply(packet, start + params_.atomicLatency + p.atomicOps - 1);
      return;
    }
    default:
      pushReply(packet, ready);
      return;
  }
}

void L2Slice::pushReply(uint32_t packet, Cycle ready) {
  Packet& p = (*w_.pool)[packet];
  p.port = p.sm;
  replies_.push_back(Reply{ready, replySeq_++, packet});
  std::push_heap(replies_.begin(), replies_.end(),
                 [](const Reply& a, const Reply& b) { return heapAfter(a, b); });
}

void L2Slice::sendReplies(Cycle now) {
  while (!replies_.empty() && replies_.front().ready <= now) {
    if (!w_.replies->canInject(w_.index)) {
      w_.replies->noteStall();
      return;
    }
    const uint32_t packet = replies_.front().packet;
    std::pop_heap(replies_.begin(), replies_.end(),
                  [](const Reply& a, const Reply& b) { return heapAfter(a, b); });
    replies_.pop_back();
    w_.replies->inject(w_.index, packet);
    ++moved_;
  }
}

void L2Slice::prefetch(const CacheAccessInfo& info) {
  uint64_t lines[kMaxL2Prefetches];
  const uint32_t n = w_.policy->prefetch(info, lines, kMaxL2Prefetches);
  for (uint32_t i = 0; i < n; ++i) {
    const uint64_t line = lines[i] & ~uint64_t{tags_.lineBytes() - 1};
    const uint32_t set = setOf(line);
    if (tags_.find(set, line) != kNoWay || mshrs_.full()) continue;
    const uint32_t victim = tags_.victim(set);
    if (victim == kNoWay) continue;
    const CacheLine& old = tags_.line(set, victim);
    const uint32_t writes = old.allocated && old.dirty != 0 ? 1 : 0;
    if (!dramRoom(1, writes)) continue;
    const uint32_t size = sizeOf(line);
    if (!makeRoom(set, victim, size, 1, writes)) continue;
    CacheAccessInfo pf = info;
    pf.line = line;
    pf.sectors = tags_.allSectors();
    pf.prefetch = true;
    evict(set, victim);
    tags_.install(set, victim, line, w_.policy->insertion(pf), w_.policy->pin(pf), size);
    tags_.line(set, victim).pending = pf.sectors;
    tags_.line(set, victim).prefetched = true;
    ++stats_.prefetches;
    const uint32_t e = mshrs_.allocate(line, set, victim);
    mshrs_.entry(e).pending = pf.sectors;
    readDram(line, pf.sectors, e);
  }
}

}  // namespace warpsim::timing::mem
