// One streaming multiprocessor in timing mode: instruction fetch (instruction cache), per-warp
// instruction buffers, warp schedulers (optionally partitioned into sub-cores), scoreboard,
// operand collectors over a banked register file, execution units, write-back, barriers, and
// the load/store unit's hand-over to the memory pipeline (timing/sm_memory.h).
//
// Execute at issue: when a scheduler issues a warp's instruction, Warp::step() executes it in
// the functional engine; the SM only decides when instructions issue and what they cost.
//
// The GPU (timing/gpu.h) decides which CTAs run where (CTA scheduler + resource manager) and
// calls admit(); the SM runs their warps and reports retired CTAs.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "config/config.h"
#include "func/cta.h"
#include "func/grid_context.h"
#include "timing/instruction_annotations.h"
#include "timing/sm_memory.h"

namespace warpsim::timing {

class PluginRegistry;
class IResourceManager;

// Receives every issued instruction (tests, pipeline traces). Optional.
class SmTrace {
 public:
  virtual ~SmTrace() = default;
  virtual void onIssue(uint32_t sm, uint32_t scheduler, uint32_t warpSlot, const func::ExecRecord& record,
                       Cycle now) = 0;
};

struct SmContext {
  uint32_t id = 0;
  config::Tree* tree = nullptr;          // keys under "sm" and the SM's plug-in sections
  const PluginRegistry* registry = nullptr;
  SmMemory* memory = nullptr;
  // The GPU's memory system: the atom operations warps issue go to it (MemorySystem::hintOp) as
  // they issue (nullptr: nowhere).
  MemorySystem* system = nullptr;
  // The SM's resource manager; consulted per warp when it is warp-granular (nullptr: none).
  IResourceManager* resources = nullptr;
};

class Sm {
 public:
  explicit Sm(const SmContext& context);
  ~Sm();
  Sm(const Sm&) = delete;
  Sm& operator=(const Sm&) = delete;

  // Kernel boundary: the grid whose CTAs will be admitted; counters restart. Per-cycle
  // statistics count from `start` (the kernel's first core cycle), or from the first admit()
  // or cycle() call when it is kNever.
  // `annotations`: the compiler passes' per-instruction tables for the grid's program (the SM's
  // models look up what they asked for; nullptr: none).
  void beginKernel(func::GridContext& grid, Cycle start = kNever,
                   const InstructionAnnotations* annotations = nullptr);
  // The compiler passes the SM's models need before every launch (instruction_annotations.h).
  const PassRequests& passRequests() const;
  // Registers per thread the assist-warp model's routines add to every CTA (occupancy).
  uint32_t assistRegistersPerThread() const;
  // Accounts the cycles before `end` that cycle() was not called for (the SM idle or skipped)
  // so that the issue-slot counters cover the whole kernel: call once when the kernel is over.
  void finishKernel(Cycle end);
  // Starts running `cta` (already reset to its CTA id; the SM does not own it) at `now`. The
  // GPU has checked resources; the SM has free warp slots for its warps.
  void admit(func::Cta& cta, Cycle now);
  // One core cycle. `now` increases from call to call; cycles in between may be skipped when
  // nextEvent() says nothing happens in them (their issue slots are charged to the reasons of
  // the cycle before).
  void cycle(Cycle now);
  // Pops one CTA whose warps have all exited (its resources may be released).
  bool popRetired(func::Cta*& cta);

  bool idle() const;                     // no resident CTA and nothing in flight
  uint32_t residentCtas() const;
  uint32_t freeWarpSlots() const;
  // Earliest cycle >= now when cycle() may do something (kNever when idle); conservative
  // answers are fine.
  Cycle nextEvent(Cycle now) const;
  // Set when a warp faulted (one line from the functional engine); the run stops.
  const std::string& error() const;
  // Warp-instructions issued since beginKernel (progress and deadlock detection).
  uint64_t issuedInstructions() const;
  // One line per resident warp: CTA, warp, PC, PTX line, and what it waits for (scoreboard on
  // which register, memory, barrier, instruction fetch, ...).
  std::string describeWarps() const;
  // Counters since beginKernel (see docs/stats.md "sm").
  void reportStats(nlohmann::json& out) const;
  // Issue trace (nullptr: none); the sink must outlive the SM or be reset.
  void setTrace(SmTrace* trace);

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace warpsim::timing
