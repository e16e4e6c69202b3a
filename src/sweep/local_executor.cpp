#include "sweep/local_executor.h"

#include <sys/wait.h>

#include <cerrno>
#include <chrono>
#include <map>

#include "sweep/child_process.h"
#include "sweep/point_job.h"
#include "sweep/signal_waiter.h"

namespace warpsim::sweep {

namespace {

struct Running {
  const Point* point;
  std::chrono::steady_clock::time_point start;
};

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

LocalOutcome runLocally(const OutDir& dir, const std::vector<const Point*>& points,
                        const LocalOptions& options, Progress& progress) {
  SignalWaiter signals;  // before the first fork, so that no SIGCHLD is missed
  const std::string host = hostName();
  const unsigned jobs = options.jobs == 0 ? 1 : options.jobs;
  std::map<pid_t, Running> running;
  LocalOutcome outcome;
  size_t next = 0;
  try {
    while (next < points.size() || !running.empty()) {
      while (!signals.stopRequested() && next < points.size() && running.size() < jobs) {
        const Point* p = points[next++];
        running[startPoint(dir, *p, options.warpsim)] = Running{p, std::chrono::steady_clock::now()};
        progress.started();
      }
      if (signals.stopRequested()) break;
      // Reap every run that ended; then sleep until the next signal (or redraw the line).
      int status = 0;
      pid_t pid;
      while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
        auto it = running.find(pid);
        if (it == running.end()) continue;
        const PointResult r =
            finishPoint(dir, *it->second.point, status, secondsSince(it->second.start), host);
        (r.status == Status::Pass ? outcome.passed : outcome.failed) += 1;
        progress.finished(*it->second.point, r);
        running.erase(it);
      }
      if (!running.empty() && (running.size() == jobs || next >= points.size())) {
        if (signals.wait(1.0) == 0) progress.tick();
      }
    }
  } catch (...) {
    for (auto& [pid, r] : running) killGroup(pid);
    for (auto& [pid, r] : running) waitpid(pid, nullptr, 0);
    throw;
  }
  if (signals.stopRequested()) {
    outcome.interrupted = true;
    for (auto& [pid, r] : running) killGroup(pid);
    for (auto& [pid, r] : running) {
      while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
      }
      discardPoint(dir, *r.point);
    }
  }
  return outcome;
}

}  // namespace warpsim::sweep
