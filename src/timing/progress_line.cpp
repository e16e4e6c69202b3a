#include "timing/progress_line.h"

#include <fmt/format.h>

namespace warpsim::timing {

namespace {
constexpr auto kMinInterval = std::chrono::milliseconds(250);
}

ProgressLine::ProgressLine(std::FILE* out, std::string kernel)
    : out_(out), kernel_(std::move(kernel)) {
  start_ = last_ = std::chrono::steady_clock::now();
}

ProgressLine::~ProgressLine() {
  if (drawn_) {
    std::fputs("\r\033[K", out_);  // erase the line
    std::fflush(out_);
  }
}

void ProgressLine::redraw(uint64_t cycles, uint64_t threadInstructions) {
  const auto now = std::chrono::steady_clock::now();
  if (now - last_ < kMinInterval) return;
  last_ = now;
  const double seconds = std::chrono::duration<double>(now - start_).count();
  const double rate = seconds > 0 ? static_cast<double>(threadInstructions) / seconds : 0.0;
  fmt::print(out_, "\r\033[K{}: {} cycles, {:.2f} M thread-inst/s, {:.1f} s", kernel_, cycles,
             rate / 1e6, seconds);
  std::fflush(out_);
  drawn_ = true;
}

}  // namespace warpsim::timing
