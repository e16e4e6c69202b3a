// Two-level warp scheduling (see warp_schedulers.h).
#include <algorithm>
#include <string>
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
    const std::string demote = s.choice("demote", "auto", {"auto", "stall"},
                                        "two-level: when an active warp that waits for a long-latency result "
                                        "leaves the active set: auto (only at instructions a compiler pass marked "
                                        "as deschedule points, when a pass published them; else at any such "
                                        "stall), stall (at any such stall)");
    useMarks_ = demote == "auto";
    active_.reserve(context.warpSlots);
    pending_.reserve(context.warpSlots);
    demoted_.reserve(context.warpSlots);
  }

  void beginKernel(const InstructionAnnotations& annotations) override {
    deschedules_ = activations_ = 0;
    marks_ = useMarks_ ? annotations.find<DescheduleMark>(kDescheduleMarks) : nullptr;
  }

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
      if (probe.waitsOnLongLatency(slot) && atDeschedulePoint(probe, slot)) demoted_.push_back(slot);
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

  // Without marks every long-latency stall is a deschedule point; with them only a marked next
  // instruction is.
  bool atDeschedulePoint(const WarpProbe& probe, uint32_t slot) const {
    if (marks_ == nullptr) return true;
    uint32_t function = 0, pc = 0;
    return probe.head(slot, function, pc) && marks_->at(function, pc).boundary;
  }

  uint32_t activeSize_ = 8;
  bool useMarks_ = true;
  const AnnotationTable<DescheduleMark>* marks_ = nullptr;
  std::vector<uint32_t> active_, pending_, demoted_;
  uint32_t last_ = kNoWarp;
  uint64_t deschedules_ = 0, activations_ = 0;
};

}  // namespace

std::unique_ptr<IWarpScheduler> makeTwoLevelScheduler(const IWarpScheduler::Context& context) {
  return std::make_unique<TwoLevelScheduler>(context);
}

}  // namespace warpsim::timing
