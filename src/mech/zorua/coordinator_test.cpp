// The coordinator's admission order, its oversubscription rules and the threshold controller,
// on hand-made SMs small enough to follow every decision (exact traces).
#include "mech/zorua/coordinator.h"

#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "mech/zorua/threshold_controller.h"

namespace warpsim::mech::zorua {
namespace {

// Records what the coordinator tells the SM, as "+3" (slot 3 schedulable), "-3" (held) and
// "off3:5" (slot 3's off-chip register sets, hex).
struct FakeGate final : WarpGate {
  std::vector<std::string> trace;
  IssueActivity activity;
  std::vector<uint64_t> regs = std::vector<uint64_t>(8 * 32 * 16, 0);
  void setSchedulable(uint32_t slot, bool on) override { trace.push_back(fmt::format("{}{}", on ? '+' : '-', slot)); }
  void setOffChipRegisters(uint32_t slot, uint64_t sets) override {
    trace.push_back(fmt::format("off{}:{:x}", slot, sets));
  }
  IssueActivity issueActivity() const override { return activity; }
  uint32_t schedulerCount() const override { return 1; }
  void moveData(uint64_t address, bool store, uint32_t tag) override { moves.push_back({address, store, tag}); }
  void spendIssueSlot(uint32_t slot) override { trace.push_back(fmt::format("spec{}", slot)); }
  uint64_t* warpRegisters(uint32_t slot, uint32_t* count) override {
    *count = 16;
    return regs.data() + size_t{slot} * 32 * 16;
  }
  struct Move {
    uint64_t address;
    bool store;
    uint32_t tag;
  };
  std::vector<Move> moves;
  std::string take() {
    std::string s;
    for (const auto& t : trace) s += (s.empty() ? "" : " ") + t;
    trace.clear();
    return s;
  }
};

struct FakeSwap final : SwapPath {
  std::vector<std::string> trace;
  void spillRegisters(uint32_t slot, uint64_t sets, Cycle) override { trace.push_back(fmt::format("spill{}:{:x}", slot, sets)); }
  void fillRegisters(uint32_t slot, uint64_t sets, Cycle) override { trace.push_back(fmt::format("fill{}:{:x}", slot, sets)); }
  void spillShared(uint32_t cta, uint32_t first, uint32_t count, Cycle) override {
    trace.push_back(fmt::format("sspill{}:{}+{}", cta, first, count));
  }
  void fillShared(uint32_t cta, uint32_t first, uint32_t count, Cycle) override {
    trace.push_back(fmt::format("sfill{}:{}+{}", cta, first, count));
  }
  void saveWarp(uint32_t slot, Cycle) override { trace.push_back(fmt::format("save{}", slot)); }
  void restoreWarp(uint32_t slot, Cycle) override { trace.push_back(fmt::format("restore{}", slot)); }
  std::string take() {
    std::string s;
    for (const auto& t : trace) s += (s.empty() ? "" : " ") + t;
    trace.clear();
    return s;
  }
};

ResourcePhase phase(uint32_t id, uint64_t sets, uint32_t sharedBytes = 0) {
  ResourcePhase p;
  p.phase = id;
  p.registerSets = sets;
  p.sharedBytes = sharedBytes;
  return p;
}

// 4 warp slots, 8 register sets, 4 scratchpad sets of 1 KB; no swap unless a test allows it.
CoordinatorParams tiny() {
  CoordinatorParams p;
  p.warpSlots = 4;
  p.registerSets = 8;
  p.scratchpadSets = 4;
  p.logicalWarps = 8;
  p.logicalCtas = 4;
  p.oversubscribe = false;
  p.minParallelism = 0.0;
  return p;
}

KernelResources kernel(uint32_t threads, uint32_t regs, uint32_t shared) {
  KernelResources k;
  k.threadsPerCta = threads;
  k.registersPerThread = regs;
  k.sharedBytesPerCta = shared;
  return k;
}

TEST(ZoruaCoordinator, GrantsWholeNeedsAndAdmitsWaitingWarpsWhenAPhaseShrinks) {
  FakeGate gate;
  FakeSwap swap;
  Coordinator c(tiny(), gate, swap);
  c.beginKernel(kernel(64, 12, 1024), 0);
  const ResourcePhase big = phase(1, 0b111, 1024);
  ResourcePhase small = phase(2, 0b1, 1024);
  small.specifier = true;  // entered at its first instruction: the specifier takes an issue slot
  c.ctaArrive(0, 2);
  c.warpStart(0, 0, &big, 0);
  c.warpStart(1, 0, &big, 0);
  EXPECT_EQ(gate.take(), "+0 +1");
  EXPECT_EQ(c.physicalFree(Resource::Registers), 2u);
  EXPECT_EQ(c.physicalFree(Resource::Scratchpad), 3u);  // one set per CTA
  c.ctaArrive(1, 2);
  c.warpStart(2, 1, &big, 1);
  c.warpStart(3, 1, &big, 1);
  EXPECT_EQ(gate.take(), "");  // 3 sets each, 2 free: both wait, holding nothing
  EXPECT_EQ(c.physicalFree(Resource::WarpSlots), 2u);
  c.phaseChange(0, small, 2);  // warp 0 gives back 2 sets: 4 free, warp 2 fits, warp 3 not
  EXPECT_EQ(gate.take(), "spec0 +2");
  EXPECT_EQ(c.physicalFree(Resource::Registers), 1u);
  c.warpExit(1, 3);  // 3 more sets and a slot
  EXPECT_EQ(gate.take(), "+3");
  EXPECT_EQ(c.physicalFree(Resource::Registers), 1u);
  EXPECT_EQ(c.physicalFree(Resource::WarpSlots), 1u);
  EXPECT_EQ(c.schedulableWarps(), 3u);  // 0, 2 and 3
  EXPECT_EQ(swap.take(), "");
}

TEST(ZoruaCoordinator, SpecifiersAreFreeAnnotationsWhenTheKeySaysSo) {
  CoordinatorParams p = tiny();
  p.specifierIssueSlot = false;
  FakeGate gate;
  FakeSwap swap;
  Coordinator c(p, gate, swap);
  c.beginKernel(kernel(32, 4, 0), 0);
  ResourcePhase first = phase(1, 0b1);
  first.specifier = true;
  c.ctaArrive(0, 1);
  c.warpStart(0, 0, &first, 0);
  EXPECT_EQ(gate.take(), "+0");
}

TEST(ZoruaCoordinator, TheRegisterQueueGoesBeforeOlderWarpsInTheThreadQueue) {
  FakeGate gate;
  FakeSwap swap;
  Coordinator c(tiny(), gate, swap);
  c.beginKernel(kernel(32, 16, 0), 0);
  c.ctaArrive(0, 1);
  c.ctaArrive(1, 1);
  c.ctaArrive(2, 1);
  const ResourcePhase four = phase(1, 0b1111), two = phase(2, 0b11), six = phase(3, 0b111111);
  c.warpStart(0, 0, &four, 0);
  c.warpStart(1, 1, &four, 0);  // all 8 sets taken
  EXPECT_EQ(gate.take(), "+0 +1");
  c.warpStart(2, 2, &two, 1);   // holds nothing yet: the thread queue
  EXPECT_EQ(gate.take(), "");
  c.phaseChange(1, six, 2);     // warp 1 wants 2 more sets: held, register queue
  EXPECT_EQ(gate.take(), "-1");
  c.phaseChange(0, two, 3);     // 2 sets free: the register queue (warp 1) before warp 2
  EXPECT_EQ(gate.take(), "+1");
  EXPECT_EQ(c.physicalFree(Resource::Registers), 0u);
  EXPECT_FALSE(c.schedulable(2));
}

TEST(ZoruaCoordinator, BelowMinimumParallelismItOversubscribesEvenWithoutSwapAllowed) {
  CoordinatorParams p = tiny();
  p.minParallelism = 0.5;  // 2 of the 4 warp slots
  FakeGate gate;
  FakeSwap swap;
  Coordinator c(p, gate, swap);
  c.beginKernel(kernel(32, 32, 0), 0);
  c.ctaArrive(0, 1);
  c.ctaArrive(1, 1);
  const ResourcePhase all = phase(1, 0xFF), two = phase(2, 0b11);
  c.warpStart(0, 0, &all, 0);
  EXPECT_EQ(gate.take(), "+0");
  c.countAccess(0, 0b11111100);  // sets 0 and 1 are the least used
  c.warpStart(1, 1, &two, 1);    // 1 schedulable < 2: forced; warp 0's sets 0, 1 go to swap
  EXPECT_EQ(swap.take(), "spill0:3");
  EXPECT_EQ(gate.take(), "off0:3 +1");
  EXPECT_EQ(c.swapUsed(Resource::Registers), 2u);
  // Warp 0 touches set 1: it comes back in exchange for warp 1's least used set (set 1).
  c.countAccess(1, 0b1);
  c.accessOffChip(0, 0b10, 5);
  EXPECT_EQ(swap.take(), "spill1:2 fill0:2");
  EXPECT_EQ(c.swapUsed(Resource::Registers), 2u);
  c.registersFilled(0, 0b10, 9);
  EXPECT_EQ(gate.take(), "off1:2 off0:1");
}

TEST(ZoruaCoordinator, WithinTheThresholdItSwapsAndBeyondItWaits) {
  CoordinatorParams p = tiny();
  p.oversubscribe = true;
  p.threshold.initial = 0.25;  // 2 of 8 register sets, 1 of 4 slots and scratchpad sets
  p.threshold.adaptive = false;
  FakeGate gate;
  FakeSwap swap;
  Coordinator c(p, gate, swap);
  c.beginKernel(kernel(32, 32, 0), 0);
  EXPECT_EQ(c.threshold(Resource::Registers), 2u);
  for (uint32_t i = 0; i < 3; ++i) c.ctaArrive(i, 1);
  const ResourcePhase six = phase(1, 0b111111), four = phase(1, 0b1111), one = phase(1, 0b1);
  c.warpStart(0, 0, &six, 0);
  c.warpStart(1, 1, &four, 0);  // 2 free + 2 swapped (warp 0's sets 5 and 4: ties, highest)
  c.warpStart(2, 2, &one, 0);   // would be a third in swap
  EXPECT_EQ(gate.take(), "+0 off0:30 +1");
  EXPECT_EQ(swap.take(), "spill0:30");
  EXPECT_EQ(c.swapUsed(Resource::Registers), 2u);
  EXPECT_FALSE(c.schedulable(2));
  c.warpExit(1, 4);  // 4 sets back: warp 2 fits on chip
  EXPECT_EQ(gate.take(), "+2");
}

TEST(ZoruaCoordinator, AWarpAtABarrierGivesItsSlotAndIsRestoredAfterTheBarrier) {
  FakeGate gate;
  FakeSwap swap;
  CoordinatorParams p = tiny();
  p.warpSlots = 2;
  Coordinator c(p, gate, swap);
  c.beginKernel(kernel(64, 4, 0), 0);
  const ResourcePhase one = phase(1, 0b1);
  c.ctaArrive(0, 2);
  c.ctaArrive(1, 1);
  c.warpStart(0, 0, &one, 0);
  c.warpStart(1, 0, &one, 0);
  c.warpStart(2, 1, &one, 0);  // no slot
  EXPECT_EQ(gate.take(), "+0 +1");
  c.barrierWait(0, 3);  // warp 0's slot goes to warp 2
  EXPECT_EQ(gate.take(), "-0 +2");
  EXPECT_EQ(c.schedulableWarps(), 2u);  // 1 and 2; 0 waits at the barrier
  EXPECT_EQ(swap.take(), "save0");
  c.warpExit(2, 6);
  c.barrierRelease(0, 7);  // the freed slot, then the state comes back
  EXPECT_EQ(swap.take(), "restore0");
  EXPECT_EQ(gate.take(), "");
  c.warpRestored(0, 9);
  EXPECT_EQ(gate.take(), "+0");
  EXPECT_EQ(c.schedulableWarps(), 2u);  // 0 and 1
}

TEST(ZoruaThreshold, FollowsAlgorithm3) {
  ThresholdParams p;  // 10%, step 4%, delta 16
  ThresholdController t(p, 256);
  EXPECT_EQ(t.threshold(), 26u);               // round(25.6)
  EXPECT_EQ(t.endEpoch(100, 0), 36u);          // idle grew by 100 > 16: +10 (round(10.24))
  EXPECT_EQ(t.endEpoch(100, 0), 36u);          // no change from the last epoch
  EXPECT_EQ(t.endEpoch(116, 0), 36u);          // +16 is not more than the delta
  EXPECT_EQ(t.endEpoch(133, 0), 46u);          // +17 is
  EXPECT_EQ(t.endEpoch(0, 50), 36u);           // memory grew, idle fell
  EXPECT_EQ(t.raises(), 2u);
  EXPECT_EQ(t.lowers(), 1u);
  ThresholdController low(p, 20);              // 2, step 1
  EXPECT_EQ(low.endEpoch(0, 100), 1u);
  EXPECT_EQ(low.endEpoch(0, 200), 0u);
  EXPECT_EQ(low.endEpoch(0, 300), 0u);         // never below zero
}

}  // namespace
}  // namespace warpsim::mech::zorua
