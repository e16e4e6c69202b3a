// Zorua's per-SM coordinator (thesis chapter 4, §4.3–4.4): it allocates warp slots, scratchpad
// and registers per warp at phase boundaries, decides oversubscription, and splits the warps
// the SM holds into schedulable and pending ones.
//
// Every pending warp waits in the queue of the first resource it lacks, in the order warp slot
// (the thread/barrier queue), scratchpad, registers; it is granted everything it lacks at once,
// or nothing (deadlock avoidance 1). TryAdmitAll runs at every event and looks at the register
// queue first, then the scratchpad queue, then the thread queue (warps that already hold more
// go first: deadlock avoidance 2), each in arrival order. A resource that is short can be
// oversubscribed: the shortfall goes to swap space, taken from the on-chip sets of others that
// were used least (LFU), while the sets in swap stay within the resource's threshold
// (ThresholdController); when fewer than min_parallelism of the warp slots hold schedulable
// warps, it oversubscribes regardless of the threshold (deadlock avoidance 3).
//
// What stays on chip and what goes (README.md, "Decisions"):
//  * register sets are tracked per warp (valid bit per logical set); a warp whose next
//    instruction touches a set in swap waits while it is filled (the SM asks through
//    accessOffChip), evicting the least-used on-chip set of another warp if none is free;
//  * scratchpad sets are taken only from CTAs none of whose warps is schedulable, and come back
//    before one of them is;
//  * a warp waiting at a barrier keeps its slot but is the first victim when a warp needs one;
//    a warp whose state was saved is restored before it is schedulable again.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "mech/zorua/swap_path.h"
#include "mech/zorua/threshold_controller.h"
#include "timing/i_resource_manager.h"
#include "timing/instruction_annotations.h"
#include "timing/kernel_resources.h"

namespace warpsim::mech::zorua {

using timing::KernelResources;
using timing::kRegistersPerSet;
using timing::ResourcePhase;
using timing::WarpGate;

enum class Resource : uint8_t { WarpSlots, Scratchpad, Registers };
inline constexpr unsigned kNumResources = 3;
const char* resourceName(Resource r);

struct CoordinatorParams {
  uint32_t warpSlots = 48;           // physical warp slots
  uint32_t registerSets = 256;       // physical sets of kRegistersPerSet warp-registers
  uint32_t scratchpadSets = 48;      // physical scratchpad sets
  uint32_t scratchpadSetBytes = 1024;
  uint32_t logicalWarps = 64;        // warps the SM holds (mapping-table entries)
  uint32_t logicalCtas = 16;
  bool oversubscribe = true;         // false: only the min_parallelism rule swaps
  bool specifierIssueSlot = true;    // a phase specifier takes an issue slot of its warp
  double minParallelism = 0.2;       // of the physical warp slots
  ThresholdParams threshold;
};

class Coordinator {
 public:
  Coordinator(const CoordinatorParams& params, WarpGate& gate, SwapPath& swap);

  void beginKernel(const KernelResources& kernel, Cycle now);
  // Whether one more CTA of `warps` warps fits in the logical CTA and warp contexts.
  bool canAdmitCta(uint32_t warps) const;
  void ctaArrive(uint32_t ctaLinear, uint32_t warps);
  void ctaEnd(uint32_t ctaLinear, Cycle now);

  // Events from the SM (i_resource_manager.h).
  void warpStart(uint32_t slot, uint32_t ctaLinear, const ResourcePhase* phase, Cycle now);
  void phaseChange(uint32_t slot, const ResourcePhase& phase, Cycle now);
  void barrierWait(uint32_t slot, Cycle now);
  void barrierRelease(uint32_t slot, Cycle now);
  void warpExit(uint32_t slot, Cycle now);
  // The warp's next instruction touches register sets `sets` (some in swap): fill them.
  void accessOffChip(uint32_t slot, uint64_t sets, Cycle now);
  // Register sets the warp's issued instruction touched (access counters).
  void countAccess(uint32_t slot, uint64_t sets);
  void tick(Cycle now);

  // Completions from the swap path.
  void registersFilled(uint32_t slot, uint64_t sets, Cycle now);
  void sharedFilled(uint32_t cta, Cycle now);
  void warpRestored(uint32_t slot, Cycle now);

  // Inspection (tests, statistics).
  uint32_t physicalFree(Resource r) const { return free_[static_cast<unsigned>(r)]; }
  uint32_t swapUsed(Resource r) const { return swapped_[static_cast<unsigned>(r)]; }
  uint32_t threshold(Resource r) const { return thresholds_[static_cast<unsigned>(r)].threshold(); }
  bool schedulable(uint32_t slot) const { return warps_[slot].schedulable; }
  // Schedulable warps not waiting at a barrier (the minimum-parallelism rule's count).
  uint32_t schedulableWarps() const { return schedulable_; }
  uint64_t offChipSets(uint32_t slot) const { return warps_[slot].swappedSets; }
  // Changes whenever the slot (or the CTA entry) gets a new warp (CTA): completions of moves
  // made for an earlier one are ignored.
  uint32_t warpGeneration(uint32_t slot) const { return warps_[slot].generation; }
  uint32_t ctaGeneration(uint32_t cta) const { return ctas_[cta].generation; }
  uint32_t ctaLinear(uint32_t cta) const { return ctas_[cta].ctaLinear; }
  void reportStats(nlohmann::json& out) const;

  // The queues, in the order warps traverse them.
  enum class Queue : uint8_t { None, Thread, Scratchpad, Registers };

 private:
  static constexpr auto kSlots = static_cast<unsigned>(Resource::WarpSlots);
  static constexpr auto kShared = static_cast<unsigned>(Resource::Scratchpad);
  static constexpr auto kRegs = static_cast<unsigned>(Resource::Registers);
  static constexpr uint32_t kNoCta = UINT32_MAX;

  struct Warp {
    bool live = false, exited = false, atBarrier = false, schedulable = false;
    bool slot = false;          // holds a warp slot (on chip, or its state saved)
    bool slotSaved = false;     // its state is in swap space
    bool restoring = false;     // its state is on its way back
    uint32_t cta = 0;
    uint64_t needSets = 0;      // register sets its phase uses
    uint64_t sets = 0;          // allocated (on chip or in swap)
    uint64_t swappedSets = 0;   // of those, in swap
    uint64_t filling = 0;       // of those, on their way back
    uint64_t pinned = 0;        // filled, not used since: not a victim yet
    uint32_t needShared = 0;    // scratchpad sets its phase needs for its CTA
    Queue queue = Queue::None;
    uint64_t ticket = 0;        // arrival order in its queue
    uint32_t generation = 0;
    uint32_t issues = 0;        // accesses this epoch and before (halved each epoch): LFU
    std::array<uint32_t, 64> setUses{};  // per register set, likewise
  };
  struct Cta {
    bool live = false;
    uint32_t ctaLinear = 0;
    uint32_t warps = 0;
    uint32_t shared = 0;        // scratchpad sets allocated
    uint32_t sharedSwapped = 0; // of those, in swap (the last ones)
    bool sharedFilling = false;
    uint32_t uses = 0;          // issues of its warps (LFU of its sets)
    uint32_t generation = 0;
  };

  void enqueue(uint32_t slot);
  // A warp whose wait may be over: schedulable when it has everything, else queued for what
  // it lacks (nothing when it only waits for data on its way).
  void settle(uint32_t slot);
  void setSchedulable(uint32_t slot, bool on);
  void tryAdmitAll(Cycle now);
  bool tryGrant(uint32_t slot, Cycle now);
  bool mayOversubscribe(Resource r, uint32_t extra, bool forced) const;
  // Victims: on-chip units others hold that could go to swap now.
  uint32_t registerVictims(uint32_t exceptSlot) const;
  uint32_t scratchpadVictims(uint32_t exceptCta) const;
  uint32_t slotVictims(uint32_t exceptSlot, bool atBarrierOnly) const;
  void evictRegisters(uint32_t count, uint32_t exceptSlot, Cycle now);
  void evictScratchpad(uint32_t count, uint32_t exceptCta, Cycle now);
  void evictSlot(uint32_t exceptSlot, Cycle now);
  void releaseSets(uint32_t slot, uint64_t sets);
  void shrinkShared(uint32_t cta);
  bool ctaHasSchedulable(uint32_t cta) const;
  uint32_t ctaIndex(uint32_t ctaLinear) const;
  uint32_t sharedSetsOf(const ResourcePhase& phase) const;
  bool ready(const Warp& w) const;

  CoordinatorParams params_;
  WarpGate* gate_;
  SwapPath* swap_;
  KernelResources kernel_;
  uint64_t kernelSets_ = 0;       // register sets when the program has no phase table
  uint32_t kernelShared_ = 0;
  uint32_t minSchedulable_ = 0;
  std::vector<Warp> warps_;
  std::vector<Cta> ctas_;
  std::array<std::vector<uint32_t>, 4> queues_;  // by Queue; slots in arrival order
  uint64_t nextTicket_ = 0;
  std::array<uint32_t, kNumResources> free_{}, swapped_{}, physical_{};
  std::array<ThresholdController, kNumResources> thresholds_;
  Cycle nextEpoch_ = 0, lastTick_ = 0;
  uint32_t lastSchedulable_ = 0;
  WarpGate::IssueActivity epochStart_;
  uint32_t liveWarps_ = 0, liveCtas_ = 0;
  uint32_t generations_ = 0;
  uint32_t schedulable_ = 0;  // warps counts() holds for
  static uint32_t counts(const Warp& w);

  // Counters since beginKernel.
  struct Counters {
    uint64_t phaseChanges = 0, grants = 0, forcedGrants = 0, oversubscribedGrants = 0;
    uint64_t registerSpills = 0, registerFills = 0, registerAccesses = 0, registerOffChipAccesses = 0;
    uint64_t sharedSpills = 0, sharedFills = 0;
    uint64_t warpSaves = 0, warpRestores = 0;
    uint64_t epochs = 0, cycles = 0, schedulableWarpCycles = 0;
    std::array<uint64_t, 4> queuedWarpCycles{};  // by Queue
    std::array<uint64_t, kNumResources> swapPeak{};
  } c_;
};

}  // namespace warpsim::mech::zorua
