// Extension point "resource_manager": the per-SM bookkeeping of registers, shared memory, warp
// slots and CTA slots that decides how many CTAs of a kernel can be resident at once.
//
// One instance per SM. At a kernel boundary beginKernel() receives what every CTA of the kernel
// needs; it returns an empty string, or one line saying why no CTA of this kernel can ever be
// resident (e.g. "needs 40960 registers per CTA, the SM has 32768"). The GPU asks canAdmit()
// before starting a CTA on the SM, calls admit() when it starts and release() when it retires.
// Admission must only depend on what was admitted and released (deterministic).
//
// Warp-granular managers (optional): a manager may decide per warp, as each warp's program
// moves from phase to phase (instruction_annotations.h, kResourcePhases), which warps hold what
// they need and may issue. It then says so by warpGranular(), may ask for more warp contexts
// than the SM has warp slots (warpContexts(): the SM keeps that many warps resident; the
// manager decides which of them have a physical slot), and the SM calls the warp hooks below
// and obeys the WarpGate: a warp the manager holds issues nothing (its issue slots are charged
// to "resources"). The manager sees only events (warp start, phase change, barrier wait and
// release, exit, CTA release) and one tick per simulated SM cycle for its own clocks.
//
// Baseline "static": CUDA's occupancy calculation. Registers are allocated per warp,
// ceil(regs_per_thread * 32 / unit) * unit registers with `unit` the allocation granularity, the
// register file split into warp_allocation_granularity partitions of whole warps (CUDA's
// cuda_occupancy.h);
// shared memory per CTA rounded up to its granularity; a warp slot per warp; a CTA slot per CTA;
// the per-SM thread limit.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "config/config.h"
#include "timing/instruction_annotations.h"
#include "timing/kernel_resources.h"
#include "timing/sm_memory.h"

namespace warpsim::timing {

// The per-SM occupancy of a kernel as the resource manager computes it.
// The SM's storage a manager that divides it per kernel gave the kernel (all 0: the
// configuration's fixed sizes).
struct Carveout {
  uint64_t registerBytes = 0;  // register file
  uint64_t sharedBytes = 0;    // shared memory
  uint64_t l1Bytes = 0;        // L1 data cache
  uint64_t unusedBytes = 0;    // left over (rounding, the L1's largest size)
  uint64_t totalBytes() const { return registerBytes + sharedBytes + l1Bytes + unusedBytes; }
  bool chosen() const { return totalBytes() != 0; }
};

struct Occupancy {
  uint32_t ctasPerSm = 0;       // CTAs resident at once
  uint32_t warpsPerSm = 0;      // ctasPerSm * warps per CTA
  uint32_t maxWarpsPerSm = 0;   // the SM's warp slots
  const char* limitedBy = "";   // "registers", "shared", "warps", "ctas", "threads" or a manager's own
  Carveout carveout;            // per-kernel division of the SM's storage, if the manager makes one
  double theoretical() const {
    return maxWarpsPerSm == 0 ? 0.0 : static_cast<double>(warpsPerSm) / maxWarpsPerSm;
  }
};

// The SM's side of a warp-granular manager (i_resource_manager.h): it holds or frees warps.
class WarpGate {
 public:
  virtual ~WarpGate() = default;
  // Whether warp slot `slot` may issue (a held warp keeps its state and in-flight work).
  virtual void setSchedulable(uint32_t slot, bool schedulable) = 0;
  // Register sets of the warp that are not in the register file (bit s: registers
  // kRegistersPerSet*s ..): an instruction that touches one does not issue; the SM asks the
  // manager for them (IResourceManager::onOffChipRegisters) until they are back.
  virtual void setOffChipRegisters(uint32_t slot, uint64_t sets) = 0;
  // The warp's next issue slot goes to an instruction of the manager's own (a phase
  // specifier): when its scheduler next picks it, the slot is spent and no program instruction
  // issues (counted as issued, and in sm.manager_instructions).
  virtual void spendIssueSlot(uint32_t slot) = 0;
  // Memory traffic of the manager itself (its swap space): one warp-wide access of 32 4-byte
  // words at consecutive addresses from `address` (one 128-byte line), a load or a store,
  // handed to the SM's memory pipeline in request order after the program's; the manager hears
  // IResourceManager::onDataMoved(tag) when it is done (loads: data back; stores: sent).
  virtual void moveData(uint64_t address, bool store, uint32_t tag) = 0;
  // The lane values of the warp's registers in its current frame (register r's 32 lanes at
  // [32 r, 32 r + 32)) and how many value registers come first (the hidden constant registers
  // after them are not the program's): the data a swap moves. nullptr for an exited warp.
  virtual uint64_t* warpRegisters(uint32_t slot, uint32_t* count) = 0;
  // Issue slots charged since the kernel began: to issued instructions, to warps waiting for
  // memory (loads, memory back-pressure, fences), and to no instruction ready for any other
  // reason (dependences on arithmetic, barriers, fetch, held or no warps); summed over the SM's
  // schedulers.
  struct IssueActivity {
    uint64_t issued = 0, memory = 0, idle = 0;
  };
  virtual IssueActivity issueActivity() const = 0;
  virtual uint32_t schedulerCount() const = 0;
};

class IResourceManager {
 public:
  static constexpr const char* kPoint = "resource_manager";
  struct Context {
    config::Tree* tree = nullptr;   // keys under "sm" (capacities) and "resources"
    uint32_t smId = 0;
  };
  virtual ~IResourceManager() = default;

  // Kernel boundary; nothing is resident. Returns "" or why the kernel can never run.
  virtual std::string beginKernel(const KernelResources& kernel) = 0;
  virtual bool canAdmit() const = 0;
  virtual void admit(uint32_t ctaLinear) = 0;
  virtual void release(uint32_t ctaLinear) = 0;
  virtual Occupancy occupancy() const = 0;
  // Per-kernel carveout (asked after beginKernel): the L1 data cache bytes the kernel gets on
  // this SM, for managers that divide one pool of storage between registers, shared memory and
  // the L1 per kernel; std::nullopt: the configuration's l1.size. The L1 is empty at a kernel
  // boundary, so a new capacity costs nothing to apply.
  virtual std::optional<uint64_t> l1Bytes() const { return std::nullopt; }
  // Counters since beginKernel (optional).
  virtual void reportStats(nlohmann::json& out) const {}

  // ---- warp-granular management (optional; see the top of this file) ------------------------
  virtual bool warpGranular() const { return false; }
  // Warp contexts the SM keeps (0: its warp slots, sm.max_warps). At most 64.
  virtual uint32_t warpContexts() const { return 0; }
  // The SM this manager serves; called once, before any warp hook.
  virtual void attach(WarpGate& gate) { (void)gate; }
  // Warp `slot` of CTA `ctaLinear` starts; `phase`: its first instruction's record (nullptr
  // when the program has no phase table). Every warp starts held unless the manager frees it.
  virtual void onWarpStart(uint32_t slot, uint32_t ctaLinear, const ResourcePhase* phase,
                           Cycle now) {}
  // The warp's next instruction belongs to another phase than its last one.
  virtual void onPhaseChange(uint32_t slot, const ResourcePhase& phase, Cycle now) {}
  // The warp waits at a CTA barrier / every warp of its CTA has arrived and it may go on.
  virtual void onBarrierWait(uint32_t slot, Cycle now) {}
  virtual void onBarrierRelease(uint32_t slot, Cycle now) {}
  // The warp executed its exit (its CTA retires later, through release()).
  virtual void onWarpExit(uint32_t slot, Cycle now) {}
  // The warp issued an instruction touching register sets `sets` (its ResourcePhase's
  // instructionSets).
  virtual void onRegisterAccess(uint32_t slot, uint64_t sets) {}
  // The warp's next instruction needs register sets `sets` that are off chip.
  virtual void onOffChipRegisters(uint32_t slot, uint64_t sets, Cycle now) {}
  // A WarpGate::moveData access is done.
  virtual void onDataMoved(uint32_t tag, Cycle now) {}
  // Once per cycle the SM simulates (cycles it skips are ones in which nothing happens).
  virtual void tick(Cycle now) { (void)now; }
};

}  // namespace warpsim::timing
