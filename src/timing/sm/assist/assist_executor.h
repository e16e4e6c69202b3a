// Runs one assist routine (assist_routines.h) functionally for one parent warp: its live-ins as
// kernel parameters, its staging bytes in shared memory, one warp of 32 lanes with the routine's
// active mask. Every executed warp-instruction becomes an AssistStep, in program order: the
// decoded instruction (unit, registers, flags) and the lanes that executed it, which is what the
// assist-warp controller issues into the SM's pipeline. Execution happens once, when the
// routine is triggered (the data it works on is known then); timing follows from issuing the
// steps.
//
// One executor serves every instance in turn (its CTA and step buffer are reused): no
// allocation per instance after the first ones.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "func/cta.h"
#include "func/device_memory.h"
#include "func/grid_context.h"
#include "timing/sm/assist/assist_routines.h"

namespace warpsim::timing {

struct AssistStep {
  const DecodedInstr* instr = nullptr;
  uint32_t execMask = 0;
  bool liveIn = false;  // an ld.param: the copy of a live-in from the parent's registers
};

class AssistExecutor {
 public:
  explicit AssistExecutor(const AssistRoutineStore& store, uint32_t maxSteps = 4096);
  AssistExecutor(const AssistExecutor&) = delete;
  AssistExecutor& operator=(const AssistExecutor&) = delete;
  ~AssistExecutor();

  // Runs `routine` on the lanes of `activeMask`, its shared memory zeroed then holding
  // staging[0, stagingBytes), its parameters the `liveIns` (each written with its declared
  // size, in order). Replaces steps() with its instructions. False, with error(), when the
  // routine faults or runs more than maxSteps warp-instructions (an internal error: the store's
  // routines are part of the simulator).
  bool run(uint32_t routine, uint32_t activeMask, const uint8_t* staging, uint32_t stagingBytes,
           const uint64_t* liveIns, uint32_t numLiveIns);

  const std::vector<AssistStep>& steps() const { return steps_; }
  // The routine's shared memory after the run (its output).
  const uint8_t* shared() const;
  uint32_t sharedBytes() const;
  const std::string& error() const { return error_; }

 private:
  struct Prepared;
  Prepared& prepare(uint32_t routine);

  const AssistRoutineStore& store_;
  const uint32_t maxSteps_;
  func::DeviceMemory memory_;
  func::RunOptions options_;
  std::vector<std::unique_ptr<Prepared>> prepared_;  // per routine, made on first use
  Prepared* current_ = nullptr;
  std::vector<AssistStep> steps_;
  std::string error_;
};

}  // namespace warpsim::timing
