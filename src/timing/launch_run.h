// Internal: one launch of a concurrent batch while the batch runs (gpu_loop.cpp): what it runs,
// where it stands in its life, its CTA pool and scheduler, and the statistics it gathers over its
// tenures on the SMs (docs/design/timing-model.md "Concurrent launches").
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "func/grid_context.h"
#include "timing/cta_pool.h"
#include "timing/gpu.h"
#include "timing/i_cta_scheduler.h"
#include "timing/instruction_annotations.h"
#include "timing/i_resource_manager.h"
#include "timing/sm/sm.h"

namespace warpsim::timing {

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

struct LaunchRun {
  // Failed: a validation error, never runs (ends at the batch start). Waiting: for launches it
  // comes after. Running: may start CTAs. Finished: every CTA retired, its SMs idle.
  enum class State : uint8_t { Failed, Waiting, Running, Finished };

  LaunchRun(uint32_t index, const BatchLaunch& spec) : index(index), spec(&spec) {}
  LaunchRun(const LaunchRun&) = delete;  // the pool and the SMs point at `grid`
  LaunchRun& operator=(const LaunchRun&) = delete;

  uint32_t index;
  const BatchLaunch* spec;
  State state = State::Failed;
  KernelTiming out;         // what the batch returns for this launch (errors: one line)
  func::GridContext grid;   // prepared unless the launch failed validation
  KernelResources need;     // spec->resources with threads and shared bytes filled in
  Occupancy occupancy;      // per SM, from the Gpu's probe resource manager
  nlohmann::json compiler = nlohmann::json::object();  // IR pass results, by pass name
  InstructionAnnotations annotations;  // the passes' per-instruction tables (shared by the SMs)
  ICtaScheduler* scheduler = nullptr;
  std::optional<CtaPool> pool;
  std::optional<ObserverTrace> trace;  // when spec->options has an observer
  uint64_t total = 0;       // CTAs of the grid
  uint64_t started = 0, retired = 0;
  Cycle start = 0, end = 0;  // core cycles; end is one past the launch's last cycle

  // Statistics summed over the launch's tenures: per SM (null: never bound to the launch), the
  // resource managers' together, and the memory system's from the batch start to `end`.
  std::vector<nlohmann::json> smStats;
  nlohmann::json resources = nlohmann::json::object();
  nlohmann::json memoryStats = nlohmann::json::object();

  const std::string& name() const { return grid.kernelName(); }
  bool running() const { return state == State::Running; }
  bool done() const { return state == State::Failed || state == State::Finished; }
};

}  // namespace warpsim::timing
