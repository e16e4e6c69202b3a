// Baseline CTA scheduler "contiguous": the grid partitioned over the GPU's modules (the
// "distributed" scheduling of first-touch NUMA studies; digest xmem-and-locality-descriptor
// s2.2, [25]).
//
// With M = gpu.modules and N CTAs, module k owns the linear CTA ids [floor(k N / M),
// floor((k + 1) N / M)) and starts them in order on its own SMs, round-robin as "round-robin"
// does over the whole GPU (SMs in turn after the last one served, at most one new CTA per SM per
// cycle). A module whose chunk has all started may take CTAs from another module's chunk (key
// cta_scheduler.steal, default true): its SMs take the last not-started CTA of the chunk with the
// most CTAs left (ties: the lowest module), so the owner keeps its contiguous front; each cycle
// the owners start their own CTAs first, so only CTAs no owner's SM could take are taken (a grid
// smaller than the modules leaves some modules idle rather than moving CTAs off their chunk).
// With one module it places CTAs exactly as "round-robin".
#include <nlohmann/json.hpp>
#include <vector>

#include "timing/baselines_internal.h"
#include "timing/i_cta_scheduler.h"
#include "timing/plugin_registry.h"

namespace warpsim::timing {

namespace {

class ContiguousCtaScheduler final : public ICtaScheduler {
 public:
  explicit ContiguousCtaScheduler(const Context& c)
      : modules_(c.modules == 0 ? 1 : c.modules),
        perModule_(c.numSms / modules_),
        next_(modules_, 0),
        end_(modules_, 0),
        lastSm_(modules_, 0),
        stolen_(0) {
    steal_ = c.tree == nullptr
                 ? true
                 : c.tree->section("cta_scheduler")
                       .flag("steal", true,
                             "contiguous: a module whose CTAs have all started takes CTAs from "
                             "the end of the module with the most left");
  }

  void beginKernel(uint64_t numCtas) override {
    left_ = numCtas;
    stolen_ = 0;
    for (uint32_t k = 0; k < modules_; ++k) {
      next_[k] = numCtas * k / modules_;
      end_[k] = numCtas * (k + 1) / modules_;
      lastSm_[k] = perModule_ - 1;  // the first CTA of each module goes to its first SM
    }
  }

  // Two passes a cycle: every module starts its own CTAs first, then modules whose chunk has all
  // started take others' (so an owner with a free SM is never robbed of its CTA).
  void schedule(CtaDispatcher& dispatcher, Cycle) override {
    for (uint32_t k = 0; k < modules_ && left_ != 0; ++k) startOn(dispatcher, k, false);
    if (!steal_) return;
    for (uint32_t k = 0; k < modules_ && left_ != 0; ++k) {
      if (next_[k] == end_[k]) startOn(dispatcher, k, true);
    }
  }

  uint64_t pending() const override { return left_; }

  void reportStats(nlohmann::json& out) const override { out["stolen_ctas"] = stolen_; }

 private:
  // Starts CTAs on module k's free SMs, in turn after the last one served: its own chunk's next
  // ones, or (stealing) the last of the chunk with the most left.
  void startOn(CtaDispatcher& dispatcher, uint32_t k, bool stealing) {
    const uint32_t base = k * perModule_;
    const uint32_t first = lastSm_[k] + 1;
    for (uint32_t i = 0; i < perModule_ && left_ != 0; ++i) {
      const uint32_t local = (first + i) % perModule_;
      if (!dispatcher.canStart(base + local)) continue;
      uint64_t cta;
      if (!stealing) {
        if (next_[k] == end_[k]) return;
        cta = next_[k]++;
      } else {
        const uint32_t victim = mostLeft();
        if (victim == modules_) return;
        cta = --end_[victim];
        ++stolen_;
      }
      dispatcher.start(static_cast<uint32_t>(cta), base + local);
      lastSm_[k] = local;
      --left_;
    }
  }

  // The module with the most CTAs not started (modules_ when none has any).
  uint32_t mostLeft() const {
    uint32_t best = modules_;
    uint64_t most = 0;
    for (uint32_t k = 0; k < modules_; ++k) {
      if (end_[k] - next_[k] > most) {
        most = end_[k] - next_[k];
        best = k;
      }
    }
    return best;
  }

  uint32_t modules_, perModule_;
  bool steal_ = true;
  std::vector<uint64_t> next_, end_;  // each module's CTAs not started: [next, end)
  std::vector<uint32_t> lastSm_;      // per module, the SM (within it) served last
  uint64_t left_ = 0, stolen_;
};

}  // namespace

void registerContiguousCtaScheduler(PluginRegistry& registry) {
  registry.add<ICtaScheduler>(
      "contiguous",
      "the grid split into gpu.modules contiguous chunks of CTAs, chunk k round-robin over "
      "module k's SMs; a module done with its chunk takes CTAs from the end of the fullest",
      [](const ICtaScheduler::Context& c) { return std::make_unique<ContiguousCtaScheduler>(c); });
}

}  // namespace warpsim::timing
