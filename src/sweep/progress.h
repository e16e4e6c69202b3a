// What a running sweep tells its user on stderr. On a terminal: one progress line, redrawn in
// place ("sweep: 12 passed, 1 failed, 4 running, 40 points; 1m23s, about 3m10s left"), with
// failures printed above it as they happen. Otherwise (a log file, a SLURM task's output): one
// line per finished point, "[3/8] pass 1.2 s 9f8e7d6c5b4a3210 workload=vecadd seed=1".
#pragma once
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "sweep/grid.h"
#include "sweep/result.h"

namespace warpsim::sweep {

// "1 point", "2 points": `count` and the noun, plural unless count is 1.
std::string counted(size_t count, const char* noun);

// "4.2 s", "3m07s", "2h05m".
std::string formatDuration(double seconds);

struct ProgressCounts {
  size_t passed = 0;   // points that passed, before this run too
  size_t failed = 0;   // points that failed or did not verify, before this run too
  size_t running = 0;  // runs in flight (or SLURM points not yet finished)
  size_t total = 0;    // points of the sweep
};
// The terminal line; `remaining` < 0: no estimate yet. `runningWord` is "running" or "pending".
std::string progressLine(const ProgressCounts& c, double elapsed, double remaining,
                         const char* runningWord = "running");

class Progress {
 public:
  // `toRun`: the runs this invocation starts (the [k/N] of the per-point lines).
  Progress(std::FILE* out, bool terminal, std::vector<std::string> axisNames, ProgressCounts start,
           size_t toRun, const char* runningWord = "running");

  void started();
  void finished(const Point& point, const PointResult& result);
  // For the SLURM executor: points not finished yet.
  void setRunning(size_t running);
  // Terminal: redraws the line (call about once a second).
  void tick();
  // Terminal: clears the line (before the closing report).
  void close();
  // Prints a line of its own (above the progress line on a terminal).
  void message(const std::string& line);

  const ProgressCounts& counts() const { return counts_; }
  size_t finishedThisRun() const { return finished_; }

 private:
  void draw();
  double elapsed() const;

  std::FILE* out_;
  bool terminal_;
  std::vector<std::string> axisNames_;
  ProgressCounts counts_;
  size_t toRun_;
  size_t finished_ = 0;
  const char* runningWord_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace warpsim::sweep
