// Extension point "cta_scheduler": which CTA of a grid starts on which SM, and when.
//
// The GPU calls schedule() once per core cycle while the grid has CTAs that have not started
// (and never when it has none). The scheduler starts CTAs through the CtaDispatcher, which
// knows whether an SM can take one more CTA right now (its resource manager and warp slots
// agree). Each CTA id in [0, numCtas) must be started exactly once; the kernel ends when all
// have started and retired. Implementations must be deterministic and cheap when nothing can
// start (the GPU also calls schedule() after every cycle in which a CTA retired).
//
// Baseline "round-robin" (GPGPU-Sim style): CTAs in linear order (x fastest); SMs visited in
// round-robin order starting after the SM that received the previous CTA; at most one new CTA
// per SM per cycle.
#pragma once
#include <cstdint>

#include <nlohmann/json_fwd.hpp>

#include "config/config.h"
#include "hints/launch_hints.h"
#include "timing/sm_memory.h"

namespace warpsim::timing {

// The GPU's side of CTA placement.
class CtaDispatcher {
 public:
  virtual ~CtaDispatcher() = default;
  virtual uint32_t numSms() const = 0;
  // Whether SM `sm` can start one more CTA of the current kernel this cycle.
  virtual bool canStart(uint32_t sm) const = 0;
  // Starts CTA `cta` (linear id) on SM `sm`; canStart(sm) must be true.
  virtual void start(uint32_t cta, uint32_t sm) = 0;
  // CTAs of the current kernel resident on SM `sm` now (0: it runs none of them).
  virtual uint32_t residentCtas(uint32_t sm) const {
    (void)sm;
    return 0;
  }
};

class ICtaScheduler {
 public:
  static constexpr const char* kPoint = "cta_scheduler";
  struct Context {
    config::Tree* tree = nullptr;   // keys under "cta_scheduler"
    uint32_t numSms = 0;
    uint32_t modules = 1;           // gpu.modules: SM s is in module s / (numSms / modules)
  };
  // What a scheduler may know of the launch it places (beginLaunch).
  struct Launch {
    uint64_t numCtas = 0;
    uint32_t grid[3] = {1, 1, 1};                // CTAs along x, y, z (linear id: x fastest)
    const hints::LaunchHints* hints = nullptr;   // what the program says of its data (nullptr: nothing)
    uint32_t ctasPerSm = 0;                      // CTAs of the launch one SM holds at once (0: not known)
  };
  virtual ~ICtaScheduler() = default;

  // Kernel boundary: a grid of `numCtas` CTAs (linear ids, x fastest).
  virtual void beginKernel(uint64_t numCtas) = 0;
  // The same with the launch's grid and hints, which the GPU calls; schedulers that place CTAs
  // by the grid's shape or the program's hints override it.
  virtual void beginLaunch(const Launch& launch) { beginKernel(launch.numCtas); }
  // Starts any CTAs that should start at core cycle `now`.
  virtual void schedule(CtaDispatcher& dispatcher, Cycle now) = 0;
  // CTAs not started yet.
  virtual uint64_t pending() const = 0;
  // Counters since beginKernel (optional).
  virtual void reportStats(nlohmann::json& out) const {}
};

}  // namespace warpsim::timing
