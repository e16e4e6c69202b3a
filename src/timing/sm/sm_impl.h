// Internal state of one SM (see sm.h for the contract and README.md for the pipeline).
//
// Per cycle, in this order (each stage sees what earlier stages did in the same cycle):
//   memory completions -> unit completions (write-back requests, load/store hand-over) ->
//   register file (write ports, then operand reads) -> finished writes release the scoreboard
//   -> dispatch from ready collectors to units -> fetch -> issue (one per scheduler).
// An instruction issued in cycle t reads its operands in t+1 (or later on bank conflicts),
// dispatches in t+2 at the earliest, produces its result at dispatch + latency, and a
// dependent instruction can issue in that same cycle once the write port is granted.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "func/cta.h"
#include "func/exec_record.h"
#include "timing/i_resource_manager.h"
#include "timing/sm/decoded_program.h"
#include "timing/sm/i_assist_warp.h"
#include "timing/sm/i_register_file.h"
#include "timing/sm/i_warp_scheduler.h"
#include "timing/sm/instruction_cache.h"
#include "timing/sm/scoreboard.h"
#include "timing/sm/sm.h"
#include "timing/sm/sm_params.h"
#include "timing/sm/stall.h"
#include "timing/storage_banks.h"

namespace warpsim::timing {

inline constexpr uint32_t kNone = UINT32_MAX;
inline constexpr uint32_t kMaxIbuffer = 8;

struct WarpSlot {
  func::Warp* warp = nullptr;
  uint32_t cta = 0;             // index into Sm::Impl::ctas
  uint32_t scheduler = 0;
  uint32_t partition = 0;       // register banks, collectors, units
  bool live = false;            // the slot is occupied
  bool exited = false;          // the program is done; the slot drains its instructions
  bool atBarrier = false;       // mirrors warp->waitingAtBarrier() (kept here: the warp
                                // object is cold; refreshed when a barrier may complete)
  uint32_t inflight = 0;        // issued instructions not finished
  uint32_t outstandingMem = 0;  // memory instructions not finished
  uint32_t phase = 0;           // resource phase of its last instruction (warp-granular manager)
  uint8_t managerIssues = 0;    // issue slots owed to the manager's instructions (specifiers)
  // Instruction buffer: pcs of function `fn` from ibPc[ibHead], each issuable from ibReady.
  uint32_t fn = 0;
  uint32_t fetchPc = 0;         // next pc to fetch
  uint8_t ibHead = 0, ibCount = 0;
  uint32_t ibPc[kMaxIbuffer] = {};
  Cycle ibReady[kMaxIbuffer] = {};
};

struct CtaEntry {
  func::Cta* cta = nullptr;
  uint32_t liveSlots = 0;
};

// An issued instruction until it finishes (result written, or store/fence done).
struct InFlight {
  const DecodedInstr* decoded = nullptr;  // nullptr for assist instructions
  const ir::Instr* instr = nullptr;
  const uint64_t* values[4] = {};
  uint64_t seq = 0;                       // issue order
  uint32_t slot = 0;
  uint32_t execMask = 0;
  uint32_t record = kNone;                // memory record until hand-over
  uint32_t assistTag = 0;
  uint32_t function = 0, pc = 0;          // the instruction (annotation look-ups)
  uint8_t numDst = 0;
  uint32_t dst[4] = {};
  UnitClass unit = UnitClass::Alu;
  bool assist = false;
};

// One unit class in one partition: instances and the in-flight pipeline (completions are in
// dispatch order because every instance of a class has the same latency).
struct UnitGroup {
  uint32_t instances = 0, latency = 1, interval = 1;
  std::vector<Cycle> nextFree;      // per instance
  struct Slot {
    uint32_t id;
    Cycle done;
  };
  std::vector<Slot> ring;
  uint32_t head = 0, count = 0;
  uint32_t waiting = 0;             // issued, not yet dispatched (in collectors)
  bool full() const { return count == ring.size(); }
  const Slot& front() const { return ring[head]; }
  void pop() {
    head = head + 1 == ring.size() ? 0 : head + 1;
    --count;
  }
  void push(uint32_t id, Cycle done) {
    uint32_t tail = head + count;
    if (tail >= ring.size()) tail -= static_cast<uint32_t>(ring.size());
    ring[tail] = {id, done};
    ++count;
  }
};

struct Sm::Impl final : WarpProbe, WarpGate {
  Impl(const SmContext& context);

  // ---- stages (sm_backend.cpp, sm_frontend.cpp, sm_issue.cpp) --------------------------------
  void cycle(Cycle now);
  void memoryCompletions(Cycle now);
  void unitCompletions(Cycle now);
  void writeBack(uint32_t id, Cycle now);
  void finish(uint32_t id, Cycle now);
  void dispatch(Cycle now);
  void fetch(Cycle now);
  void fetchWarp(uint32_t slot, Cycle now);
  void flushIbuffer(WarpSlot& w);
  void updateFetchNeed(uint32_t slot);
  void issueStage(Cycle now);
  void issueWarp(uint32_t slot, Cycle now);
  // Marks a memory record with its warp slot and copies the data of a local store.
  void keepLocalStoreData(uint32_t recordIndex, uint32_t slot);
  bool assistResources(const AssistInstr& a, Stall* why) const;
  void issueAssist(const AssistInstr& a, Cycle now);
  uint32_t allocInflight();
  void freeSlot(uint32_t slot);
  void refreshBarrierWaits(uint32_t cta);
  Cycle computeWake(Cycle now) const;

  // ---- WarpProbe -----------------------------------------------------------------------------
  Stall check(uint32_t slot) override;
  bool waitsOnLongLatency(uint32_t slot) const override;
  void deschedule(uint32_t slot) override;
  void activate(uint32_t slot) override;
  bool head(uint32_t slot, uint32_t& function, uint32_t& pc) const override;
  Stall stallOf(uint32_t slot, bool* stable = nullptr) const;
  Stall resourceStall(uint32_t partition, UnitClass unit) const;
  Stall hazardOf(uint32_t slot, const WarpSlot& w, const DecodedInstr& d, bool* longLatency) const;
  uint64_t liveMask() const { return params.maxWarps == 64 ? ~uint64_t{0} : (uint64_t{1} << params.maxWarps) - 1; }
  const DecodedInstr* head(const WarpSlot& w) const {
    return w.ibCount == 0 ? nullptr : &decoded.at(w.fn, w.ibPc[w.ibHead]);
  }

  // ---- WarpGate (the warp-granular resource manager's side) --------------------------------
  void setSchedulable(uint32_t slot, bool schedulable) override;
  void setOffChipRegisters(uint32_t slot, uint64_t sets) override;
  void spendIssueSlot(uint32_t slot) override;
  // Stall::Resources when the warp's next instruction touches an off-chip register set (and
  // the manager has been asked for it), else Stall::Issued.
  Stall offChipStall(uint32_t slot);
  void moveData(uint64_t address, bool store, uint32_t tag) override;
  uint64_t* warpRegisters(uint32_t slot, uint32_t* count) override;
  // Hands the manager's queued accesses to the memory pipeline (sm_manager_traffic.cpp).
  void managerTraffic(Cycle t);
  bool managerTrafficIdle() const { return managerHead == managerQueue.size() && managerInFlight == 0; }
  IssueActivity issueActivity() const override;
  uint32_t schedulerCount() const override { return params.schedulers; }
  // The warp's next instruction is in another resource phase: tell the manager.
  void notePhase(uint32_t slot);

  // ---- accounting (sm_stats.cpp) -------------------------------------------------------------
  void accountUntil(Cycle end);
  void resetCounters();
  void reportStats(nlohmann::json& out) const;
  std::string describeWarps() const;
  std::string describeSlot(uint32_t slot) const;

  // ---- configuration and plug-ins -----------------------------------------------------------
  uint32_t id;
  SmParams params;
  SmMemory* memory;
  MemorySystem* system;  // where issued atom operations go (nullptr: nowhere)
  PassRequests passRequests;  // filled by the models' constructors
  InstructionAnnotations noAnnotations;  // what models see when a kernel comes without tables
  // Banks the register file shares with the memory data path (nullptr: its own).
  std::unique_ptr<StorageBanks> storageBanks;
  std::unique_ptr<IRegisterFile> rf;
  std::vector<std::unique_ptr<IWarpScheduler>> schedulers;
  std::unique_ptr<IAssistWarp> assist;
  bool assistActive = false;
  SmTrace* trace = nullptr;
  // Warp-granular resource manager (nullptr: CTAs hold their resources whole) and the phase
  // table of the kernel's program it reads (nullptr: none).
  IResourceManager* manager = nullptr;
  const AnnotationTable<ResourcePhase>* phases = nullptr;
  uint64_t held = 0;                    // warps the manager holds
  uint64_t offChipSlots = 0;            // warps with register sets off chip
  std::vector<uint64_t> offChip;        // per slot: its off-chip register sets
  // The manager's memory accesses: queued (from managerHead on), then in the memory pipeline
  // under tokens kManagerToken | i (managerTags[i] is the manager's tag).
  struct ManagerAccess {
    uint64_t address;
    uint32_t tag;
    bool store;
  };
  static constexpr uint32_t kManagerToken = 0x80000000u;
  std::vector<ManagerAccess> managerQueue;
  size_t managerHead = 0;
  uint32_t managerInFlight = 0;
  std::vector<uint32_t> managerTags, freeManagerTokens;
  ir::Instr managerLoad, managerStore;
  func::ExecRecord managerRecord;

  // ---- kernel --------------------------------------------------------------------------------
  func::GridContext* grid = nullptr;
  const func::Program* program = nullptr;
  DecodedProgram decoded;
  InstructionCache icache;

  // ---- warps ---------------------------------------------------------------------------------
  std::vector<WarpSlot> slots;
  std::vector<CtaEntry> ctas;
  uint64_t freeSlots = 0;               // bit per warp slot
  uint64_t needFetch = 0;               // live warps with room in their instruction buffer
  std::vector<uint64_t> schedulerMask;  // warp slots of each scheduler
  std::vector<uint32_t> fetchNext;      // round-robin fetch position per scheduler
  uint32_t residentCtas = 0;
  uint64_t nextAge = 0;
  std::vector<func::Cta*> retired;
  size_t retiredHead = 0;
  Scoreboard scoreboard;

  // ---- pipeline ------------------------------------------------------------------------------
  std::vector<UnitGroup> groups;        // [partition * kNumUnitClasses + class]
  std::vector<InFlight> inflight;
  std::vector<uint32_t> freeInflight;
  std::vector<uint32_t> collectorOwner; // collector -> in-flight id
  std::vector<func::ExecRecord> memRecords;
  // Per memRecords entry: the data of a local store, copied at issue, because the store's
  // registers may be rewritten before the memory pipeline takes the instruction (a local-memory
  // path that models data reads it there).
  std::vector<std::array<uint64_t, 4 * 32>> storeCopies;
  std::vector<uint32_t> freeRecords;
  func::ExecRecord scratch;
  uint64_t seq = 0;
  bool lsuBlocked = false;              // a memory instruction waits for the memory pipeline
  bool progress = false;                // something changed this cycle
  Cycle now = 0;
  Cycle nextWake = kNever;
  std::string error;

  // ---- probe state (current scheduler) -------------------------------------------------------
  Stall best = Stall::Empty;
  struct Hazard {
    Stall stall;
    bool longLatency;
  };
  mutable std::vector<Hazard> hazard;   // per slot, valid where hazardValid has its bit
  mutable uint64_t hazardValid = 0;
  uint64_t blocked = 0;                 // slots whose last check result still holds
  std::vector<Stall> blockedReason;     // that result, per slot
  uint64_t unblocked = 0;               // slots whose next instruction only needs resources
  std::vector<UnitClass> readyUnit;     // its unit, per slot
  std::vector<uint8_t> slotPartition;   // partition of each slot

  // ---- counters ------------------------------------------------------------------------------
  Cycle accounted = kNever;             // cycles before this are accounted
  std::vector<Stall> lastReason;        // per scheduler, for cycles skipped after it
  uint32_t lastResidentWarps = 0;
  uint64_t issueCounts[kNumStalls] = {};
  uint64_t unitLaneOps[kNumUnitClasses] = {};       // lanes that executed, counted at dispatch
  uint64_t unitGatedLaneOps[kNumUnitClasses] = {};  // active lanes the register file gated
  uint64_t warpInstructions = 0, threadInstructions = 0, activeCycles = 0, residentWarpCycles = 0,
           barrierWaits = 0, assistInstructions = 0, managerInstructions = 0;
};

UnitGroup& groupOf(Sm::Impl& sm, uint32_t partition, UnitClass unit);

}  // namespace warpsim::timing
