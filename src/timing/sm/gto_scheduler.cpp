// Greedy then oldest (see warp_schedulers.h).
#include "timing/sm/warp_schedulers.h"
#include "timing/sm/warps_by_age.h"

namespace warpsim::timing {

namespace {

class GtoScheduler final : public IWarpScheduler {
 public:
  explicit GtoScheduler(const Context& context) { byAge_.reserve(context.warpSlots); }

  void addWarp(uint32_t slot, uint64_t age) override { byAge_.add(slot, age); }
  void removeWarp(uint32_t slot) override {
    byAge_.remove(slot);
    if (last_ == slot) last_ = kNoWarp;
  }
  uint32_t pick(WarpProbe& probe) override {
    if (last_ != kNoWarp && probe.check(last_) == Stall::Issued) return last_;
    for (const WarpsByAge::Entry& e : byAge_) {
      if (e.slot == last_) continue;
      if (probe.check(e.slot) == Stall::Issued) {
        last_ = e.slot;
        return e.slot;
      }
    }
    return kNoWarp;
  }

 private:
  WarpsByAge byAge_;
  uint32_t last_ = kNoWarp;
};

}  // namespace

std::unique_ptr<IWarpScheduler> makeGtoScheduler(const IWarpScheduler::Context& context) {
  return std::make_unique<GtoScheduler>(context);
}

}  // namespace warpsim::timing
