#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "timing/baselines_internal.h"
#include "timing/i_cta_scheduler.h"
#include "timing/plugin_registry.h"

namespace warpsim::timing {
namespace {

// SMs with a fixed number of CTA slots; records every start.
class FakeDispatcher final : public CtaDispatcher {
 public:
  FakeDispatcher(uint32_t sms, uint32_t slots) : free_(sms, slots) {}
  uint32_t numSms() const override { return static_cast<uint32_t>(free_.size()); }
  bool canStart(uint32_t sm) const override { return free_[sm] != 0; }
  void start(uint32_t cta, uint32_t sm) override {
    --free_[sm];
    starts.emplace_back(cta, sm);
  }
  void retire(uint32_t sm) { ++free_[sm]; }
  std::vector<std::pair<uint32_t, uint32_t>> starts;  // (cta, sm)

 private:
  std::vector<uint32_t> free_;
};

TEST(RoundRobinCtaScheduler, LinearCtasToSmsInTurnOnePerSmPerCycle) {
  config::Tree tree = config::Tree::fromString("");
  PluginRegistry registry;
  registerRoundRobinCtaScheduler(registry);
  auto scheduler = registry.make<ICtaScheduler>("round-robin", {&tree, 3});
  FakeDispatcher d(3, 2);
  scheduler->beginKernel(7);
  scheduler->schedule(d, 0);
  using Starts = std::vector<std::pair<uint32_t, uint32_t>>;
  EXPECT_EQ(d.starts, (Starts{{0, 0}, {1, 1}, {2, 2}}));
  scheduler->schedule(d, 1);
  EXPECT_EQ(d.starts.size(), 6u);
  EXPECT_EQ(scheduler->pending(), 1u);
  scheduler->schedule(d, 2);  // every SM full
  EXPECT_EQ(d.starts.size(), 6u);
  d.retire(1);
  scheduler->schedule(d, 3);
  EXPECT_EQ(d.starts.back(), (std::pair<uint32_t, uint32_t>{6, 1}));
  EXPECT_EQ(scheduler->pending(), 0u);

  // The next kernel starts over at SM 0.
  FakeDispatcher next(3, 1);
  scheduler->beginKernel(2);
  scheduler->schedule(next, 10);
  EXPECT_EQ(next.starts, (Starts{{0, 0}, {1, 1}}));
}

TEST(RoundRobinCtaScheduler, ResumesAfterTheLastSmServed) {
  config::Tree tree = config::Tree::fromString("");
  PluginRegistry registry;
  registerRoundRobinCtaScheduler(registry);
  auto scheduler = registry.make<ICtaScheduler>("round-robin", {&tree, 4});
  FakeDispatcher d(4, 0);
  scheduler->beginKernel(3);
  d.retire(2);
  scheduler->schedule(d, 0);  // only SM 2 has room
  d.retire(1);
  d.retire(3);
  scheduler->schedule(d, 1);  // after SM 2: SM 3 first, then SM 1
  using Starts = std::vector<std::pair<uint32_t, uint32_t>>;
  EXPECT_EQ(d.starts, (Starts{{0, 2}, {1, 3}, {2, 1}}));
}

}  // namespace
}  // namespace warpsim::timing
