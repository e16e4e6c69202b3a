// Loose round robin (see warp_schedulers.h).
#include <algorithm>
#include <vector>

#include "timing/sm/warp_schedulers.h"

namespace warpsim::timing {

namespace {

class LrrScheduler final : public IWarpScheduler {
 public:
  explicit LrrScheduler(const Context& context) { slots_.reserve(context.warpSlots); }

  void addWarp(uint32_t slot, uint64_t age) override {
    slots_.insert(std::lower_bound(slots_.begin(), slots_.end(), slot), slot);
  }
  void removeWarp(uint32_t slot) override {
    auto it = std::lower_bound(slots_.begin(), slots_.end(), slot);
    if (it != slots_.end() && *it == slot) slots_.erase(it);
  }
  uint32_t pick(WarpProbe& probe) override {
    const size_t n = slots_.size();
    if (n == 0) return kNoWarp;
    // Start after the last issued warp (slots are kept sorted).
    size_t start = last_ == kNoWarp ? 0
                                    : static_cast<size_t>(std::upper_bound(slots_.begin(), slots_.end(), last_) -
                                                          slots_.begin());
    for (size_t i = 0; i < n; ++i) {
      const uint32_t slot = slots_[(start + i) % n];
      if (probe.check(slot) == Stall::Issued) {
        last_ = slot;
        return slot;
      }
    }
    return kNoWarp;
  }

 private:
  std::vector<uint32_t> slots_;  // sorted
  uint32_t last_ = kNoWarp;
};

}  // namespace

std::unique_ptr<IWarpScheduler> makeLrrScheduler(const IWarpScheduler::Context& context) {
  return std::make_unique<LrrScheduler>(context);
}

}  // namespace warpsim::timing
