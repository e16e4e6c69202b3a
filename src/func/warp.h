// One warp of a CTA: its call frames (registers, predicates, per-lane param areas, local
// memory) and its SIMT reconvergence stack. step() executes exactly one warp-instruction; the
// functional driver and the timing model both advance warps only through it (run() is step()
// without a record, looped).
//
// SIMT stack: entries {pc, reconvergence pc, mask}; the top entry is what executes. A divergent
// branch turns the top entry into the reconvergence entry (pc = reconvergence pc of the branch,
// Function::reconvergePc) and pushes the taken then the not-taken path, so the fall-through path
// runs first. An entry whose pc reaches its reconvergence pc, or whose mask empties, is popped.
//
// Calls: `call` pushes a frame whose first stack entry holds the calling lanes; the caller's
// entry already points past the call. `ret` removes the returning lanes from the frame's entries;
// when none remain the frame is popped (return values copied back for the lanes that returned)
// and the caller continues with its mask minus lanes that exited meanwhile. `exit` removes lanes
// from every entry of every frame. The warp is done when its bottom frame has no entries left.
//
// Barriers (sm_70 and later, warp_barrier.cpp): a barrier instruction makes the executing path's
// lanes wait until every non-exited lane of the warp has arrived at the same barrier, at this
// instruction or another one; only then does the warp arrive at its CTA's barrier (Cta counts
// warps). Meanwhile the warp runs a path whose lanes have not arrived: the nearest SIMT entry
// of the current frame holding such lanes is moved (or, for the lanes of an entry some of whose
// lanes have arrived, split off) to the top. Waiting lanes that reach their reconvergence point
// wait there, folded into the entry below, until the barrier completes.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "func/exec_context.h"
#include "func/exec_record.h"
#include "func/grid_context.h"
#include "func/linked_instr.h"
#include "hints/atoms.h"

namespace warpsim::func {

class Cta;

enum class StepStatus : uint8_t {
  Ok,         // executed; the warp can continue
  AtBarrier,  // executed a barrier and now waits for other warps (see Cta)
  Exited,     // every lane has exited
  Error,      // the instruction faulted; error() says why
};

struct SimtEntry {
  uint32_t pc;
  uint32_t rpc;  // reconvergence pc; ir::kNoTarget: reconverges only at function exit
  uint32_t mask;
};

// A warp's arrival at a CTA barrier, gathered over the paths of a diverged warp.
struct BarrierArrival {
  int barrier = -1;             // -1: no arrival in progress
  ir::BarOp op = ir::BarOp::Sync;
  uint32_t countWarps = 0;      // warps the barrier waits for; 0: every live warp of the CTA
  uint32_t lanes = 0;           // lanes of the paths that arrived
  uint32_t popc = 0;            // bar.red: executing lanes whose predicate is true
  bool all = true, any = false;
};

struct Frame {
  uint32_t function = 0;
  uint32_t simtBase = 0;     // index of this frame's first SIMT entry
  size_t regBase = 0;        // into the register stack (slots)
  size_t predBase = 0;       // into the predicate stack
  size_t paramBase = 0;      // into the frame-param stack (bytes; 32 lanes * frameParamBytes)
  uint32_t localBase = 0;    // per-thread local offset of this frame's depot
  uint32_t callPc = 0;       // caller's call instruction (frames above the kernel's)
  uint32_t returnedMask = 0; // lanes that executed ret in this frame
};

class Warp {
 public:
  // `lanes`: mask of lanes that exist (a CTA's last warp may be partial).
  Warp(Cta& cta, GridContext& grid, uint32_t warpInCta, uint32_t lanes);
  Warp(const Warp&) = delete;
  Warp& operator=(const Warp&) = delete;
  // Starts the warp over at the kernel's first instruction (its CTA is being reused for another
  // CTA id), keeping allocated storage.
  void reset(uint32_t lanes);

  // Executes one warp-instruction. With a record, fills it (see exec_record.h). A warp that is
  // done, failed or waiting at a barrier executes nothing: the status says which, and the
  // record's instr is set to nullptr.
  StepStatus step(ExecRecord* record);
  // Executes until the warp blocks at a barrier, exits, faults, or has executed `budget`
  // instructions (then Ok). *executed receives the count.
  StepStatus run(uint64_t budget, uint64_t* executed);

  // ---- state ---------------------------------------------------------------------------
  bool done() const { return done_; }
  bool failed() const { return !error_.empty(); }
  bool waitingAtBarrier() const { return barrierWait_ >= 0; }
  int barrierWaitedOn() const { return barrierWait_; }
  const std::string& error() const { return error_; }
  uint32_t warpInCta() const { return warpInCta_; }
  uint32_t function() const { return frames_.empty() ? 0 : frames_.back().function; }
  uint32_t pc() const { return simt_.empty() ? 0 : simt_.back().pc; }
  uint32_t activeMask() const { return simt_.empty() ? 0 : simt_.back().mask; }
  uint32_t exitedMask() const { return exited_; }
  size_t callDepth() const { return frames_.size(); }
  uint64_t instructionsExecuted() const { return instructions_; }
  // PTX line of the instruction at the current pc (0 when done).
  uint32_t currentLine() const;
  // pc and PTX line of the instruction executed last (a waiting warp's barrier).
  uint32_t lastPc() const { return executingPc_; }
  uint32_t lastLine() const { return code_ ? code_[executingPc_].in.line : 0; }

  // ---- executor-facing interface (engine executors only) -----------------------------------
  Cta& cta() { return *cta_; }
  GridContext& grid() { return *grid_; }
  ExecCtx& ctx() { return ctx_; }
  SimtEntry& top() { return simt_.back(); }
  const Frame& frame() const { return frames_.back(); }
  const LinkedFunction& linkedFunction() const { return *fn_; }
  uint32_t tid(unsigned dim, unsigned lane) const { return tid_[dim][lane]; }
  const uint32_t* sharedOffsets() const { return grid_->layout->symbolOffset.data(); }

  // Uniform part of an address operand (window base added for generic accesses).
  uint64_t addrBase(const AddrDecode& a, bool generic) const;

  // Host pointer for an access of `bytes` by `lane` at `addr` in `space` (Generic resolved per
  // lane: *resolved receives the space, addr becomes the in-space address). Sets the warp's
  // error and returns nullptr when the access is illegal. `what` is "load"/"store"/"atomic".
  // `accesses`: the lane accesses this one resolution stands for (a uniform address serves the
  // warp), as the memory checks count them (RunOptions::findings).
  uint8_t* resolve(ir::Space space, uint64_t& addr, unsigned bytes, unsigned lane,
                   const char* what, ir::Space* resolved, uint32_t accesses = 1);
  // Reads a NUL-terminated string (at most `limit` bytes) at a generic address; false if it
  // leaves mapped memory.
  bool readGenericString(uint64_t addr, unsigned lane, std::string& out, size_t limit);
  bool readGeneric(uint64_t addr, unsigned lane, void* dst, unsigned bytes);

  // Control (executors call these; each requests a settle of the SIMT stack).
  void branch(uint32_t target, uint32_t takenMask, const LinkedInstr& li);
  void call(uint32_t calleeFn, const ir::CallSite& site, uint32_t mask, uint32_t callPc);
  void ret(uint32_t mask);
  void exitLanes(uint32_t mask);
  // The executing path arrives at barrier `id` (its executing lanes `executing`, their bar.red
  // predicate values `predicate`, `in` the instruction): see the header comment.
  void arriveAtBarrier(unsigned id, uint32_t countWarps, ir::BarOp op, uint32_t executing,
                       uint32_t predicate, const ir::Instr* in);
  // Cta: the warp's arrival counted, it waits for the barrier to complete.
  void waitAtBarrier(int barrier) { barrierWait_ = barrier; events_ |= kEvBarrier; }
  // Cta: the barrier completed; bar.red destinations receive the reduction of `op`.
  void completeBarrier(ir::BarOp op, uint32_t popc, bool all, bool any);
  // Lanes that arrived at a barrier the rest of the warp has not reached yet (0: none).
  uint32_t lanesAtBarrier() const { return arrival_.lanes; }
  // The warp waits for lanes of its own that wait in a calling function's frame and so cannot
  // reach the barrier: nothing can release it (a deadlock).
  bool blockedOnOwnLanes() const { return blockedOnOwnLanes_; }

  // Fault: records "kernel 'k' CTA (..) thread (..) at file:line: <message>" for `lane` and the
  // instruction being executed; the warp stops.
  void fault(unsigned lane, const std::string& message);
  // Fault not tied to one lane (first lane of the executing mask is named).
  void faultWarp(const std::string& message);
  // "kernel 'k' CTA (..) thread (..) at file:line" of `lane` and the instruction being executed.
  std::string location(unsigned lane) const;

  // Current frame's param area of `lane` (frameParamBytes bytes).
  uint8_t* frameParams(unsigned lane) {
    return paramStack_.data() + frames_.back().paramBase + size_t{lane} * fn_->frameParamBytes;
  }
  // Storage for the atom operations of the instruction being executed (ExecRecord::atomOps):
  // reused, so that it allocates only the first time.
  std::vector<hints::AtomOp>& atomOps() { return atomOps_; }
  uint8_t* localMemory(unsigned lane) {
    if (local_.empty()) local_.assign(size_t{grid_->localBytesPerThread} * kWarpSize, 0);
    return local_.data() + size_t{lane} * grid_->localBytesPerThread;
  }

 private:
  enum : uint32_t { kEvControl = 1, kEvBarrier = 2, kEvError = 4 };
  template <bool kRecord>
  StepStatus stepImpl(ExecRecord* record);
  StepStatus handleEvents();
  void settle();
  // Barrier bookkeeping on a change of the SIMT stack while lanes wait at a barrier
  // (warp_barrier.cpp): true when the top entry may run.
  bool settleBarrierWait();
  void arriveAtCta();
  void pushFrame(uint32_t function, uint32_t mask, uint32_t callPc, uint32_t localBase);
  void popFrame();
  void bindFrame();  // refresh cached pointers after the frame stack changed

  Cta* cta_;
  GridContext* grid_;
  uint32_t warpInCta_;
  uint32_t exited_ = 0;
  uint32_t events_ = 0;
  int barrierWait_ = -1;
  bool done_ = false;
  uint32_t executingPc_ = 0;           // pc of the instruction being executed (for faults)
  const LinkedFunction* fn_ = nullptr; // current frame's function
  const LinkedInstr* code_ = nullptr;
  ExecCtx ctx_;
  uint64_t instructions_ = 0;
  std::vector<SimtEntry> simt_;
  std::vector<Frame> frames_;
  std::vector<uint64_t> regStack_;
  std::vector<uint32_t> predStack_;
  std::vector<uint8_t> paramStack_;
  std::vector<hints::AtomOp> atomOps_;
  std::vector<uint8_t> local_;         // 32 lanes * localBytesPerThread, allocated on first use
  uint32_t tid_[3][kWarpSize] = {};
  std::string error_;
  BarrierArrival arrival_;
  bool blockedOnOwnLanes_ = false;
  // bar.red paths waiting for the CTA's result: the instruction and its executing lanes.
  struct PendingReduction {
    const ir::Instr* in;
    uint32_t lanes;
  };
  std::vector<PendingReduction> reductions_;  // at most one per lane; reserved up front
};

}  // namespace warpsim::func
