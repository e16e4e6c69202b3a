#include "timing/mem/sm_memory_unit.h"

#include <algorithm>
#include <bit>

#include "timing/storage_banks.h"

namespace warpsim::timing::mem {

namespace {

constexpr uint32_t kMaxSlots = 1024;  // instructions accepted and not popped
constexpr uint32_t kAccessesPerInstruction = kMaxRequestsPerInstruction + 4;
constexpr uint32_t kSideQueue = 64;

bool dueAfter(const auto& a, const auto& b) { return a.at != b.at ? a.at > b.at : a.seq > b.seq; }

}  // namespace

SmMemoryUnit::SmMemoryUnit(const MemoryParams& params, const SmMemoryWiring& wiring,
                           std::unique_ptr<ICachePolicy> policy,
                           std::unique_ptr<ILocalMemoryPath> localPath)
    : params_(params),
      wiring_(wiring),
      port_(wiring.sm, *wiring.requests, *wiring.pool, *wiring.mapping, wiring.slicesPerChannel),
      policy_(std::move(policy)),
      localPath_(std::move(localPath)),
      l1_(params.l1, port_, *policy_, *this),
      const_(params.constant, port_, *this),
      banks_(params.shared.banks, params.shared.bankBytes, params.shared.gather),
      slots_(kMaxSlots),
      queue_(params.l1.queueInstructions * kAccessesPerInstruction),
      side_(kSideQueue),
      completed_(kMaxSlots),
      lines_(kMaxRequestsPerInstruction),
      pathRequests_(kMaxRequestsPerInstruction) {
  freeSlots_.reserve(kMaxSlots);
  for (uint32_t i = kMaxSlots; i-- > 0;) freeSlots_.push_back(static_cast<uint16_t>(i));
  due_.reserve(kMaxSlots);
  fences_.reserve(kMaxSlots);
  refused_.reserve(HeldStores::kCapacity);
}

bool SmMemoryUnit::canAccept(const func::ExecRecord&) const {
  return queuedInstructions_ < params_.l1.queueInstructions && !freeSlots_.empty();
}

uint32_t SmMemoryUnit::allocateSlot(const func::ExecRecord& record, uint32_t token) {
  const uint32_t slot = freeSlots_.back();
  freeSlots_.pop_back();
  Slot& s = slots_[slot];
  s.token = token;
  s.pending = 0;
  s.ready = 0;
  s.pc = record.pc;
  s.cta = record.ctaLinear;
  s.warp = static_cast<uint8_t>(record.warpInCta);
  s.warpSlot = static_cast<uint8_t>(record.warpSlot);
  s.extra = 0;
  return slot;
}

void SmMemoryUnit::finishAt(uint32_t slot, Cycle when) {
  due_.push_back(Due{when, dueSeq_++, slot});
  std::push_heap(due_.begin(), due_.end(),
                 [](const Due& a, const Due& b) { return dueAfter(a, b); });
}

void SmMemoryUnit::completeAccess(uint32_t slot, Cycle when) {
  Slot& s = slots_[slot];
  s.ready = std::max(s.ready, when);
  if (--s.pending == 0) finishAt(slot, s.ready + s.extra);
}

void SmMemoryUnit::evicted(uint64_t line) {
  if (isLocalAddress(line)) localPath_->l1Dropped(line);
}

bool SmMemoryUnit::writeBack(uint64_t line, uint32_t sectors) {
  if (side_.full()) return false;
  Access a;
  a.kind = Kind::Writeback;
  a.line = line;
  a.sectors = sectors;
  a.space = ir::Space::Local;
  side_.push(a);
  return true;
}

void SmMemoryUnit::invalidateL1(uint64_t line) {
  const uint32_t dirty = l1_.invalidate(line);
  if (dirty != 0) writeBack(line, dirty);
  if (isLocalAddress(line)) localPath_->l1Dropped(line);
}

RequestOrigin SmMemoryUnit::originOf(const Access& a) const {
  const Slot& s = slots_[a.slot];
  return RequestOrigin{s.pc, s.cta, s.warp, s.warpSlot, a.space};
}

void SmMemoryUnit::cycle(Cycle now) {
  lastCycle_ = now;
  takeReply(now);
  const_.cycle(now);
  if (!refused_.empty()) redoRefused(now);
  if (heldStores_.waitingForPort()) heldStores_.send(port_);
  if (!fences_.empty()) {
    size_t kept = 0;
    for (const FenceWait& f : fences_) {
      if (writesAcked_ >= f.writes) {
        completeAccess(f.slot, now);
      } else {
        fences_[kept++] = f;
      }
    }
    fences_.resize(kept);
  }
  if (storageBanks_ == nullptr) startPort(now);  // else portCycle, after the register file's
  completeDue(now);
}

void SmMemoryUnit::portCycle(Cycle now) {
  if (storageBanks_ == nullptr) return;
  startPort(now);
  completeDue(now);
}

void SmMemoryUnit::startPort(Cycle now) {
  if (now < portFree_) return;
  if (!side_.empty()) {
    if (startAccess(side_.front(), now)) side_.pop();
  } else if (!queue_.empty()) {
    const Access a = queue_.front();
    if (storageBanks_ != nullptr && registersHoldBanks(a, now)) {
      ++storageBankStats_.arbitrationStalls;
      if (!headWaited_) ++storageBankStats_.arbitrationAccesses;
      headWaited_ = true;
      return;
    }
    if (startAccess(a, now)) {
      queue_.pop();
      headWaited_ = false;
      if (a.last) --queuedInstructions_;
    }
  }
}

// Shared-memory passes use the banks of their lanes' rows, cached line accesses one row of the
// line's bank in every cluster (storage_banks.h); loads need the read ports, stores the write
// ports. Only the pass's first cycle is arbitrated (a multi-pass access then keeps its banks).
bool SmMemoryUnit::registersHoldBanks(const Access& a, Cycle now) const {
  const StorageBanks& b = *storageBanks_;
  switch (a.kind) {
    case Kind::SharedLoad:
      return b.readsHeld(a.banks, now);
    case Kind::SharedStore:
      return b.writesHeld(a.banks, now);
    case Kind::Load:
      return !a.uncached && b.readsHeld(b.banksOf(a.line, params_.l1.cache.lineBytes), now);
    case Kind::Store:
      return !a.uncached && b.writesHeld(b.banksOf(a.line, params_.l1.cache.lineBytes), now);
    default:
      return false;
  }
}

void SmMemoryUnit::completeDue(Cycle now) {
  while (!due_.empty() && due_.front().at <= now) {
    completed_.push(due_.front().slot);
    std::pop_heap(due_.begin(), due_.end(),
                  [](const Due& a, const Due& b) { return dueAfter(a, b); });
    due_.pop_back();
  }
}

void SmMemoryUnit::takeReply(Cycle now) {
  Crossbar& replies = *wiring_.replies;
  if (!replies.hasPacket(wiring_.sm)) return;
  const uint32_t i = replies.front(wiring_.sm);
  replies.pop(wiring_.sm);
  const Packet p = (*wiring_.pool)[i];
  wiring_.pool->release(i);
  port_.replyTaken();
  if (p.kind == PacketKind::WriteAck) {
    ++writesAcked_;
    return;
  }
  if (p.kind == PacketKind::WriteRefused) {
    refused(p, now);
    return;
  }
  if (p.format != 0 && listener_ != nullptr &&
      (p.replyTo == ReplyTo::L1Mshr || p.replyTo == ReplyTo::Slot)) {
    if (listener_->holdReply(p.addr, p.sectors, p.format, p.warpSlot, heldReplies_.nextTicket(),
                             now)) {
      heldReplies_.put(HeldReply{p.replyTo, p.tag, p.sectors, p.format, p.bytes});
      return;
    }
  }
  deliver(p.replyTo, p.tag, p.sectors, now);
}

void SmMemoryUnit::refused(const Packet& p, Cycle now) {
  // The refused write is over (as if acknowledged); its redo is a new write, and a fence that
  // waited for the refused one waits for the redo instead.
  ++writesAcked_;
  for (FenceWait& f : fences_) ++f.writes;
  refused_.push_back(RefusedWrite{p.addr, p.format, RequestOrigin{p.pc, p.cta, p.warp, p.warpSlot, p.space}});
  redoRefused(now);
}

void SmMemoryUnit::redoRefused(Cycle now) {
  const uint32_t lineBytes = params_.l1.cache.lineBytes;
  size_t done = 0;
  for (; done < refused_.size() && !heldStores_.full(); ++done) {
    const RefusedWrite& r = refused_[done];
    const uint32_t ticket =
        heldStores_.reserve({r.line, l1_.allSectors(), lineBytes, r.origin, 0});
    if (storeListener_ == nullptr ||
        !storeListener_->redoStore(r.line, r.format, r.origin.warpSlot, ticket, now))
      heldStores_.release(ticket, 0, lineBytes);
  }
  refused_.erase(refused_.begin(), refused_.begin() + static_cast<std::ptrdiff_t>(done));
}

void SmMemoryUnit::deliver(ReplyTo to, uint32_t tag, uint32_t sectors, Cycle now) {
  switch (to) {
    case ReplyTo::L1Mshr:
      l1_.fill(tag, sectors, now);
      break;
    case ReplyTo::ConstMshr:
      const_.fill(tag, now);
      break;
    case ReplyTo::Slot:
      completeAccess(tag, now);
      break;
    case ReplyTo::None:
      break;
  }
}

void SmMemoryUnit::releaseStore(uint32_t ticket, uint8_t format, uint32_t bytes, Cycle) {
  heldStores_.release(ticket, format, bytes);
}

void SmMemoryUnit::releaseReply(uint32_t ticket, Cycle now) {
  HeldReply h;
  if (!heldReplies_.take(ticket, h)) return;
  if (h.to == ReplyTo::L1Mshr) {
    l1_.fill(h.tag, h.sectors, now, h.form, h.bytes);
  } else {
    deliver(h.to, h.tag, h.sectors, now);
  }
}

bool SmMemoryUnit::startAccess(const Access& a, Cycle now) {
  const L1Params& l1 = params_.l1;
  Cycle busy = l1.accessCycles;
  switch (a.kind) {
    case Kind::SharedLoad:
    case Kind::SharedStore: {
      busy = Cycle{a.value} * params_.shared.passCycles;
      completeAccess(a.slot, a.kind == Kind::SharedStore ? now + busy
                                                         : now + busy - 1 + params_.shared.latency);
      break;
    }
    case Kind::Load:
    case Kind::Store: {
      LineAccess la;
      la.line = a.line;
      la.sectors = a.sectors;
      la.bytes = a.value;
      la.slot = a.slot;
      la.origin = originOf(a);
      la.uncached = a.uncached;
      if (a.kind == Kind::Load) {
        uint8_t form = 0;
        const AccessResult r = l1_.load(la, now, &form);
        if (r == AccessResult::Stalled) return false;
        if (r == AccessResult::Done) {
          // A hit on a line the L1 holds in a form: the listener transforms it again first.
          if (form != 0 && listener_ != nullptr &&
              listener_->holdReply(la.line, la.sectors, form, la.origin.warpSlot,
                                   heldReplies_.nextTicket(), now)) {
            heldReplies_.put(HeldReply{ReplyTo::Slot, a.slot, la.sectors});
          } else {
            completeAccess(a.slot, now + l1.hitLatency);
          }
        }
      } else {
        const WritePolicy wp = a.space == ir::Space::Local ? l1.localWrite : l1.globalWrite;
        // A write-through store of a whole global line goes to the store listener, which may
        // hold it (to compress it) before it leaves.
        la.deferWrite = storeListener_ != nullptr && a.space == ir::Space::Global &&
                        a.sectors == l1_.allSectors() && wp != WritePolicy::WriteBackAllocate &&
                        !heldStores_.full();
        if (l1_.store(la, wp, now) == AccessResult::Stalled) return false;
        if (la.deferWrite) {
          const uint32_t ticket = heldStores_.reserve({la.line, la.sectors, la.bytes, la.origin, 0});
          if (!storeListener_->holdStore(la.line, la.origin.warpSlot, ticket, now))
            heldStores_.release(ticket, 0, la.bytes);
        }
        completeAccess(a.slot, now + 1);
      }
      break;
    }
    case Kind::Atomic:
    case Kind::Reduction: {
      if (port_.room() == 0) {
        port_.noteStall();
        return false;
      }
      const bool reduction = a.kind == Kind::Reduction;
      port_.send(reduction ? PacketKind::Reduction : PacketKind::Atomic, a.line, a.sectors, a.value,
                 reduction ? ReplyTo::None : ReplyTo::Slot, a.slot, originOf(a), a.atomicOps);
      ++l1_.stats().atomics;
      if (reduction) completeAccess(a.slot, now + 1);
      break;
    }
    case Kind::Const: {
      const AccessResult r = const_.load(a.line, a.slot, originOf(a), now);
      if (r == AccessResult::Stalled) return false;
      if (r == AccessResult::Done) completeAccess(a.slot, now + params_.constant.hitLatency);
      break;
    }
    case Kind::Fixed:
      completeAccess(a.slot, now + a.value);
      break;
    case Kind::Fence:
      // Stores still held count as sent before the fence (they are sent before it completes).
      if (storesPending() == 0 && writesAcked_ >= port_.writesSent()) {
        completeAccess(a.slot, now + 1);
      } else {
        fences_.push_back(FenceWait{a.slot, port_.writesSent() + storesPending()});
      }
      break;
    case Kind::Writeback: {
      if (port_.room() == 0) {
        port_.noteStall();
        return false;
      }
      RequestOrigin o;
      o.space = ir::Space::Local;
      port_.send(PacketKind::Writeback, a.line, a.sectors,
                 static_cast<uint32_t>(std::popcount(a.sectors)) * params_.l1.cache.sectorBytes,
                 ReplyTo::None, 0, o);
      break;
    }
  }
  portFree_ = now + busy;
  return true;
}

bool SmMemoryUnit::popCompleted(uint32_t& token) {
  if (completed_.empty()) return false;
  const uint32_t slot = completed_.front();
  completed_.pop();
  token = slots_[slot].token;
  freeSlots_.push_back(static_cast<uint16_t>(slot));
  return true;
}

bool SmMemoryUnit::hasInstructions() const { return freeSlots_.size() != kMaxSlots; }

void SmMemoryUnit::takeRepliesWhileEmpty() {
  while (!hasInstructions() && wiring_.replies->hasPacket(wiring_.sm)) takeReply(lastCycle_);
}

bool SmMemoryUnit::idle() const {
  // No instruction in flight, no reply on its way (MSHR fills, acknowledgements, prefetches),
  // no write-back waiting, no reply or store held for a listener.
  return freeSlots_.size() == kMaxSlots && port_.awaited() == 0 && side_.empty() &&
         heldReplies_.live() == 0 && storesPending() == 0;
}

Cycle SmMemoryUnit::nextEvent(Cycle now) const {
  if (!completed_.empty() || wiring_.replies->hasPacket(wiring_.sm) ||
      heldStores_.waitingForPort() || !refused_.empty())
    return now;
  Cycle next = kNever;
  if (!side_.empty() || !queue_.empty()) next = std::max(now, portFree_);
  if (!due_.empty()) next = std::min(next, std::max(now, due_.front().at));
  next = std::min(next, std::max(now, const_.nextEvent()));
  return next;
}

void SmMemoryUnit::resetStats() {
  l1_.stats() = CacheStats{};
  l1_.resetFootprint();
  const_.stats() = ConstStats{};
  sharedStats_ = SharedStats{};
  storageBankStats_ = StorageBankStats{};
}

void SmMemoryUnit::beginLaunch(const hints::LaunchHints* hints, const uint32_t grid[3],
                               Cycle now) {
  CacheLaunch launch;
  launch.hints = hints;
  for (int d = 0; d < 3; ++d) launch.grid[d] = grid[d];
  launch.numSms = params_.numSms;
  launch.capacityBytes = l1_.capacity();
  launch.levelCapacityBytes = launch.capacityBytes;
  policy_->beginLaunch(launch);
  l1_.setUnpinPeriod(policy_->unpinPeriod(), now);
}

void SmMemoryUnit::beginKernel() {
  l1_.invalidateAll();
  const_.invalidateAll();
  policy_->beginKernel();
  localPath_->beginKernel();
  resetStats();
}

}  // namespace warpsim::timing::mem
