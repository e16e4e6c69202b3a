// The main loop of a launch: core cycles, with the memory system's clock domains advanced to
// the start of each core cycle, CTAs started by the CTA scheduler, SMs stepped, retired CTAs
// released, and idle stretches skipped to the next event (docs/design/timing-model.md).
#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "timing/deadlock_detector.h"
#include "timing/gpu_impl.h"
#include "timing/progress_line.h"
#include "timing/stats_sampler.h"

namespace warpsim::timing {

namespace {

// Most warp lines a deadlock report carries (the summary says how many were left out).
constexpr size_t kMaxDeadlockLines = 64;

// The GPU's side of the CTA scheduler: starts CTAs on SMs with room.
class Launch final : public CtaDispatcher {
 public:
  Launch(Gpu::Impl& gpu, func::GridContext& grid, uint32_t warpsPerCta)
      : gpu_(gpu), pool_(grid), warpsPerCta_(warpsPerCta) {}

  uint32_t numSms() const override { return gpu_.numSms; }
  bool canStart(uint32_t sm) const override {
    return gpu_.resourceManagers[sm]->canAdmit() && gpu_.sms[sm]->freeWarpSlots() >= warpsPerCta_;
  }
  void start(uint32_t cta, uint32_t sm) override {
    func::Cta& c = pool_.acquire(cta);
    gpu_.resourceManagers[sm]->admit(cta);
    gpu_.sms[sm]->admit(c, now);
    ++started;
  }
  // Releases the CTAs SM `sm` retired this cycle; returns how many.
  uint32_t retire(uint32_t sm) {
    uint32_t n = 0;
    func::Cta* cta = nullptr;
    while (gpu_.sms[sm]->popRetired(cta)) {
      gpu_.resourceManagers[sm]->release(cta->ctaLinear());
      pool_.release(*cta);
      ++n;
    }
    retired += n;
    return n;
  }

  Cycle now = 0;
  uint64_t started = 0, retired = 0;

 private:
  Gpu::Impl& gpu_;
  CtaPool pool_;
  uint32_t warpsPerCta_;
};

// Hands every issued instruction's record to the launch's observer (runtime statistics), as
// the functional engine does.
class ObserverTrace final : public SmTrace {
 public:
  explicit ObserverTrace(func::ExecObserver& observer) : observer_(observer) {}
  void onIssue(uint32_t, uint32_t, uint32_t, const func::ExecRecord& record, Cycle) override {
    observer_.onExec(record);
  }

 private:
  func::ExecObserver& observer_;
};

std::string deadlockReport(const Gpu::Impl& gpu, const func::GridContext& grid,
                           const Launch& launch, Cycle sinceStart, Cycle stalled, uint64_t total) {
  std::vector<std::string> lines;
  for (const auto& sm : gpu.sms) {
    const std::string warps = sm->describeWarps();
    size_t pos = 0;
    while (pos < warps.size()) {
      size_t end = warps.find('\n', pos);
      if (end == std::string::npos) end = warps.size();
      if (end > pos) lines.push_back(warps.substr(pos, end - pos));
      pos = end + 1;
    }
  }
  std::string report = fmt::format(
      "kernel '{}': deadlock: no progress for {} cycles (cycle {} of the launch; {} of {} CTAs "
      "retired, {} warp(s) resident{})",
      grid.kernelName(), stalled, sinceStart, launch.retired, total, lines.size(),
      gpu.memorySystem->idle() ? "" : "; memory requests still in flight");
  for (size_t i = 0; i < lines.size() && i < kMaxDeadlockLines; ++i) report += "\n  " + lines[i];
  if (lines.size() > kMaxDeadlockLines) {
    report += fmt::format("\n  ... {} more warp(s)", lines.size() - kMaxDeadlockLines);
  }
  return report;
}

}  // namespace

KernelTiming Gpu::Impl::simulate(func::GridContext& grid, const KernelResources& resources) {
  KernelTiming out;
  const uint64_t total = grid.config->grid.count();
  Launch launch(*this, grid, resources.warpsPerCta());
  grid.coreCycle = &now;  // %clock and %clock64 read the core cycle
  const Cycle start = now;
  memorySystem->beginKernel();
  for (auto& sm : sms) sm->beginKernel(grid, start);
  ctaScheduler->beginKernel(total);
  std::optional<ObserverTrace> trace;
  if (grid.options->observer != nullptr) {
    trace.emplace(*grid.options->observer);
    for (auto& sm : sms) sm->setTrace(&*trace);
  }

  const uint64_t limit = grid.options->maxWarpInstructions;
  DeadlockDetector deadlock(deadlockCycles);
  deadlock.begin(now);
  StatsSampler sampler(sampleInterval);
  ProgressLine progress(options.progress, grid.kernelName());
  bool mayStart = true;      // something changed that could let a CTA start
  uint64_t issued = 0;       // warp-instructions issued so far (all SMs)
  std::string error;

  for (;;) {
    launch.now = now;
    memorySystem->advanceTo(core.timeOf(now));
    if (mayStart) {
      const uint64_t before = launch.started;
      if (ctaScheduler->pending() != 0) ctaScheduler->schedule(launch, now);
      mayStart = launch.started != before;
    }
    bool busy = false;
    for (uint32_t s = 0; s < numSms; ++s) {
      Sm& sm = *sms[s];
      if (!needsCycle(s)) continue;
      // An SM whose warps all wait (on memory, say) sleeps until its next event, while the
      // others run; the SM accounts the cycles it did not see.
      if (skipIdleCycles && sm.nextEvent(now) > now) {
        busy = true;
        continue;
      }
      sm.cycle(now);
      if (launch.retire(s) != 0) mayStart = true;
      if (!sm.error().empty()) {
        error = sm.error();
        break;
      }
      busy = busy || !sm.idle();
    }
    if (!error.empty()) break;

    uint64_t issuedNow = 0;
    for (const auto& sm : sms) issuedNow += sm->issuedInstructions();
    const bool issuedThisCycle = issuedNow != issued;
    issued = issuedNow;
    deadlock.observe(now, issued + launch.retired + memorySystem->progress());

    // The launch ends when every CTA has retired and its memory traffic (stores in flight) has
    // drained: the next launch starts with an idle memory system.
    if (launch.retired == total && !busy && memorySystem->idle()) {
      ++now;
      break;
    }
    if (limit != 0 && grid.warpInstructions >= limit) {
      error = fmt::format(
          "kernel '{}': instruction limit of {} warp-instructions reached (infinite loop?)",
          grid.kernelName(), limit);
      break;
    }
    if (deadlock.stuck(now)) {
      error = deadlockReport(*this, grid, launch, now - start, now - deadlock.stalledSince(), total);
      break;
    }
    if (sampler.due(now - start)) {
      nlohmann::json mem;
      memorySystem->reportStats(mem);
      sampler.record(now - start, grid.warpInstructions, grid.threadInstructions, mem);
    }
    progress.update(now - start, grid.threadInstructions);

    // Idle-cycle skipping: when nothing issued and no CTA can start, jump to the earliest cycle
    // at which an SM or the memory system has something to do, never past the deadlock check
    // or the next time-series row.
    Cycle next = now + 1;
    if (!issuedThisCycle && !mayStart && skipIdleCycles) {
      Cycle event = kNever;
      for (uint32_t s = 0; s < numSms && event > next; ++s) {
        if (needsCycle(s)) event = std::min(event, sms[s]->nextEvent(now + 1));
      }
      if (event > next) {
        event = std::min(event,
                         core.firstCycleAtOrAfter(memorySystem->nextEventPs(core.timeOf(now))));
      }
      if (event == kNever && deadlock.deadline() == kNever) {
        // Nothing can ever happen again and the detector is off: stop now.
        error = deadlockReport(*this, grid, launch, now - start, now - deadlock.stalledSince(), total);
        break;
      }
      const Cycle row = sampler.enabled() ? start + sampler.nextDue() : kNever;
      next = std::max(next, std::min({event, deadlock.deadline(), row}));
    }
    now = next;
  }

  for (auto& sm : sms) {
    sm->finishKernel(now);
    sm->setTrace(nullptr);
  }
  out.result.warpInstructions = grid.warpInstructions;
  out.result.threadInstructions = grid.threadInstructions;
  out.result.ctasExecuted = launch.started;
  if (!error.empty()) {
    out.result.ok = false;
    out.result.error = std::move(error);
    ++now;  // the next launch starts after the one that stopped
  }
  out.cycles = now - start;
  out.simulatedNs = static_cast<double>(core.timeOf(now) - core.timeOf(start)) / 1000.0;
  out.stats = launchStats(out.cycles, grid, resourceManagers[0]->occupancy());
  out.stats["simulated_ns"] = out.simulatedNs;
  if (energy) energy->annotate(out.stats, out.simulatedNs * 1e-9);
  if (sampler.enabled()) out.stats["samples"] = sampler.toJson();
  // A launch that stopped early leaves warps, requests and CTA slots behind: start the next one
  // on fresh hardware (while this launch's CTAs still exist).
  if (!out.result.ok) buildHardware();
  return out;
}

}  // namespace warpsim::timing
