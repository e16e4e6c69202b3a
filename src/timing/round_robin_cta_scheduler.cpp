// Baseline CTA scheduler "round-robin" (see i_cta_scheduler.h).
#include <nlohmann/json.hpp>

#include "timing/baselines_internal.h"
#include "timing/i_cta_scheduler.h"
#include "timing/plugin_registry.h"

namespace warpsim::timing {

namespace {

class RoundRobinCtaScheduler final : public ICtaScheduler {
 public:
  explicit RoundRobinCtaScheduler(const Context& context) : numSms_(context.numSms) {}

  void beginKernel(uint64_t numCtas) override {
    total_ = numCtas;
    next_ = 0;
    lastSm_ = numSms_ - 1;  // the first CTA goes to SM 0
  }

  void schedule(CtaDispatcher& dispatcher, Cycle now) override {
    const uint32_t n = dispatcher.numSms();
    const uint32_t first = lastSm_ + 1;
    for (uint32_t i = 0; i < n && next_ < total_; ++i) {
      const uint32_t sm = (first + i) % n;
      if (!dispatcher.canStart(sm)) continue;
      dispatcher.start(static_cast<uint32_t>(next_++), sm);
      lastSm_ = sm;
    }
  }

  uint64_t pending() const override { return total_ - next_; }

 private:
  uint32_t numSms_;
  uint64_t total_ = 0, next_ = 0;
  uint32_t lastSm_ = 0;
};

}  // namespace

void registerRoundRobinCtaScheduler(PluginRegistry& registry) {
  registry.add<ICtaScheduler>(
      "round-robin",
      "CTAs in linear order, SMs in turn after the last one served, one new CTA per SM per cycle",
      [](const ICtaScheduler::Context& c) { return std::make_unique<RoundRobinCtaScheduler>(c); });
}

}  // namespace warpsim::timing
