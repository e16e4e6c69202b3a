// Two-level warp scheduling (see warp_schedulers.h).
#include <algorithm>
#include <vector>

#include <nlohmann/json.hpp>

#include "timing/sm/warp_schedulers.h"

namespace warpsim::timing {

namespace {

class TwoLevelScheduler final : public IWarpScheduler {
 public:
  explicit TwoLevelScheduler(const Context& context) {
    config::Section s = context.section;
    activeSize_ = s.u32("active_warps", 8, "two-level: warps in the active set of each scheduler", 1, 64);
    active_.reserve(context.warpSlots);
    pending_.reserve(context.warpSlots);
    demoted_.reserve(context.warpSlots);
  }

  void beginKernel() override { deschedules_ = activations_ = 0; }

  void addWarp(uint32_t slot, uint64_t age) override { pending_.push_back(slot); }
  void removeWarp(uint32_t slot) override {
    active_.erase(std::remove(active_.begin(), active_.end(), slot), active_.end());
    pending_.erase(std::remove(pending_.begin(), pending_.end(), slot), pending_.end());
    if (last_ == slot) last_ = kNoWarp;
  }

  uint32_t pick(WarpProbe& probe) override {
    promote(probe);
    const size_t n = active_.size();
    if (n == 0) return kNoWarp;
    // Greedy: the warp that issued last, then the others round robin after it.
    size_t start = 0;
    if (last_ != kNoWarp) {
      start = static_cast<size_t>(std::find(active_.begin(), active_.end(), last_) - active_.begin());
      if (start == n) start = 0;
    }
    uint32_t picked = kNoWarp;
    demoted_.clear();
    for (size_t i = 0; i < n; ++i) {
      const uint32_t slot = active_[(start + i) % n];
      if (probe.check(slot) == Stall::Issued) {
        picked = slot;
        break;
      }
      if (probe.waitsOnLongLatency(slot)) demoted_.push_back(slot);
    }
    for (uint32_t slot : demoted_) {
      active_.erase(std::find(active_.begin(), active_.end(), slot));
      pending_.push_back(slot);
      probe.deschedule(slot);
      ++deschedules_;
      if (last_ == slot) last_ = kNoWarp;
    }
    if (picked != kNoWarp) last_ = picked;
    return picked;
  }

  void reportStats(nlohmann::json& out) const override {
    out["deschedules"] = deschedules_;
    out["activations"] = activations_;
  }

 private:
  // Fills the active set from the pending pool, oldest-demoted first, skipping warps whose
  // long-latency wait is not over.
  void promote(WarpProbe& probe) {
    for (size_t i = 0; i < pending_.size() && active_.size() < activeSize_;) {
      const uint32_t slot = pending_[i];
      if (probe.waitsOnLongLatency(slot)) {
        ++i;
        continue;
      }
      pending_.erase(pending_.begin() + static_cast<std::ptrdiff_t>(i));
      active_.push_back(slot);
      probe.activate(slot);
      ++activations_;
    }
  }

  uint32_t activeSize_ = 8;
  std::vector<uint32_t> active_, pending_, demoted_;
  uint32_t last_ = kNoWarp;
  uint64_t deschedules_ = 0, activations_ = 0;
};

}  // namespace

std::unique_ptr<IWarpScheduler> makeTwoLevelScheduler(const IWarpScheduler::Context& context) {
  return std::make_unique<TwoLevelScheduler>(context);
}

}  // namespace warpsim::timing
