// One SM's memory pipeline (the SmMemory of timing/sm_memory.h), in core cycles.
//
// accept() splits a warp memory instruction by the space of each lane and turns it into
// accesses queued in order for the LSU port:
//   shared lanes     one access of `passes x degree` bank cycles (shared_banks.h)
//   global lanes     one access per line touched (coalescer.h) for the L1D; atomics and
//                    reductions go to the L2 (they pass the L1 by)
//   local lanes      first offered to the local-memory path (i_local_memory_path.h); the rest
//                    are linearised and coalesced like global lanes and use the L1D with the
//                    local write policy
//   const lanes      ld.const and kernel parameters: one constant-cache access per distinct
//                    address
//   fences           membar/fence: wait until the write acknowledgements of every write this
//                    SM sent before it are back (bar.warp.sync needs nothing); a write the L2
//                    refuses (WriteRefused, a partial write into a line it cannot merge into)
//                    is done again whole, and fences wait for that instead
// Instructions with no executing lane, prefetches and call-frame parameter accesses (registers
// on real hardware) complete l1.hit_latency cycles after accept.
//
// Each cycle: one reply from the reply network is taken (fills the L1/constant cache or
// completes an access); the port starts the access at the head of the queue if it is free (an
// access holds it l1.access_cycles, a shared access passes x shared.pass_cycles), and a stalled
// access stays at the head; instructions whose accesses are all done complete when their last
// access's data is ready.
//
// Completion times (an access started at cycle t):
//   L1 hit                   t + l1.hit_latency
//   constant hit             t + const.hit_latency
//   shared load / atomic     t + cycles x pass_cycles - 1 + shared.latency
//   shared store             t + cycles x pass_cycles
//   store, reduction, fence  t + 1 (the request has left the SM; a fence once acknowledged)
//   miss / bypass / atomic   the cycle its reply is taken from the reply network
//   local path               t + the latency the path answered
// plus, for instructions with local lanes, the extra latency the local path asks for.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "timing/mem/coalescer.h"
#include "timing/mem/constant_cache.h"
#include "timing/mem/i_local_memory_path.h"
#include "timing/mem/held_stores.h"
#include "timing/mem/ticket_table.h"
#include "timing/mem/l1_data_cache.h"
#include "timing/mem/shared_banks.h"
#include "timing/sm_memory.h"

namespace warpsim::timing::mem {

struct SmMemoryWiring {
  uint32_t sm = 0;
  Crossbar* requests = nullptr;
  Crossbar* replies = nullptr;
  PacketPool* pool = nullptr;
  const IAddressMapping* mapping = nullptr;
  uint32_t slicesPerChannel = 1;
};

class SmMemoryUnit final : public SmMemory, private CompletionSink, private LocalPathPort {
 public:
  SmMemoryUnit(const MemoryParams& params, const SmMemoryWiring& wiring,
               std::unique_ptr<ICachePolicy> policy, std::unique_ptr<ILocalMemoryPath> localPath);
  // Plug-ins created later (they need the port this unit offers): see localPathPort().
  void setLocalPath(std::unique_ptr<ILocalMemoryPath> path) { localPath_ = std::move(path); }
  LocalPathPort& localPathPort() { return *this; }

  bool canAccept(const func::ExecRecord& record) const override;
  void accept(const func::ExecRecord& record, uint32_t token, Cycle now) override;
  void cycle(Cycle now) override;
  bool popCompleted(uint32_t& token) override;
  bool idle() const override;
  Cycle nextEvent(Cycle now) const override;
  void setL1Bytes(std::optional<uint64_t> bytes) override {
    const uint64_t target = bytes.value_or(params_.l1.cache.sizeBytes);
    if (target != l1_.capacity()) l1_.setCapacity(target);  // the same: nothing to do
  }
  uint64_t l1Capacity() const override { return l1_.capacity(); }
  void beginLaunch(const hints::LaunchHints* hints, const uint32_t grid[3], Cycle now) override;
  void shareBanks(StorageBanks* banks) override { storageBanks_ = banks; }
  void portCycle(Cycle now) override;
  void setReplyListener(ReplyListener* listener) override { listener_ = listener; }
  void releaseReply(uint32_t ticket, Cycle now) override;
  void setStoreListener(StoreListener* listener) override { storeListener_ = listener; }
  void releaseStore(uint32_t ticket, uint8_t format, uint32_t bytes, Cycle now) override;

  // Whether an accepted instruction has not been popped yet.
  bool hasInstructions() const;
  // Takes every reply waiting for this SM while it has no instruction in flight (write
  // acknowledgements, prefetch fills): nothing waits for them, so the memory system takes them
  // itself rather than leave them blocking the reply network until the SM's next cycle.
  void takeRepliesWhileEmpty();
  void beginKernel();
  L1DataCache& l1() { return l1_; }
  ConstantCache& constant() { return const_; }
  const SharedStats& sharedStats() const { return sharedStats_; }
  const StorageBankStats& storageBankStats() const { return storageBankStats_; }
  ICachePolicy& policy() { return *policy_; }
  ILocalMemoryPath& localPath() { return *localPath_; }
  void resetStats();

 private:
  enum class Kind : uint8_t {
    SharedLoad,
    SharedStore,
    Load,
    Store,
    Atomic,
    Reduction,
    Const,
    Fixed,
    Fence,
    Writeback
  };
  struct Access {
    uint64_t line = 0;
    uint32_t sectors = 0;
    uint32_t value = 0;  // bytes (stores, atomics), bank cycles (shared), latency (fixed)
    uint16_t slot = 0;
    uint16_t atomicOps = 1;
    Kind kind = Kind::Fixed;
    ir::Space space = ir::Space::Global;
    bool last = false;  // last access of its instruction
    bool uncached = false;
    uint64_t banks = 0;  // shared accesses: the storage banks their lanes touch (shareBanks)
  };
  struct Slot {
    uint32_t token = 0;
    uint32_t pending = 0;  // accesses not complete
    Cycle ready = 0;       // latest completion among its done accesses
    uint32_t pc = 0, cta = 0;
    uint32_t extra = 0;  // cycles added to its completion (local path lookup)
    uint8_t warp = 0, warpSlot = 0;
  };
  struct Due {
    Cycle at;
    uint64_t seq;
    uint32_t slot;
  };
  struct FenceWait {
    uint32_t slot;
    uint64_t writes;  // writes sent before the fence
  };

  // CompletionSink
  void completeAccess(uint32_t slot, Cycle when) override;
  void evicted(uint64_t line) override;
  // LocalPathPort
  bool writeBack(uint64_t line, uint32_t sectors) override;
  void invalidateL1(uint64_t line) override;

  uint32_t allocateSlot(const func::ExecRecord& record, uint32_t token);
  void finishAt(uint32_t slot, Cycle when);
  void push(const Access& a) { queue_.push(a); }
  // accept() helpers (sm_memory_accept.cpp); each returns the accesses it queued.
  uint32_t queueShared(const func::ExecRecord& r, uint32_t mask, uint16_t slot);
  uint32_t queueGlobal(const func::ExecRecord& r, uint32_t mask, uint16_t slot);
  uint32_t queueLocal(const func::ExecRecord& r, uint32_t mask, uint16_t slot, Cycle now);
  uint32_t queueConst(const func::ExecRecord& r, uint32_t mask, uint16_t slot);
  void queueLines(uint32_t count, Kind kind, ir::Space space, uint16_t slot, bool uncached);

  void takeReply(Cycle now);
  // A write the L2 refused (PacketKind::WriteRefused): it is done again whole (redoRefused).
  void refused(const Packet& p, Cycle now);
  void redoRefused(Cycle now);
  // Stores the SM still has to send (held, waiting for the port, or refused and to be redone).
  uint32_t storesPending() const {
    return heldStores_.pending() + static_cast<uint32_t>(refused_.size());
  }
  // Delivers a read reply's data: fills the L1 or completes the waiting access.
  void deliver(ReplyTo to, uint32_t tag, uint32_t sectors, Cycle now);
  // Starts the access at the head of the side queue or the queue when the port is free.
  void startPort(Cycle now);
  // Moves the accesses due by `now` to the completed queue.
  void completeDue(Cycle now);
  bool startAccess(const Access& a, Cycle now);  // false: stalled
  // With shared storage banks: whether a register access holds a bank `a`'s pass needs now.
  bool registersHoldBanks(const Access& a, Cycle now) const;
  RequestOrigin originOf(const Access& a) const;

  const MemoryParams params_;
  const SmMemoryWiring wiring_;
  SmPort port_;
  std::unique_ptr<ICachePolicy> policy_;
  std::unique_ptr<ILocalMemoryPath> localPath_;
  L1DataCache l1_;
  ConstantCache const_;
  SharedBanks banks_;

  std::vector<Slot> slots_;
  std::vector<uint16_t> freeSlots_;
  RingBuffer<Access> queue_;
  RingBuffer<Access> side_;  // write-backs the local path asked for
  uint32_t queuedInstructions_ = 0;
  Cycle portFree_ = 0;
  Cycle lastCycle_ = 0;   // the last core cycle seen
  std::vector<Due> due_;  // min-heap on (at, seq)
  uint64_t dueSeq_ = 0;
  RingBuffer<uint32_t> completed_;
  std::vector<FenceWait> fences_;
  uint64_t writesAcked_ = 0;

  // Scratch of accept().
  std::vector<LineRequest> lines_;
  uint64_t scratch_[32] = {};
  uint64_t offsets_[32] = {};
  std::vector<ILocalMemoryPath::Request> pathRequests_;

  SharedStats sharedStats_;
  StorageBanks* storageBanks_ = nullptr;
  StorageBankStats storageBankStats_;
  bool headWaited_ = false;  // the access at the head of the queue lost a bank to a register

  // Replies the listener holds (transformed before use), by ticket.
  struct HeldReply {
    ReplyTo to = ReplyTo::None;
    uint32_t tag = 0, sectors = 0;
    uint8_t form = 0;    // the reply's form (kept by the L1 with l1.keep_fill_form)
    uint32_t bytes = 0;  // the reply's payload
  };
  ReplyListener* listener_ = nullptr;
  TicketTable<HeldReply> heldReplies_;

  // Whole-line stores the store listener holds (compressed before they leave).
  StoreListener* storeListener_ = nullptr;
  HeldStores heldStores_;

  // Writes the L2 refused, waiting for room among the held stores to be done again whole.
  struct RefusedWrite {
    uint64_t line = 0;
    uint8_t format = 0;
    RequestOrigin origin;
  };
  std::vector<RefusedWrite> refused_;
};

}  // namespace warpsim::timing::mem
