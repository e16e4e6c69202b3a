// Extension point "register_file": the main register file, its operand collectors and its write
// ports, as seen by the SM pipeline.
//
// Life of an instruction's operands:
//   issue      canAllocate(partition) / allocate(read, now) -> collector id
//   collect    cycle(now) arbitrates bank read ports among the collectors' pending reads
//   dispatch   ready(partition, now) lists collectors whose operands are all read; the SM moves
//              one to an execution unit and calls release(collector)
//   write-back write(w, now) when a result is produced (unit latency over, or memory data back);
//              cycle(now) arbitrates bank write ports; popWritten() returns the tag once every
//              destination register is written, and only then do dependent instructions see it
// Timing contract: a collector allocated in cycle t reads in cycle t+1 at the earliest and is
// ready at the earliest in t+2 (the cycle after its last read); a write submitted in cycle t
// can be written (popWritten) in the same cycle t, when cycle(t) runs after it.
//
// Partitions: with sm.sub_cores each scheduler owns partition `scheduler` (its own banks and
// collectors); without, there is one partition. Collector ids are global: partition p owns
// [p * collectorsPerPartition(), (p + 1) * collectorsPerPartition()), and bit i of ready(p)
// is collector p * collectorsPerPartition() + i.
//
// What the model sees is enough for value- and hierarchy-aware mechanisms: reads carry the
// executed record (instruction, masks; register values readable from the record's
// destinations' storage), writes carry the lane values and the active mask; warps entering and
// leaving the two-level scheduler's active set are announced; latency may be added by holding
// collectors or writes longer. Models count their own events for the energy model. A model that
// needs compiler information per instruction asks for its pass through Context::passes and
// reads the pass's table (KernelInfo::annotations) by the record's or write's (function, pc).
//
// Execution width: a model that knows, from its operands, that fewer lanes need to execute
// (scalar execution of an instruction whose sources are equal in every lane) says so through
// executionWidth(collector), asked once when the collector dispatches: the SM then counts that
// many lane operations for the unit (the others are clock-gated) and, if the model asks, keeps
// the unit busy for fewer cycles or adds pipelined latency. The baseline executes every active
// lane.
//
// Configuration: [sm.register_file] impl = "<name>" plus the model's keys.
#pragma once
#include <cstdint>

#include <nlohmann/json_fwd.hpp>

#include "config/config.h"
#include "func/exec_record.h"
#include "timing/instruction_annotations.h"
#include "timing/sm/unit_class.h"
#include "timing/sm_memory.h"

namespace warpsim::timing {

class StorageBanks;

// One instruction's operand collection.
struct RegisterRead {
  uint32_t warpSlot = 0;
  uint32_t partition = 0;
  uint8_t numSrc = 0;
  uint32_t srcRegs[6] = {};           // distinct value registers of the warp's current frame
  uint8_t wideMask = 0;               // bit i: srcRegs[i] holds 64 bits (a register pair)
  uint32_t activeMask = 0;            // lanes that execute (issue mask & guard)
  UnitClass unit = UnitClass::Alu;
  // The executed instruction (nullptr for assist-warp instructions); valid during the call.
  const func::ExecRecord* record = nullptr;
};

// One instruction's result write.
struct RegisterWrite {
  uint32_t tag = 0;                   // returned by popWritten
  uint32_t warpSlot = 0;
  uint32_t partition = 0;
  uint8_t numDst = 0;
  uint32_t dstRegs[4] = {};
  // values[i][lane]: lane values of dstRegs[i] as written (valid until popWritten returns the
  // tag; nullptr for assist-warp writes).
  const uint64_t* values[4] = {};
  uint8_t wideMask = 0;               // bit i: dstRegs[i] holds 64 bits (a register pair)
  uint32_t activeMask = 0;            // lanes written
  bool longLatency = false;           // result of a cache-accessing memory instruction
  UnitClass unit = UnitClass::Alu;
  const ir::Instr* instr = nullptr;   // nullptr for assist-warp writes
  uint32_t function = 0, pc = 0;      // the instruction (annotation look-ups); unset for assist writes
};

// How an instruction executes (executionWidth): `lanes` lanes of its unit do the work (at most
// the active lanes; kAllActive: every active lane); `interval` > 0 replaces the unit's
// initiation interval for this instruction (0: the unit's own); `extraLatency` cycles are added
// to the unit's latency (pipelined stages the model adds, e.g. decompressing operands: they
// lengthen dependences without holding the collector; keep it the same for every instruction of
// a unit class, whose results leave in dispatch order).
struct ExecutionWidth {
  static constexpr uint32_t kAllActive = UINT32_MAX;
  uint32_t lanes = kAllActive;
  uint32_t interval = 0;
  uint32_t extraLatency = 0;
};

class IRegisterFile {
 public:
  static constexpr const char* kPoint = "register_file";
  struct Context {
    config::Section section;   // [sm.register_file]
    uint32_t smId = 0;
    uint32_t warpSlots = 0;
    uint32_t partitions = 1;   // sm.schedulers with sub-cores, else 1
    PassRequests* passes = nullptr;  // ask here for the compiler passes whose tables the model reads
    // Banks shared with shared memory and the L1 data (nullptr: the register file has its own):
    // the model claims the ports it uses each cycle (BankPorts::shareBanks does it).
    StorageBanks* storageBanks = nullptr;
  };
  // What a model learns at a kernel boundary.
  struct KernelInfo {
    // The largest register frame of the kernel's program: register ids of reads and writes are
    // below it.
    uint32_t valueRegisters = 0;
    // Per-instruction tables of the passes run before the launch (never nullptr).
    const InstructionAnnotations* annotations = nullptr;
  };
  virtual ~IRegisterFile() = default;

  // A kernel starts.
  virtual void beginKernel(const KernelInfo& kernel) {}
  // Collectors per partition (at most 64).
  virtual uint32_t collectorsPerPartition() const = 0;
  virtual bool canAllocate(uint32_t partition) const = 0;
  virtual uint32_t allocate(const RegisterRead& read, Cycle now) = 0;
  // Collectors of `partition` ready to dispatch at `now` (bit i: see above).
  virtual uint64_t ready(uint32_t partition, Cycle now) const = 0;
  virtual void release(uint32_t collector) = 0;
  // Asked once per dispatched collector, before release().
  virtual ExecutionWidth executionWidth(uint32_t collector) const { return {}; }
  virtual void write(const RegisterWrite& write, Cycle now) = 0;
  virtual bool popWritten(uint32_t& tag) = 0;
  // Read and write port arbitration of cycle `now`.
  virtual void cycle(Cycle now) = 0;
  // Earliest cycle >= now when cycle() may change something (kNever when nothing is pending).
  virtual Cycle nextEvent(Cycle now) const = 0;

  // Warp slot life cycle and two-level scheduling.
  virtual void onWarpStart(uint32_t slot) {}
  virtual void onWarpExit(uint32_t slot) {}
  virtual void onWarpDescheduled(uint32_t slot, Cycle now) {}
  virtual void onWarpActivated(uint32_t slot, Cycle now) {}

  // Fills the "register_file" object: at least bank_reads, bank_writes, bank_conflicts,
  // collector_allocations, conflicted_collectors (collectors whose reads waited at least once
  // for a bank).
  virtual void reportStats(nlohmann::json& out) const = 0;
};

}  // namespace warpsim::timing
