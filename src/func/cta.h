// One CTA: its warps, its shared memory and its 16 named barriers.
//
// Barriers count warps, as PTX specifies (a warp arrives once all its non-exited threads have,
// see warp_barrier.cpp): bar.sync/barrier.sync without a thread count waits for every warp that
// still has live lanes; with a count b it waits for b/32 warps. bar.arrive counts without
// waiting; bar.red.{popc,and,or} reduces the predicate over the executing lanes of all arriving
// warps and gives the result to every waiting warp.
//
// runToCompletion() interleaves the warps as a GPU's warp scheduler does: round robin over the
// warps that can run, each executing RunOptions::warpQuantum instructions per turn (one by
// default), so warps advance nearly in lockstep and programs with benign races between warps
// (several warps updating one element, a missing __syncthreads() between phases) see what a GPU
// shows them. A CTA whose remaining warps all wait is deadlocked. A timing model instead calls
// warp(i).step() in its own order; barrier bookkeeping happens inside step().
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "func/grid_context.h"
#include "func/launch.h"
#include "func/warp.h"

namespace warpsim::func {

class Cta {
 public:
  static constexpr unsigned kNumBarriers = 16;

  Cta(GridContext& grid, uint32_t ctaLinear);
  Cta(const Cta&) = delete;             // warps point back at their CTA
  Cta& operator=(const Cta&) = delete;
  // Becomes CTA `ctaLinear` of the same launch, from its start, reusing this CTA's storage.
  void reset(uint32_t ctaLinear);

  uint32_t numWarps() const { return static_cast<uint32_t>(warps_.size()); }
  Warp& warp(uint32_t i) { return *warps_[i]; }
  uint32_t ctaLinear() const { return ctaLinear_; }
  const Dim3& ctaId() const { return ctaId_; }
  uint32_t smId() const { return smId_; }
  // Timing mode: the SM the CTA was placed on, read by %smid (reset() goes back to the
  // functional placement, ctaLinear % RunOptions::numSms).
  void setSmId(uint32_t sm) { smId_ = sm; }
  bool done() const { return liveWarps_ == 0; }

  // Runs every warp to its end, interleaved (above). Returns false with *error set on a fault, a
  // deadlock or the instruction limit. With an observer, every instruction goes through step()
  // with a record.
  bool runToCompletion(std::string* error);
  // One round of runToCompletion: every warp that can run when the round starts takes its turn.
  // A cooperative launch (functional_gpu.cpp) interleaves the CTAs of its grid round by round.
  // Returns false with *error set on a fault or the instruction limit; deadlocks are the
  // caller's to detect (!runnable() && !done()).
  bool runRound(ExecRecord& record, std::string* error);
  // Whether some warp can run (has not exited and does not wait at a barrier).
  bool runnable() const { return ready_ != 0; }

  uint8_t* shared() { return shared_.data(); }
  uint32_t sharedBytes() const { return static_cast<uint32_t>(shared_.size()); }

  // ---- executor-facing ------------------------------------------------------------------
  // Warp w arrives at a barrier (all its non-exited lanes have): it is counted, and unless it
  // only arrives (bar.arrive) it waits until the barrier completes.
  void barrierArrive(Warp& w, const BarrierArrival& arrival);
  // A warp's last lane exited: barriers waiting for all live warps may now complete.
  void onWarpDone(Warp& w);
  // Multi-line deadlock report (first line a summary).
  std::string deadlockReport() const;

 private:
  struct Barrier {
    uint32_t arrived = 0;        // warps
    uint32_t expected = 0;       // warps; 0 = all live warps
    uint32_t waiting = 0;        // bit set of waiting warps
    uint32_t popc = 0;
    bool all = true, any = false;
    ir::BarOp redOp = ir::BarOp::Sync;
  };
  void tryComplete(unsigned id);
  void setId(uint32_t ctaLinear);
  uint32_t allWarpsMask() const;
  std::string describeWarp(const Warp& w) const;
  bool limitError(const Warp& w, std::string* error) const;

  GridContext* grid_;
  uint32_t ctaLinear_;
  Dim3 ctaId_;
  uint32_t smId_;
  uint32_t liveWarps_ = 0;
  std::vector<std::unique_ptr<Warp>> warps_;
  std::vector<uint8_t> shared_;
  Barrier barriers_[kNumBarriers];
  uint32_t ready_ = 0;  // bit set of warps that can run (not exited, not waiting at a barrier)
};

}  // namespace warpsim::func
