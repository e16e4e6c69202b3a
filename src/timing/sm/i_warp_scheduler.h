// Extension point "warp_scheduler": the policy that picks which warp a scheduler issues from.
//
// Each SM has sm.schedulers schedulers; warp slot s belongs to scheduler s % schedulers. Every
// cycle the SM calls pick() once per scheduler. The policy walks its warps in its priority order
// and asks the probe whether each can issue now (WarpProbe::check: no side effects except the
// issue-slot accounting); it returns the first that can, or kNoWarp. The SM then issues exactly
// that warp's next instruction. Policies keep their own per-warp state in fixed arrays sized by
// Context::warpSlots (pick runs every cycle: no allocation there).
//
// Configuration: [sm.warp_scheduler] impl = "<name>"; a policy reads its own keys from that
// table (Context::section).
#pragma once
#include <cstdint>
#include <limits>

#include <nlohmann/json_fwd.hpp>

#include "config/config.h"
#include "timing/instruction_annotations.h"
#include "timing/sm/stall.h"

namespace warpsim::timing {

inline constexpr uint32_t kNoWarp = std::numeric_limits<uint32_t>::max();

// The SM's view of its warps for a scheduler, valid during pick().
class WarpProbe {
 public:
  virtual ~WarpProbe() = default;
  // Stall::Issued when `slot` can issue its next instruction now; else why not.
  virtual Stall check(uint32_t slot) = 0;
  // The warp cannot continue until a long-latency event: its next instruction needs the result
  // of a cache-accessing memory instruction (global, local, constant, generic), it waits at a
  // barrier, or it waits for its memory operations to drain (fence). Used by two-level
  // scheduling to move warps out of the active set.
  virtual bool waitsOnLongLatency(uint32_t slot) const = 0;
  // Tell the register file that `slot` leaves / enters the active set (register-file caches
  // flush or allocate per-warp state).
  virtual void deschedule(uint32_t slot) = 0;
  virtual void activate(uint32_t slot) = 0;
  // The warp's next instruction (function, pc); false when its instruction buffer is empty (or
  // the probe cannot tell).
  virtual bool head(uint32_t slot, uint32_t& function, uint32_t& pc) const { return false; }
};

class IWarpScheduler {
 public:
  static constexpr const char* kPoint = "warp_scheduler";
  struct Context {
    config::Section section;   // [sm.warp_scheduler]
    uint32_t index = 0;        // which scheduler of the SM
    uint32_t warpSlots = 0;    // slots are < warpSlots
    PassRequests* passes = nullptr;  // ask here for compiler passes whose tables the policy reads
  };
  virtual ~IWarpScheduler() = default;

  // A warp starts (age: admission order, smaller is older) or has exited.
  virtual void addWarp(uint32_t slot, uint64_t age) = 0;
  virtual void removeWarp(uint32_t slot) = 0;
  // The warp to issue this cycle, or kNoWarp.
  virtual uint32_t pick(WarpProbe& probe) = 0;
  // Counters of the policy since the kernel began (e.g. deschedules); may add nothing.
  // A kernel starts; `annotations`: the per-instruction tables of the passes run before it.
  virtual void beginKernel(const InstructionAnnotations& annotations) {}
  virtual void reportStats(nlohmann::json& out) const {}
};

}  // namespace warpsim::timing
