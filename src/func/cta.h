// One CTA: its warps, its shared memory and its 16 named barriers.
//
// Barriers count warps, as PTX specifies (a warp's arrival stands for all its non-exited
// threads): bar.sync/barrier.sync without a thread count waits for every warp that still has
// live lanes; with a count b it waits for b/32 warps. bar.arrive counts without waiting;
// bar.red.{popc,and,or} reduces the predicate over the executing lanes of all arriving warps and
// gives the result to every waiting warp.
//
// runToCompletion() interleaves warps round-robin, each running until it blocks at a barrier or
// exits; a CTA whose remaining warps all wait is deadlocked. A timing model instead calls
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

  // Runs every warp to its end. Returns false with *error set on a fault, a deadlock or the
  // instruction limit. With an observer, every instruction goes through step() with a record.
  bool runToCompletion(std::string* error);

  uint8_t* shared() { return shared_.data(); }
  uint32_t sharedBytes() const { return static_cast<uint32_t>(shared_.size()); }

  // ---- executor-facing ------------------------------------------------------------------
  // A warp arrives at barrier `id` with its executing lanes `mask`. countWarps = 0: all live
  // warps. For bar.red, `predMask` holds the executing lanes' predicate values and `in` is the
  // instruction whose destination receives the result.
  void barrierArrive(Warp& w, unsigned id, uint32_t countWarps, ir::BarOp op, uint32_t mask,
                     uint32_t predMask, const ir::Instr* in);
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

  GridContext* grid_;
  uint32_t ctaLinear_;
  Dim3 ctaId_;
  uint32_t smId_;
  uint32_t liveWarps_ = 0;
  std::vector<std::unique_ptr<Warp>> warps_;
  std::vector<uint8_t> shared_;
  Barrier barriers_[kNumBarriers];
  // Per warp: the bar.red instruction and lanes waiting for a reduction result.
  std::vector<const ir::Instr*> pendingRed_;
  std::vector<uint32_t> pendingRedMask_;
};

}  // namespace warpsim::func
