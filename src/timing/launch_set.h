// Internal: the launches of one concurrent batch and which SM holds which launch
// (docs/design/timing-model.md "Concurrent launches"). The main loop (gpu_loop.cpp) asks it to
// run the work distributor, retire CTAs, end launches whose work is done and start the launches
// that waited for them; it keeps the per-launch statistics of every SM tenure.
//
// SM-exclusive sharing: an SM holds CTAs of one launch at a time. An SM that is idle (nothing
// resident, nothing in flight) may be rebound to another launch; its counters for the old launch
// are harvested first (unless that launch already ended and took them).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "timing/gpu.h"
#include "timing/i_cta_scheduler.h"
#include "timing/launch_run.h"

namespace warpsim::timing {

class LaunchSet {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;

  LaunchSet(Gpu::Impl& gpu, const std::vector<BatchLaunch>& launches);
  LaunchSet(const LaunchSet&) = delete;
  LaunchSet& operator=(const LaunchSet&) = delete;

  size_t size() const { return runs_.size(); }
  LaunchRun& operator[](size_t i) { return *runs_[i]; }
  const LaunchRun& operator[](size_t i) const { return *runs_[i]; }

  // Batch start at `now`: failed launches end here, launches with nothing to wait for start, and
  // every SM is bound to the first of them. Returns its index (kNone: nothing can run, the batch
  // is over before it began). Calls the memory system's beginKernel.
  uint32_t begin(Cycle now);
  // The first launch that ran (time series and progress line belong to it).
  uint32_t first() const { return first_; }

  // The work distributor: every running launch with CTAs still to start, oldest first, gets its
  // CTA scheduler's turn. Returns whether any CTA started.
  bool schedule(Cycle now);
  // Releases the CTAs SM `sm` retired this cycle to its launch; returns how many.
  uint32_t retire(uint32_t sm);
  // Called for an SM without work: true when it just became idle and another running launch has
  // CTAs waiting that it could now take (the distributor should run again).
  bool becameIdle(uint32_t sm);
  // The launch SM `sm` is bound to.
  uint32_t boundTo(uint32_t sm) const { return boundTo_[sm]; }

  // Ends the launches whose CTAs have all retired and whose SMs are idle (cycle `now` was their
  // last; `busy`: some SM still works or sleeps; the last unfinished launch also waits for the
  // memory system to drain) and starts the launches that waited only for them. Returns true when
  // the last launch ended; sets `startedAny` when a launch started (at now + 1).
  bool endLaunches(Cycle now, bool busy, bool& startedAny);
  // A running launch over its instruction limit (kNone: none); `error` gets its one line.
  uint32_t overInstructionLimit(std::string& error) const;
  // The oldest running launch (a deadlock is reported against it).
  uint32_t oldestRunning() const;

  // The batch stopped at cycle `now` (a runtime error): the running launches take their SMs'
  // counters accounted up to `now` and end at now + 1, as does a launch that never started;
  // launch `failed` gets `error`, every other launch that had not ended a "stopped:" line.
  void stop(Cycle now, uint32_t failed, std::string error);

  // Totals over the batch for progress, the deadlock detector and the time series.
  uint64_t issued() const;  // warp-instructions issued by the SMs
  uint64_t retiredCtas() const { return retiredCtas_; }
  uint64_t warpInstructions() const;
  uint64_t threadInstructions() const;

 private:
  // The distributor's side of one launch: starts CTAs on SMs bound to it with room, or on idle
  // SMs, which it binds first.
  class Dispatcher final : public CtaDispatcher {
   public:
    Dispatcher(LaunchSet& set, uint32_t launch) : set_(&set), launch_(launch) {}
    uint32_t numSms() const override;
    bool canStart(uint32_t sm) const override;
    void start(uint32_t cta, uint32_t sm) override;
    uint32_t residentCtas(uint32_t sm) const override;

   private:
    LaunchSet* set_;
    uint32_t launch_;
  };

  bool rebindable(uint32_t sm, uint32_t launch) const;
  void bind(uint32_t sm, uint32_t launch, Cycle now);
  // Adds SM `sm`'s counters since its last beginKernel to its launch (accounted up to `end`).
  void harvest(uint32_t sm, Cycle end);
  // Tells SM `sm`'s memory (its L1 policy) the launch's hints and grid.
  void beginMemoryLaunch(uint32_t sm, const LaunchRun& r, Cycle now);
  void startLaunch(LaunchRun& run, Cycle at);
  void finish(LaunchRun& run, Cycle end);
  // Starts the waiting launches whose launches to wait for have all ended; true if any did.
  bool startReady(Cycle at);

  Gpu::Impl& gpu_;
  std::vector<std::unique_ptr<LaunchRun>> runs_;
  std::vector<Dispatcher> dispatchers_;
  std::vector<uint32_t> boundTo_;      // per SM: the launch it holds (kNone before begin)
  std::vector<uint8_t> tenureOpen_;    // per SM: counters of boundTo_, not harvested yet
  std::vector<uint8_t> hadWork_;       // per SM: it had work since it was last seen idle
  uint32_t first_ = kNone;
  uint32_t unfinished_ = 0;            // launches neither failed nor finished
  uint64_t harvestedIssued_ = 0;       // warp-instructions of harvested tenures
  uint64_t retiredCtas_ = 0;
};

}  // namespace warpsim::timing
