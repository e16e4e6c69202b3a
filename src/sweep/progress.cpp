#include "sweep/progress.h"

#include <fmt/format.h>

#include <cmath>

namespace warpsim::sweep {

std::string counted(size_t count, const char* noun) {
  return fmt::format("{} {}{}", count, noun, count == 1 ? "" : "s");
}

std::string formatDuration(double seconds) {
  if (seconds < 60) return fmt::format("{:.1f} s", seconds);
  const long s = std::lround(seconds);
  if (s < 3600) return fmt::format("{}m{:02}s", s / 60, s % 60);
  return fmt::format("{}h{:02}m", s / 3600, (s % 3600) / 60);
}

std::string progressLine(const ProgressCounts& c, double elapsed, double remaining,
                         const char* runningWord) {
  std::string line = fmt::format("sweep: {} passed, {} failed, {} {}, {}; {}", c.passed,
                                 c.failed, c.running, runningWord, counted(c.total, "point"),
                                 formatDuration(elapsed));
  if (remaining >= 0) line += ", about " + formatDuration(remaining) + " left";
  return line;
}

Progress::Progress(std::FILE* out, bool terminal, std::vector<std::string> axisNames,
                   ProgressCounts start, size_t toRun, const char* runningWord)
    : out_(out), terminal_(terminal), axisNames_(std::move(axisNames)), counts_(start),
      toRun_(toRun), runningWord_(runningWord) {}

double Progress::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void Progress::draw() {
  if (!terminal_) return;
  // The rate of this run so far; none before the first point finished.
  double remaining = -1;
  if (finished_ > 0 && toRun_ >= finished_) {
    remaining = elapsed() / static_cast<double>(finished_) * static_cast<double>(toRun_ - finished_);
  }
  fmt::print(out_, "\r\033[K{}", progressLine(counts_, elapsed(), remaining, runningWord_));
  std::fflush(out_);
}

void Progress::started() {
  ++counts_.running;
  draw();
}

void Progress::setRunning(size_t running) {
  counts_.running = running;
  draw();
}

void Progress::finished(const Point& point, const PointResult& result) {
  if (counts_.running > 0) --counts_.running;
  ++finished_;
  (result.status == Status::Pass ? counts_.passed : counts_.failed) += 1;
  const std::string status = result.status == Status::Pass ? "pass" : statusName(result.status);
  std::string line = fmt::format("[{}/{}] {} {} {} {}", finished_, toRun_, status,
                                 formatDuration(result.wallSeconds), point.id,
                                 describeAxes(axisNames_, point.axes));
  if (result.status != Status::Pass) line += " (" + result.reason + ")";
  if (!terminal_ || result.status != Status::Pass) {
    message(line);
  } else {
    draw();
  }
}

void Progress::message(const std::string& line) {
  if (terminal_) fmt::print(out_, "\r\033[K");
  fmt::print(out_, "{}\n", line);
  draw();
  std::fflush(out_);
}

void Progress::tick() { draw(); }

void Progress::close() {
  if (terminal_) fmt::print(out_, "\r\033[K");
  std::fflush(out_);
}

}  // namespace warpsim::sweep
