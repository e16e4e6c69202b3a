// The assist warp controller: deployment into the buffer partitions, in-order issue behind a
// per-instance scoreboard, the scheduler a parent belongs to, blocking of the parent warp, the
// full table, kill and the counters.
#include "timing/sm/assist/assist_warp_controller.h"

#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>

#include "ptx/parser.h"
#include "timing/sm/assist/assist_test_store.h"

namespace warpsim::timing {
namespace {

using Priority = IAssistWarp::Priority;

struct ControllerFixture {
  explicit ControllerFixture(AssistControllerParams p = {}, uint32_t schedulers = 2)
      : awc(store, p, schedulers, 8) {
    awc.beginKernel(20);
  }
  int add(uint32_t parent, Priority p, uint64_t cookie) {
    const uint64_t k = 1;
    uint8_t line[128] = {};
    return awc.trigger(store.require("add_k"), parent, p, ~0u, line, 128, &k, 1, cookie);
  }
  AssistRoutineStore store{ptx::parseModule(testing::kAssistStore, "store.ptx")};
  AssistWarpController awc;
};

// Issues at most one instruction per cycle from `scheduler`, completing each `latency` cycles
// later; returns the cycle at which the controller became idle and the steps' issue cycles.
struct Trace {
  Cycle idleAt = kNever;
  std::vector<std::pair<uint32_t, Cycle>> issued;  // (tag, cycle)
};
Trace drive(AssistWarpController& awc, uint32_t scheduler, Priority p, Cycle latency) {
  Trace t;
  std::multimap<Cycle, uint32_t> pending;
  for (Cycle now = 0; now < 1000; ++now) {
    for (auto it = pending.begin(); it != pending.end() && it->first <= now;) {
      awc.onCompleted(it->second, now);
      it = pending.erase(it);
    }
    if (awc.idle()) {
      t.idleAt = now;
      return t;
    }
    AssistInstr a;
    if (awc.next(scheduler, p, now, a)) {
      awc.onIssued(a, now);
      t.issued.push_back({a.tag, now});
      pending.insert({now + latency, a.tag});
    }
  }
  return t;
}

TEST(AssistWarpController, IssuesInOrderBehindItsScoreboardAndBlocksTheParent) {
  ControllerFixture f;
  ASSERT_EQ(f.add(4, Priority::High, 77), 0);
  EXPECT_TRUE(f.awc.blocksWarp(4));
  EXPECT_FALSE(f.awc.blocksWarp(5));
  AssistInstr a;
  EXPECT_FALSE(f.awc.next(1, Priority::High, 0, a));  // slot 4 belongs to scheduler 0
  EXPECT_FALSE(f.awc.next(0, Priority::Low, 0, a));
  const Trace t = drive(f.awc, 0, Priority::High, 3);
  ASSERT_EQ(t.issued.size(), 9u);
  // ld.param, mov %tid (independent: back to back), shl waits for mov (3 cycles), mov line
  // (independent, deployed 2 per cycle), add waits for shl and mov, ld.shared for add, add for
  // the load, st for the add; exit last.
  const std::vector<Cycle> cycles = {0, 1, 4, 5, 8, 11, 14, 17, 18};
  for (size_t i = 0; i < 9; ++i) {
    EXPECT_EQ(t.issued[i].first & 0xFFFF, i);
    EXPECT_EQ(t.issued[i].second, cycles[i]) << "step " << i;
  }
  EXPECT_EQ(t.idleAt, 21u);
  EXPECT_FALSE(f.awc.blocksWarp(4));
  uint64_t cookie = 0;
  ASSERT_TRUE(f.awc.popFinished(cookie));
  EXPECT_EQ(cookie, 77u);
  EXPECT_FALSE(f.awc.popFinished(cookie));
  EXPECT_EQ(f.awc.counters().completed[0], 1u);
  EXPECT_EQ(f.awc.counters().instructions[0], 9u);
}

TEST(AssistWarpController, RegistersMapAboveTheKernelsAndTheLanesFollowTheRoutine) {
  ControllerFixture f;
  f.add(0, Priority::High, 1);
  AssistInstr a;
  ASSERT_TRUE(f.awc.next(0, Priority::High, 0, a));  // ld.param %r1
  EXPECT_EQ(a.unit, UnitClass::Alu);  // the assist path, not the program's load/store unit
  EXPECT_EQ(a.parentSlot, 0u);
  EXPECT_EQ(a.numSrc, 0u);
  ASSERT_EQ(a.numDst, 1u);
  const ir::Function& fn = f.store.program().module().functions[f.store.require("add_k")];
  EXPECT_EQ(fn.regs[a.dstRegs[0] - 20].name, "%r1");
  EXPECT_EQ(a.activeMask, ~0u);
}

TEST(AssistWarpController, LowPriorityInstancesShareTheirSmallPartition) {
  AssistControllerParams p;
  p.deployWidth = 4;
  p.lowBuffer = 2;
  ControllerFixture f(p);
  f.add(0, Priority::Low, 1);
  f.add(2, Priority::Low, 2);
  AssistInstr a;
  ASSERT_TRUE(f.awc.next(0, Priority::Low, 0, a));  // entry 0 deployed its first two
  f.awc.onIssued(a, 0);
  const uint32_t first = a.tag;
  ASSERT_TRUE(f.awc.next(0, Priority::Low, 0, a));
  EXPECT_EQ(a.tag >> 24, 0u);
  EXPECT_EQ(a.tag & 0xFFFF, 1u);
  f.awc.onIssued(a, 0);
  EXPECT_FALSE(f.awc.next(0, Priority::Low, 0, a));  // nothing more deployed this cycle
  EXPECT_FALSE(f.awc.blocksWarp(0));                 // low priority never blocks its parent
  f.awc.onCompleted(first, 1);
  f.awc.onCompleted(a.tag, 1);
  const Trace t = drive(f.awc, 0, Priority::Low, 1);
  EXPECT_EQ(t.issued.size(), 16u);  // the rest of both
  EXPECT_EQ(f.awc.counters().completed[1], 2u);
}

TEST(AssistWarpController, AFullTableRefusesAndKillFlushesAnEntry) {
  AssistControllerParams p;
  p.tableEntries = 2;
  ControllerFixture f(p);
  EXPECT_EQ(f.add(0, Priority::High, 1), 0);
  EXPECT_EQ(f.add(2, Priority::High, 2), 1);
  EXPECT_EQ(f.add(4, Priority::High, 3), -1);
  EXPECT_EQ(f.awc.counters().refused[0], 1u);
  AssistInstr a;
  ASSERT_TRUE(f.awc.next(0, Priority::High, 0, a));
  f.awc.onIssued(a, 0);
  const uint32_t inFlight = a.tag;
  f.awc.kill(a.tag >> 24);
  EXPECT_FALSE(f.awc.blocksWarp(0));
  EXPECT_EQ(f.awc.counters().killed[0], 1u);
  // The freed entry takes a new instance; the old instruction's completion is ignored.
  EXPECT_EQ(f.add(6, Priority::High, 4), 0);
  f.awc.onCompleted(inFlight, 1);
  const Trace t = drive(f.awc, 0, Priority::High, 1);
  EXPECT_EQ(t.issued.size(), 18u);  // instances 2 and 4 whole
  uint64_t c1 = 0, c2 = 0;
  ASSERT_TRUE(f.awc.popFinished(c1));
  ASSERT_TRUE(f.awc.popFinished(c2));
  EXPECT_EQ(c1 + c2, 6u);
  nlohmann::json s;
  f.awc.reportStats(s);
  EXPECT_EQ(s["triggered"]["high"], 3u);
  EXPECT_EQ(s["refused"]["high"], 1u);
  EXPECT_EQ(s["killed"]["high"], 1u);
  EXPECT_EQ(s["completed"]["high"], 2u);
}

TEST(AssistWarpController, NextEventSaysWhenWorkCanMoveWithoutACompletion) {
  ControllerFixture f;
  EXPECT_EQ(f.awc.nextEvent(5), kNever);
  f.add(0, Priority::High, 1);
  EXPECT_EQ(f.awc.nextEvent(5), 5u);
  AssistInstr a;
  ASSERT_TRUE(f.awc.next(0, Priority::High, 5, a));
  f.awc.onIssued(a, 5);
  ASSERT_TRUE(f.awc.next(0, Priority::High, 5, a));
  f.awc.onIssued(a, 5);
  // shl waits for mov %tid, deployment can go on next cycle.
  EXPECT_EQ(f.awc.nextEvent(6), 6u);
}

}  // namespace
}  // namespace warpsim::timing
