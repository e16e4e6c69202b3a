#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <utility>
#include <vector>

#include "timing/baselines_internal.h"
#include "timing/i_cta_scheduler.h"
#include "timing/plugin_registry.h"

namespace warpsim::timing {
namespace {

using Starts = std::vector<std::pair<uint32_t, uint32_t>>;  // (cta, sm)

class SlotDispatcher final : public CtaDispatcher {
 public:
  SlotDispatcher(uint32_t sms, uint32_t slots) : free_(sms, slots) {}
  uint32_t numSms() const override { return static_cast<uint32_t>(free_.size()); }
  bool canStart(uint32_t sm) const override { return free_[sm] != 0; }
  void start(uint32_t cta, uint32_t sm) override {
    --free_[sm];
    starts.emplace_back(cta, sm);
  }
  void retire(uint32_t sm) { ++free_[sm]; }
  Starts starts;

 private:
  std::vector<uint32_t> free_;
};

std::unique_ptr<ICtaScheduler> make(config::Tree& tree, uint32_t sms, uint32_t modules) {
  PluginRegistry registry;
  registerContiguousCtaScheduler(registry);
  return registry.make<ICtaScheduler>("contiguous", {&tree, sms, modules});
}

// 2 modules x 2 SMs, 10 CTAs: module 0 owns CTAs 0-4 (SMs 0, 1), module 1 CTAs 5-9 (SMs 2, 3).
TEST(ContiguousCtaScheduler, ContiguousChunksRoundRobinWithinEachModule) {
  config::Tree tree = config::Tree::fromString("");
  auto s = make(tree, 4, 2);
  SlotDispatcher d(4, 2);
  s->beginKernel(10);
  s->schedule(d, 0);
  EXPECT_EQ(d.starts, (Starts{{0, 0}, {1, 1}, {5, 2}, {6, 3}}));
  s->schedule(d, 1);
  EXPECT_EQ(d.starts, (Starts{{0, 0}, {1, 1}, {5, 2}, {6, 3}, {2, 0}, {3, 1}, {7, 2}, {8, 3}}));
  EXPECT_EQ(s->pending(), 2u);
  d.retire(3);
  s->schedule(d, 2);
  EXPECT_EQ(d.starts.back(), (std::pair<uint32_t, uint32_t>{9, 3}));
  // Module 1 is done: its SM 2 takes the last CTA left of module 0's chunk.
  d.retire(2);
  s->schedule(d, 3);
  EXPECT_EQ(d.starts.back(), (std::pair<uint32_t, uint32_t>{4, 2}));
  EXPECT_EQ(s->pending(), 0u);
}

TEST(ContiguousCtaScheduler, UnevenGridAndNoStealing) {
  config::Tree tree = config::Tree::fromString("[cta_scheduler]\nsteal = false\n");
  auto s = make(tree, 4, 4);  // one SM per module; 6 CTAs: chunks {0}, {1, 2}, {3}, {4, 5}
  SlotDispatcher d(4, 1);
  s->beginKernel(6);
  s->schedule(d, 0);
  EXPECT_EQ(d.starts, (Starts{{0, 0}, {1, 1}, {3, 2}, {4, 3}}));
  d.retire(0);
  d.retire(2);
  s->schedule(d, 1);  // modules 0 and 2 are done and may not steal
  EXPECT_EQ(d.starts.size(), 4u);
  d.retire(1);
  d.retire(3);
  s->schedule(d, 2);
  EXPECT_EQ(d.starts.back(), (std::pair<uint32_t, uint32_t>{5, 3}));
  EXPECT_EQ(d.starts[4], (std::pair<uint32_t, uint32_t>{2, 1}));
  EXPECT_EQ(s->pending(), 0u);
}

// A grid smaller than the modules: chunks {}, {0}, {1}, {2}; module 0 has nothing of its own and
// takes nothing the owners can start themselves.
TEST(ContiguousCtaScheduler, OwnersStartTheirCtasBeforeOthersSteal) {
  config::Tree tree = config::Tree::fromString("");
  auto s = make(tree, 4, 4);
  SlotDispatcher d(4, 1);
  s->beginKernel(3);
  s->schedule(d, 0);
  EXPECT_EQ(d.starts, (Starts{{0, 1}, {1, 2}, {2, 3}}));
  nlohmann::json stats;
  s->reportStats(stats);
  EXPECT_EQ(stats["stolen_ctas"], 0);
}

// One module: the same placement as round-robin.
TEST(ContiguousCtaScheduler, OneModuleIsRoundRobin) {
  config::Tree tree = config::Tree::fromString("");
  PluginRegistry registry;
  registerContiguousCtaScheduler(registry);
  registerRoundRobinCtaScheduler(registry);
  auto a = registry.make<ICtaScheduler>("contiguous", {&tree, 3, 1});
  auto b = registry.make<ICtaScheduler>("round-robin", {&tree, 3, 1});
  SlotDispatcher da(3, 2), db(3, 2);
  a->beginKernel(7);
  b->beginKernel(7);
  for (Cycle c = 0; c < 4; ++c) {
    a->schedule(da, c);
    b->schedule(db, c);
    if (c == 2) {
      da.retire(1);
      db.retire(1);
    }
  }
  EXPECT_EQ(da.starts, db.starts);
}

}  // namespace
}  // namespace warpsim::timing
