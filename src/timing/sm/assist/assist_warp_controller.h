// The assist warp controller of one SM (AWC): the assist warp table (AWT) of triggered routine
// instances and the assist warp buffer (AWB) their decoded instructions wait in, with the
// priority rule of the issue stage. A mechanism's IAssistWarp implementation owns one and
// triggers routines into it; the SM issues what it offers (i_assist_warp.h).
//
//   trigger   runs the routine functionally at once (assist_executor.h) and enters an AWT entry:
//             parent warp slot, priority, the executed instructions, a cookie for the caller.
//             A full table refuses (the caller decides what to do without the assist warp).
//   deploy    every cycle the controller takes one AWT entry round robin and moves up to
//             deploy_width of its next instructions into the AWB: high-priority instances into
//             their parent warp's instruction-buffer partition (high_buffer entries shared by
//             the parent's instances), low-priority ones into the SM's low-priority partition
//             (low_buffer entries). It does not deploy a whole routine back to back.
//   units     the routine's loads and stores of its staging line (the line in the L1) do not
//             use the program's load/store unit, whose queue may hold the very loads the
//             routine serves: they issue to the ALU pipeline (slot and latency);
//   issue     an instance's buffered instructions issue in order, each once its source
//             registers have no write of the instance's own pending (a scoreboard per
//             instance); instances of one priority take turns. High priority is offered before
//             the parent warps, low priority only in slots no warp could use (i_assist_warp.h).
//   blocking  a parent warp with a live high-priority instance does not issue.
//   finish    after its last instruction completes the entry is freed and its cookie is
//             reported (popFinished).
//   kill      flushes an entry and its buffered instructions; completions of its instructions
//             still in flight are ignored.
//
// Registers: routine register r of an instance is register registerBase + r of the parent
// warp (the bank it maps to): the kernel's registers come first, the routines' above them.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "timing/sm/assist/assist_executor.h"
#include "timing/sm/i_assist_warp.h"

namespace warpsim::timing {

struct AssistControllerParams {
  uint32_t tableEntries = 32;  // AWT entries per SM
  uint32_t deployWidth = 2;    // instructions moved into the AWB per cycle
  uint32_t highBuffer = 2;     // AWB entries of one parent warp's partition
  uint32_t lowBuffer = 2;      // AWB entries of the low-priority partition
};

// Reads [sm.assist_warp] table_entries, deploy_width, high_buffer, low_buffer.
AssistControllerParams readAssistControllerParams(config::Section section);

struct AssistCounters {
  uint64_t triggered[2] = {}, refused[2] = {}, killed[2] = {}, completed[2] = {};  // [High, Low]
  uint64_t instructions[2] = {};
};

class AssistWarpController {
 public:
  using Priority = IAssistWarp::Priority;
  AssistWarpController(const AssistRoutineStore& store, const AssistControllerParams& params,
                       uint32_t schedulers, uint32_t warpSlots);

  // A kernel starts: its registers end at `registerBase` (routines' registers go above).
  void beginKernel(uint32_t registerBase);
  // Triggers `routine` for parent warp `parentSlot`; returns its AWT entry, or -1 when the table
  // is full. Throws std::runtime_error when the routine faults (an internal error).
  int trigger(uint32_t routine, uint32_t parentSlot, Priority priority, uint32_t activeMask,
              const uint8_t* staging, uint32_t stagingBytes, const uint64_t* liveIns,
              uint32_t numLiveIns, uint64_t cookie);
  // The routine output of the last trigger (its shared memory).
  const uint8_t* lastOutput() const { return executor_.shared(); }
  void kill(uint32_t entry);

  // IAssistWarp's hooks.
  bool next(uint32_t scheduler, Priority priority, Cycle now, AssistInstr& out);
  void onIssued(const AssistInstr& instr, Cycle now);
  void onCompleted(uint32_t tag, Cycle now);
  bool blocksWarp(uint32_t slot) const { return highLive_[slot] != 0; }
  Cycle nextEvent(Cycle now) const;

  // A finished instance's cookie; false when none is left.
  bool popFinished(uint64_t& cookie);
  bool idle() const { return live_ == 0; }
  const AssistCounters& counters() const { return counters_; }
  void resetCounters() { counters_ = AssistCounters{}; }
  // {"triggered": {"high": n, "low": n}, ...}
  void reportStats(nlohmann::json& out) const;

 private:
  struct Entry {
    bool live = false;
    uint8_t generation = 0;
    Priority priority = Priority::High;
    uint32_t parentSlot = 0, scheduler = 0;
    uint64_t cookie = 0;
    std::vector<AssistStep> steps;
    uint32_t deployed = 0, issued = 0, completed = 0;
    std::vector<uint64_t> pendingRegs;  // bit per routine value register
    uint64_t pendingPreds = 0;
  };
  void deploy(Cycle now);
  bool ready(const Entry& e) const;
  uint32_t bufferRoom(const Entry& e) const;
  void finish(uint32_t entry);
  static uint32_t tagOf(uint32_t entry, uint8_t generation, uint32_t step) {
    return (entry << 24) | (uint32_t{generation} << 16) | step;
  }

  const AssistRoutineStore& store_;
  const AssistControllerParams params_;
  const uint32_t schedulers_;
  AssistExecutor executor_;
  std::vector<Entry> entries_;
  std::vector<uint32_t> highLive_;      // per parent slot: live high-priority entries
  std::vector<uint32_t> highBuffered_;  // per parent slot: deployed, not issued (high)
  uint32_t lowBuffered_ = 0;
  uint32_t live_ = 0;
  uint32_t deployCursor_ = 0;
  uint32_t issueCursor_[2] = {0, 0};
  Cycle lastDeploy_ = kNever;
  uint32_t registerBase_ = 0;
  std::vector<uint64_t> finished_;
  size_t finishedHead_ = 0;
  AssistCounters counters_;
};

}  // namespace warpsim::timing
