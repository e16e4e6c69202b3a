// The main loop of a batch of launches: core cycles, with the memory system's clock domains
// advanced to the start of each core cycle, CTAs started by the work distributor (each launch's
// CTA scheduler, oldest launch first), SMs stepped, retired CTAs released, launches ended and
// the launches waiting for them started, and idle stretches skipped to the next event
// (docs/design/timing-model.md).
#include <algorithm>

#include <fmt/format.h>

#include "timing/deadlock_detector.h"
#include "timing/gpu_impl.h"
#include "timing/launch_set.h"
#include "timing/progress_line.h"
#include "timing/stats_sampler.h"
#include "timing/stats_totals.h"

namespace warpsim::timing {

namespace {

// Most warp lines a deadlock report carries (the summary says how many were left out).
constexpr size_t kMaxDeadlockLines = 64;

std::string deadlockReport(const Gpu::Impl& gpu, const LaunchRun& launch, Cycle sinceStart,
                           Cycle stalled) {
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
      launch.name(), stalled, sinceStart, launch.retired, launch.total, lines.size(),
      gpu.memorySystem->idle() ? "" : "; memory requests still in flight");
  for (size_t i = 0; i < lines.size() && i < kMaxDeadlockLines; ++i) report += "\n  " + lines[i];
  if (lines.size() > kMaxDeadlockLines) {
    report += fmt::format("\n  ... {} more warp(s)", lines.size() - kMaxDeadlockLines);
  }
  return report;
}

}  // namespace

void Gpu::Impl::simulate(LaunchSet& set) {
  const Cycle start = now;
  if (set.begin(start) == LaunchSet::kNone) return;  // every launch failed validation
  const LaunchRun& first = set[set.first()];

  DeadlockDetector deadlock(deadlockCycles);
  deadlock.begin(now);
  StatsSampler sampler(sampleInterval);
  ProgressLine progress(options.progress, first.name());
  bool mayStart = true;      // something changed that could let a CTA start
  uint64_t issued = 0;       // warp-instructions issued so far (all SMs)
  uint32_t failed = LaunchSet::kNone;  // the launch whose runtime error stops the batch
  std::string error;

  for (;;) {
    memorySystem->advanceTo(core.timeOf(now));
    if (mayStart) mayStart = set.schedule(now);
    bool busy = false;
    for (uint32_t s = 0; s < numSms; ++s) {
      Sm& sm = *sms[s];
      if (!needsCycle(s)) {
        // An SM that just ran dry may go to a launch with CTAs waiting.
        if (set.becameIdle(s)) mayStart = true;
        continue;
      }
      // An SM whose warps all wait (on memory, say) sleeps until its next event, while the
      // others run; the SM accounts the cycles it did not see.
      if (skipIdleCycles && sm.nextEvent(now) > now) {
        busy = true;
        continue;
      }
      sm.cycle(now);
      if (set.retire(s) != 0) mayStart = true;
      if (!sm.error().empty()) {
        error = sm.error();
        failed = set.boundTo(s);
        break;
      }
      busy = busy || !sm.idle();
    }
    if (!error.empty()) break;

    const uint64_t issuedNow = set.issued();
    const bool issuedThisCycle = issuedNow != issued;
    issued = issuedNow;
    deadlock.observe(now, issued + set.retiredCtas() + memorySystem->progress());

    // Launches end when every CTA has retired and their SMs are idle; the last one also waits
    // for its memory traffic (stores in flight) to drain: the next batch starts with an idle
    // memory system. A launch that waited for the ones that ended starts next cycle.
    bool startedLaunch = false;
    if (set.endLaunches(now, busy, startedLaunch)) {
      ++now;
      break;
    }
    if (startedLaunch) mayStart = true;
    failed = set.overInstructionLimit(error);
    if (failed != LaunchSet::kNone) break;
    if (deadlock.stuck(now)) {
      failed = set.oldestRunning();
      error = deadlockReport(*this, set[failed], now - set[failed].start,
                             now - deadlock.stalledSince());
      break;
    }
    if (sampler.due(now - start)) {
      nlohmann::json mem;
      memorySystem->reportStats(mem);
      sampler.record(now - start, set.warpInstructions(), set.threadInstructions(), mem);
    }
    if (options.progress != nullptr) progress.update(now - start, set.threadInstructions());

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
        failed = set.oldestRunning();
        error = deadlockReport(*this, set[failed], now - set[failed].start,
                               now - deadlock.stalledSince());
        break;
      }
      const Cycle row = sampler.enabled() ? start + sampler.nextDue() : kNever;
      next = std::max(next, std::min({event, deadlock.deadline(), row}));
    }
    now = next;
  }

  for (auto& sm : sms) sm->setTrace(nullptr);
  if (failed != LaunchSet::kNone) {
    set.stop(now, failed, std::move(error));
    ++now;  // the next batch starts after the one that stopped
  }
  for (size_t i = 0; i < set.size(); ++i) {
    LaunchRun& r = set[i];
    if (r.state == LaunchRun::State::Failed) continue;
    KernelTiming& out = r.out;
    out.result.warpInstructions = r.grid.warpInstructions;
    out.result.threadInstructions = r.grid.threadInstructions;
    out.result.deviceAtomOps = r.grid.deviceAtomOps;
    out.result.ctasExecuted = r.started;
    out.cycles = r.end - r.start;
    out.startNs = static_cast<double>(core.timeOf(r.start) - core.timeOf(start)) / 1000.0;
    out.simulatedNs = static_cast<double>(core.timeOf(r.end) - core.timeOf(r.start)) / 1000.0;
    if (r.state == LaunchRun::State::Waiting) continue;  // stopped before it could start
    out.stats = launchStats(r);
    out.stats["simulated_ns"] = out.simulatedNs;
    addNumaRates(out.stats);
    if (energy) energy->annotate(out.stats, out.simulatedNs * 1e-9);
    if (sampler.enabled() && i == set.first()) out.stats["samples"] = sampler.toJson();
    out.stats["compiler"] = std::move(r.compiler);
  }
  // A batch that stopped early leaves warps, requests and CTA slots behind: start the next one
  // on fresh hardware (while the launches' CTAs still exist).
  if (failed != LaunchSet::kNone) buildHardware();
}

}  // namespace warpsim::timing
