// The live progress line of a long run on a terminal: kernel, simulated cycles and simulation
// speed, redrawn in place at most about four times per second and erased when the launch ends.
// Silent without a stream (output not a terminal, or --quiet).
#pragma once
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace warpsim::timing {

class ProgressLine {
 public:
  ProgressLine(std::FILE* out, std::string kernel);
  ~ProgressLine();
  // Cheap to call often: looks at the clock only every few thousand calls.
  void update(uint64_t cycles, uint64_t threadInstructions) {
    if (out_ == nullptr || ++calls_ < kCallsPerClockCheck) return;
    calls_ = 0;
    redraw(cycles, threadInstructions);
  }

 private:
  static constexpr uint32_t kCallsPerClockCheck = 4096;
  void redraw(uint64_t cycles, uint64_t threadInstructions);

  std::FILE* out_;
  std::string kernel_;
  uint32_t calls_ = 0;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace warpsim::timing
