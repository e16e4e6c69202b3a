// Greedy then oldest (see warp_schedulers.h).
#include <algorithm>
#include <vector>

#include "timing/sm/warp_schedulers.h"

namespace warpsim::timing {

namespace {

class GtoScheduler final : public IWarpScheduler {
 public:
  explicit GtoScheduler(const Context& context) { byAge_.reserve(context.warpSlots); }

  void addWarp(uint32_t slot, uint64_t age) override {
    const Entry e{age, slot};
    byAge_.insert(std::upper_bound(byAge_.begin(), byAge_.end(), e,
                                   [](const Entry& a, const Entry& b) { return a.age < b.age; }),
                  e);
  }
  void removeWarp(uint32_t slot) override {
    byAge_.erase(std::remove_if(byAge_.begin(), byAge_.end(), [&](const Entry& e) { return e.slot == slot; }),
                 byAge_.end());
    if (last_ == slot) last_ = kNoWarp;
  }
  uint32_t pick(WarpProbe& probe) override {
    if (last_ != kNoWarp && probe.check(last_) == Stall::Issued) return last_;
    for (const Entry& e : byAge_) {
      if (e.slot == last_) continue;
      if (probe.check(e.slot) == Stall::Issued) {
        last_ = e.slot;
        return e.slot;
      }
    }
    return kNoWarp;
  }

 private:
  struct Entry {
    uint64_t age;
    uint32_t slot;
  };
  std::vector<Entry> byAge_;  // oldest first
  uint32_t last_ = kNoWarp;
};

}  // namespace

std::unique_ptr<IWarpScheduler> makeGtoScheduler(const IWarpScheduler::Context& context) {
  return std::make_unique<GtoScheduler>(context);
}

}  // namespace warpsim::timing
