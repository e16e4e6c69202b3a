// "oldest-first": every cycle, the oldest warp (admission order) that can issue. Unlike GTO it
// never prefers the warp that issued last, so a young warp issues only when every older warp
// of its scheduler is stalled.
#include <algorithm>
#include <vector>

#include "timing/plugin_registry.h"
#include "timing/sm/i_warp_scheduler.h"

namespace warpsim::timing {

namespace {

class OldestFirstScheduler final : public IWarpScheduler {
 public:
  explicit OldestFirstScheduler(const Context& context) { byAge_.reserve(context.warpSlots); }

  // Warps arrive and leave rarely (once per warp per CTA); keeping them sorted here makes
  // pick(), which runs every cycle, a plain scan.
  void addWarp(uint32_t slot, uint64_t age) override {
    const Entry e{age, slot};
    byAge_.insert(std::upper_bound(byAge_.begin(), byAge_.end(), e,
                                   [](const Entry& a, const Entry& b) { return a.age < b.age; }),
                  e);
  }

  void removeWarp(uint32_t slot) override {
    byAge_.erase(std::remove_if(byAge_.begin(), byAge_.end(),
                                [&](const Entry& e) { return e.slot == slot; }),
                 byAge_.end());
  }

  uint32_t pick(WarpProbe& probe) override {
    for (const Entry& e : byAge_) {
      if (probe.check(e.slot) == Stall::Issued) return e.slot;
    }
    return kNoWarp;
  }

 private:
  struct Entry {
    uint64_t age;
    uint32_t slot;
  };
  std::vector<Entry> byAge_;  // oldest first
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
