// "oldest-first": every cycle, the oldest warp (admission order) that can issue. Unlike GTO it
// never prefers the warp that issued last, so a young warp issues only when every older warp
// of its scheduler is stalled.
#include "timing/plugin_registry.h"
#include "timing/sm/i_warp_scheduler.h"
#include "timing/sm/warps_by_age.h"

namespace warpsim::timing {

namespace {

class OldestFirstScheduler final : public IWarpScheduler {
 public:
  explicit OldestFirstScheduler(const Context& context) { byAge_.reserve(context.warpSlots); }

  void addWarp(uint32_t slot, uint64_t age) override { byAge_.add(slot, age); }
  void removeWarp(uint32_t slot) override { byAge_.remove(slot); }

  uint32_t pick(WarpProbe& probe) override {
    for (const WarpsByAge::Entry& e : byAge_) {
      if (probe.check(e.slot) == Stall::Issued) return e.slot;
    }
    return kNoWarp;
  }

 private:
  WarpsByAge byAge_;
};

}  // namespace

// Called by the generated registerMechanisms() (src/mech/CMakeLists.txt).
void registerMechanism_example_oldest_first(PluginRegistry& registry) {
  registry.add<IWarpScheduler>("oldest-first", "the oldest warp that can issue, every cycle",
                               [](const IWarpScheduler::Context& context) {
                                 return std::make_unique<OldestFirstScheduler>(context);
                               });
}

}  // namespace warpsim::timing
