#include "func/parallel_ctas.h"

#include <algorithm>
#include <atomic>
#include <barrier>
#include <exception>
#include <memory>
#include <sstream>
#include <thread>
#include <utility>
#include <vector>

#include "func/cta.h"
#include "func/functional_gpu.h"
#include "func/memory_findings.h"
#include "func/speculative_memory.h"

namespace warpsim::func {
namespace {

// CTAs a batch gives each thread at first: enough that CTAs of unequal length even out, few
// enough that the views a batch keeps stay small. Batches of short CTAs grow (the threads meet
// once per batch) up to kMostCtasPerThread; a CTA is short below kShortCta warp-instructions.
constexpr uint32_t kCtasPerThread = 8;
constexpr uint32_t kMostCtasPerThread = 128;
constexpr uint64_t kShortCta = 2048;

struct LaunchCounters {
  uint64_t warpInstructions = 0;
  uint64_t threadInstructions = 0;
  uint64_t deviceAtomOps = 0;
};

LaunchCounters countersOf(const GridContext& g) { return {g.warpInstructions, g.threadInstructions, g.deviceAtomOps}; }

// What one run of a CTA left behind: its view of global memory and all else it changed.
struct CtaOutcome {
  explicit CtaOutcome(const DeviceMemory& memory) : memory(memory) {}
  SpeculativeMemory memory;
  LaunchCounters own;  // what the CTA added to the launch's counters
  std::string printed;
  MemoryFindings findings;
  std::unique_ptr<ExecObserver> observed;  // the CTA's part of the launch's observer
  std::string error;
  bool ok = true;
};

// A thread's copy of the launch state, on which CTAs run through their views.
class CtaRunner {
 public:
  explicit CtaRunner(const GridContext& grid)
      : launchObserver_(grid.options->observer), options_(*grid.options), grid_(grid) {
    grid_.options = &options_;
    grid_.printfOut = &printed_;
    if (options_.findings) options_.findings = &findings_;
  }
  CtaRunner(const CtaRunner&) = delete;
  CtaRunner& operator=(const CtaRunner&) = delete;

  // Runs CTA `cta` with the launch's counters at `base` (they decide the instruction limit).
  void run(uint32_t cta, const LaunchCounters& base, CtaOutcome& out) {
    out.memory.clear();
    grid_.speculation = &out.memory;
    grid_.warpInstructions = base.warpInstructions;
    grid_.threadInstructions = base.threadInstructions;
    grid_.deviceAtomOps = base.deviceAtomOps;
    printed_.str({});
    findings_ = {};
    if (launchObserver_) {
      out.observed = launchObserver_->newPart();
      options_.observer = out.observed.get();
    }
    if (cta_) cta_->reset(cta);
    else cta_ = std::make_unique<Cta>(grid_, cta);
    out.error.clear();
    out.ok = cta_->runToCompletion(&out.error);
    out.own = {grid_.warpInstructions - base.warpInstructions, grid_.threadInstructions - base.threadInstructions,
               grid_.deviceAtomOps - base.deviceAtomOps};
    out.printed = printed_.str();
    out.findings = findings_;
  }

 private:
  const ExecObserver* launchObserver_;
  RunOptions options_;
  GridContext grid_;
  std::ostringstream printed_;
  MemoryFindings findings_;
  std::unique_ptr<Cta> cta_;
};

void addFinding(MemoryFinding& into, const MemoryFinding& from) {
  if (from.count == 0) return;
  if (into.count == 0) into.first = from.first;
  into.count += from.count;
}

// Whether the instruction limit could have changed the CTA's run had it started from the
// launch's counters as they are now: the limit stops it, or shortens a warp's turn.
bool nearLimit(const GridContext& grid, const CtaOutcome& o) {
  const uint64_t limit = grid.options->maxWarpInstructions;
  const uint64_t turn = grid.options->warpQuantum == 0 ? 1 : grid.options->warpQuantum;
  return limit != 0 && grid.warpInstructions + o.own.warpInstructions + turn > limit;
}

// Makes the CTA's run part of the launch, as if it had run now.
void applyOutcome(const CtaOutcome& o, GridContext& grid, WrittenLines& written, LaunchResult& result) {
  o.memory.applyTo(*grid.memory, written);
  grid.warpInstructions += o.own.warpInstructions;
  grid.threadInstructions += o.own.threadInstructions;
  grid.deviceAtomOps += o.own.deviceAtomOps;
  if (!o.printed.empty()) *grid.printfOut << o.printed;
  if (ExecObserver* observer = grid.options->observer) observer->addPart(*o.observed);
  if (MemoryFindings* f = grid.options->findings) {
    addFinding(f->outsideAllocations, o.findings.outsideAllocations);
    addFinding(f->uninitialisedReads, o.findings.uninitialisedReads);
  }
  ++result.ctasExecuted;
}

// The threads of one launch: each batch, every thread takes CTAs of the batch until none is left.
class BatchRunner {
 public:
  BatchRunner(GridContext& grid, unsigned threads) : memory_(*grid.memory), sync_(threads) {
    runners_.reserve(threads);
    for (unsigned t = 0; t < threads; ++t) runners_.push_back(std::make_unique<CtaRunner>(grid));
    failures_.resize(threads);
    for (unsigned t = 1; t < threads; ++t) {
      workers_.emplace_back([this, t] {
        for (;;) {
          sync_.arrive_and_wait();
          if (stop_) return;
          work(t);
          sync_.arrive_and_wait();
        }
      });
    }
  }
  ~BatchRunner() {
    stop_ = true;
    sync_.arrive_and_wait();  // the workers see stop_ and end; the jthreads join
  }

  // Runs CTAs [first, first + count) speculatively from counters `base`.
  void run(uint64_t first, uint32_t count, const LaunchCounters& base) {
    while (outcomes_.size() < count) outcomes_.emplace_back(memory_);
    first_ = first;
    count_ = count;
    base_ = base;
    next_.store(0, std::memory_order_relaxed);
    sync_.arrive_and_wait();
    work(0);
    sync_.arrive_and_wait();
    for (std::exception_ptr& e : failures_) {
      if (e) std::rethrow_exception(std::exchange(e, nullptr));
    }
  }
  CtaOutcome& outcome(uint32_t i) { return outcomes_[i]; }
  // Runs CTA `cta` again on the calling thread from the launch's current state.
  void rerun(uint32_t cta, const LaunchCounters& now, CtaOutcome& out) { runners_[0]->run(cta, now, out); }

 private:
  void work(unsigned t) {
    try {
      for (uint32_t i; (i = next_.fetch_add(1, std::memory_order_relaxed)) < count_;) {
        runners_[t]->run(static_cast<uint32_t>(first_ + i), base_, outcomes_[i]);
      }
    } catch (...) {
      failures_[t] = std::current_exception();
    }
  }

  const DeviceMemory& memory_;
  std::vector<std::unique_ptr<CtaRunner>> runners_;
  std::vector<CtaOutcome> outcomes_;
  std::vector<std::exception_ptr> failures_;
  std::barrier<> sync_;
  bool stop_ = false;
  uint64_t first_ = 0;
  uint32_t count_ = 0;
  LaunchCounters base_;
  std::atomic<uint32_t> next_ = 0;
  std::vector<std::jthread> workers_;  // last: they stop before the rest goes
};

}  // namespace

bool CtaDependence::runInOrder(const Program* program, uint32_t function) {
  const auto it = inOrderLaunchesLeft_.find({program, function});
  if (it == inOrderLaunchesLeft_.end()) return false;
  if (--it->second == 0) inOrderLaunchesLeft_.erase(it);
  return true;
}

void CtaDependence::noteDependent(const Program* program, uint32_t function) {
  inOrderLaunchesLeft_[{program, function}] = kRetryAfter;
}

bool canRunCtasInParallel(const GridContext& grid) {
  const RunOptions& o = *grid.options;
  return o.threads > 1 && grid.config->grid.count() > 1 && (!o.observer || o.observer->newPart()) && !o.initcheck &&
         !grid.memory->tracksInitialisation() && !grid.config->cooperative;
}

void runCtasInParallel(GridContext& grid, LaunchResult& result) {
  const uint64_t ctas = grid.config->grid.count();
  if (CtaDependence* d = grid.options->ctaDependence; d && d->runInOrder(grid.program, grid.kernel)) {
    runCtasInOrder(grid, 0, result);
    return;
  }
  const unsigned threads = static_cast<unsigned>(std::min<uint64_t>(grid.options->threads, ctas));
  uint32_t batch = threads * kCtasPerThread;
  uint64_t next = 0;
  {
    BatchRunner runner(grid, threads);
    WrittenLines written;
    while (next < ctas) {
      const auto count = static_cast<uint32_t>(std::min<uint64_t>(batch, ctas - next));
      const uint64_t before = grid.warpInstructions;
      runner.run(next, count, countersOf(grid));
      written.clear();
      uint32_t stale = 0;
      for (uint32_t i = 0; i < count; ++i) {
        CtaOutcome& o = runner.outcome(i);
        const bool readWritten = o.memory.readAnyOf(written);
        stale += readWritten ? 1 : 0;
        if (readWritten || !o.ok || nearLimit(grid, o)) runner.rerun(static_cast<uint32_t>(next + i), countersOf(grid), o);
        applyOutcome(o, grid, written, result);
        if (!o.ok) {
          result.ok = false;
          result.error = o.error;
          return;
        }
      }
      next += count;
      // CTAs that mostly depend on each other (atomics on shared counters, say) gain nothing
      // from running ahead: the rest of the launch runs one CTA after another.
      if (2 * stale > count) {
        if (CtaDependence* d = grid.options->ctaDependence) d->noteDependent(grid.program, grid.kernel);
        break;
      }
      if (grid.warpInstructions - before < kShortCta * count) batch = std::min(2 * batch, threads * kMostCtasPerThread);
    }
  }
  if (next < ctas) runCtasInOrder(grid, next, result);
}

}  // namespace warpsim::func
