// Parallel functional mode: a launch's CTAs on several host threads, with exactly the result of
// running them one after another in linear order (func/functional_gpu.h): the same device memory
// byte for byte, the same printf output in the same order, the same counters, the same first
// error.
//
// CTAs run in batches. Within a batch each CTA runs speculatively on a thread of its own view of
// global memory (func/speculative_memory.h): it reads memory as the batch found it and keeps its
// writes to itself. Then, in linear order, each CTA is checked against the bytes the CTAs before
// it in the batch wrote: a CTA that read none of them saw what it would have seen running after
// them, and its writes, printf text, counters and findings are applied; one that did, or that
// stopped with an error or near the instruction limit, is run again at that point, against
// memory that now holds everything before it, and applied. Atomics read and write their bytes,
// so CTAs that update the same counters run again; when most of a batch has to, the rest of the
// launch runs one CTA after another. docs/design/parallel-functional.md has the design.
#pragma once
#include <cstdint>
#include <map>
#include <utility>

#include "func/grid_context.h"
#include "func/launch.h"
#include "func/program.h"

namespace warpsim::func {

// What the launches of a device taught about their kernels: those whose CTAs mostly read what
// earlier CTAs wrote (atomics on shared counters, say) run one CTA after another for their next
// kRetryAfter launches instead of wasting a batch each time, then try again.
class CtaDependence {
 public:
  static constexpr uint32_t kRetryAfter = 8;
  // Whether the next launch of `function` of `program` should run its CTAs one after another.
  bool runInOrder(const Program* program, uint32_t function);
  void noteDependent(const Program* program, uint32_t function);

 private:
  std::map<std::pair<const Program*, uint32_t>, uint32_t> inOrderLaunchesLeft_;
};

// Whether a launch can run its CTAs in parallel: more than one thread and one CTA, no observer
// or one that takes CTAs in parts (ExecObserver::newPart), no initialisation tracking, not
// cooperative.
bool canRunCtasInParallel(const GridContext& grid);

// Runs the CTAs of `grid` on grid.options->threads threads (the calling thread among them),
// filling `result` as the one-after-another loop of runKernel does.
void runCtasInParallel(GridContext& grid, LaunchResult& result);

}  // namespace warpsim::func
