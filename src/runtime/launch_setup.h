// What Device::run and Device::runConcurrent prepare for every launch: the report being filled,
// the observers the engine feeds (instruction statistics, value profiler) and the engine's run
// options. One object per launch; it must stay where it is while the launch runs (the run
// options point at its observers and at its report's memory findings).
#pragma once
#include <cstdint>
#include <ostream>

#include "func/launch.h"
#include "profile/value_similarity_profiler.h"
#include "runtime/kernel_stats.h"
#include "runtime/launch_report.h"
#include "runtime/module.h"

namespace warpsim::timing {
struct KernelTiming;
}

namespace warpsim::runtime {

struct DeviceOptions;

// Hands every record to two observers, in order.
class BothObservers final : public func::ExecObserver {
 public:
  BothObservers(func::ExecObserver& first, func::ExecObserver& second)
      : first_(first), second_(second) {}
  void onExec(const func::ExecRecord& record) override {
    first_.onExec(record);
    second_.onExec(record);
  }

 private:
  func::ExecObserver& first_;
  func::ExecObserver& second_;
};

// The device-wide settings a launch takes from its Device.
struct LaunchDefaults {
  const DeviceOptions* options = nullptr;
  bool profileValues = false;  // profile.value_similarity
  uint32_t numSms = 0;         // %nsmid
  uint32_t warpQuantum = 1;    // functional.warp_quantum
  uint32_t threads = 1;        // host.threads, resolved
  func::CtaDependence* ctaDependence = nullptr;  // the device's
};

class LaunchSetup {
 public:
  LaunchSetup(const Kernel& kernel, const func::LaunchConfig& config, const LaunchDefaults& defaults);
  LaunchSetup(const LaunchSetup&) = delete;
  LaunchSetup& operator=(const LaunchSetup&) = delete;

  // Timing mode: the timing model's result, cycles, times and statistics into the report.
  void takeTiming(timing::KernelTiming&& timing);
  // After the launch: the observers' statistics into the report.
  void finish();

  LaunchReport report;
  func::RunOptions run;

 private:
  bool profileValues_;
  KernelStatsObserver observer_;
  profile::ValueSimilarityProfiler profiler_;
  BothObservers both_{observer_, profiler_};
};

}  // namespace warpsim::runtime
