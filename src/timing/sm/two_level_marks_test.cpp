// The two-level scheduler with compiler deschedule marks (instruction_annotations.h): a warp
// that waits for a long-latency result leaves the active set only when its next instruction is
// marked, and at any such stall when no pass published marks.
#include <gtest/gtest.h>

#include <map>

#include <nlohmann/json.hpp>

#include "timing/plugin_registry.h"
#include "timing/sm/i_warp_scheduler.h"
#include "timing/sm/sm_baselines.h"

namespace warpsim::timing {
namespace {

// No warp can issue; `waiting` says whether they wait on memory; slot s's next instruction is pc s.
class WaitingProbe final : public WarpProbe {
 public:
  Stall check(uint32_t) override { return Stall::Scoreboard; }
  bool waitsOnLongLatency(uint32_t) const override { return waiting; }
  void deschedule(uint32_t slot) override { descheduled[slot]++; }
  void activate(uint32_t slot) override { activated[slot]++; }
  bool head(uint32_t slot, uint32_t& function, uint32_t& pc) const override {
    function = 0;
    pc = slot;
    return true;
  }
  bool waiting = false;
  std::map<uint32_t, int> descheduled, activated;
};

std::map<uint32_t, int> demotions(const InstructionAnnotations& notes) {
  config::Tree tree = config::Tree::fromString("[sm.warp_scheduler]\nactive_warps = 2\n");
  PluginRegistry registry;
  registerSmBaselines(registry);
  auto s = registry.make<IWarpScheduler>("two-level", {tree.section("sm.warp_scheduler"), 0, 4, nullptr});
  s->beginKernel(notes);
  s->addWarp(0, 0);
  s->addWarp(1, 1);
  WaitingProbe probe;
  EXPECT_EQ(s->pick(probe), kNoWarp);  // both promoted; neither waits on memory yet
  EXPECT_EQ(probe.activated.size(), 2u);
  probe.waiting = true;
  EXPECT_EQ(s->pick(probe), kNoWarp);
  return probe.descheduled;
}

TEST(TwoLevelMarks, OnlyMarkedInstructionsDemoteWhenAPassPublishedMarks) {
  InstructionAnnotations notes;
  notes.setCodeSizes({2});
  notes.add<DescheduleMark>(kDescheduleMarks).at(0, 1).boundary = true;
  EXPECT_EQ(demotions(notes), (std::map<uint32_t, int>{{1, 1}}));  // slot 0 waits in the active set
}

TEST(TwoLevelMarks, EveryLongLatencyStallDemotesWithoutMarks) {
  EXPECT_EQ(demotions(InstructionAnnotations{}), (std::map<uint32_t, int>{{0, 1}, {1, 1}}));
}

}  // namespace
}  // namespace warpsim::timing
