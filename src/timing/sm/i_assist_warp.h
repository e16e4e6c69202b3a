// Extension point "assist_warp": extra, non-program instructions issued into an SM's pipeline
// (CABA assist warps: decompression on fills at high priority, compression on stores at low
// priority, memoization, prefetching).
//
// The issue stage asks the model once per scheduler per cycle:
//   1. next(scheduler, High, ...) before the program warps: an instruction returned here takes
//      the issue slot when a collector and its unit are free (the program warps of that
//      scheduler wait that cycle); blocksWarp(slot) keeps the parent warp from issuing while
//      its high-priority assist work is pending;
//   2. next(scheduler, Low, ...) only when no program warp could issue (idle slot).
// An issued instruction goes through operand collection (its registers are read from the
// parent warp's banks), its execution unit and write-back like a program instruction, except
// that lsu instructions occupy the load/store unit but do not enter the memory pipeline (a model
// that moves data does so through its memory-side extension points). onIssued() and
// onCompleted() (after write-back) let the model track its own dependences: it should offer an
// instruction only when that instruction's inputs are ready.
//
// A model that works on data the memory pipeline brings (decompressing lines) registers itself
// with the SM's memory pipeline (Context::memory, SmMemory::setReplyListener) and releases what
// it holds there when its routines are done. The core's assist warp controller
// (timing/sm/assist/) provides the routine store, the table, the buffer and the priority rule
// such a model needs.
//
// The baseline "none" reports active() == false and the SM then never calls it (zero cost).
// Configuration: [sm.assist_warp] impl = "<name>".
#pragma once
#include <cstdint>

#include <nlohmann/json_fwd.hpp>

#include "config/config.h"

namespace warpsim::func {
class DeviceMemory;
}
#include "timing/sm/unit_class.h"
#include "timing/sm_memory.h"

namespace warpsim::timing {

struct AssistInstr {
  UnitClass unit = UnitClass::Alu;
  uint32_t parentSlot = 0;     // warp slot whose registers (banks) the instruction uses; it
                               // must belong to the asking scheduler
  uint32_t activeMask = 0xFFFFFFFFu;
  uint8_t numSrc = 0, numDst = 0;
  uint32_t srcRegs[3] = {};    // register ids in the parent's register space (bank mapping)
  uint32_t dstRegs[2] = {};
  uint32_t tag = 0;            // the model's own id, returned by onCompleted
};

class IAssistWarp {
 public:
  static constexpr const char* kPoint = "assist_warp";
  enum class Priority : uint8_t { High, Low };
  struct Context {
    config::Section section;   // [sm.assist_warp]
    uint32_t smId = 0;
    uint32_t schedulers = 0;
    uint32_t warpSlots = 0;
    config::Tree* tree = nullptr;   // the whole configuration (keys a mechanism shares)
    SmMemory* memory = nullptr;     // the SM's memory pipeline
  };
  // What a model learns at a kernel boundary.
  struct KernelInfo {
    uint32_t valueRegisters = 0;  // register ids of the kernel's program are below it
    const func::DeviceMemory* memory = nullptr;  // the data (functional state)
  };
  virtual ~IAssistWarp() = default;

  // false: never called again (the SM skips every hook).
  virtual bool active() const = 0;
  virtual void beginKernel(const KernelInfo& kernel) {}
  // Registers per thread the model's routines add to every CTA's requirement (occupancy).
  virtual uint32_t extraRegistersPerThread() const { return 0; }
  // The next instruction of `priority` the model wants issued by `scheduler` now; false: none.
  // Not yet issued: the SM calls onIssued when it is.
  virtual bool next(uint32_t scheduler, Priority priority, Cycle now, AssistInstr& out) = 0;
  virtual void onIssued(const AssistInstr& instr, Cycle now) = 0;
  virtual void onCompleted(uint32_t tag, Cycle now) = 0;
  // Whether the program instructions of warp `slot` must wait (high-priority work pending).
  virtual bool blocksWarp(uint32_t slot) const = 0;
  // Earliest cycle >= now when the model may offer an instruction without a pipeline event
  // (kNever: only after onCompleted or another hook).
  virtual Cycle nextEvent(Cycle now) const = 0;
  virtual void reportStats(nlohmann::json& out) const {}
};

}  // namespace warpsim::timing
