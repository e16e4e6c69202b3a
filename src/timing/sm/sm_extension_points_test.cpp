// The SM's extension points seen from a model: a register-file model receives values, masks
// and warp events; an assist-warp model's instructions take issue slots with priority.
#include <gtest/gtest.h>

#include <algorithm>

#include "timing/sm/banked_register_file.h"
#include "timing/sm/i_assist_warp.h"
#include "timing/sm/sm_test_harness.h"

namespace warpsim::timing {
namespace {

using testing::SmHarness;
using testing::testConfig;

// Wraps the banked model and records the hooks and the values it is given at write-back.
class RecordingRegisterFile final : public IRegisterFile {
 public:
  struct Log {
    int starts = 0, exits = 0, deschedules = 0, activations = 0;
    std::vector<uint64_t> lane0Values;  // lane 0 of the first destination of every write
    std::vector<uint32_t> masks;
    std::vector<uint8_t> readWide, writeWide;  // wideMask of every read / write
    ExecutionWidth width;                      // what executionWidth answers
  };
  RecordingRegisterFile(const Context& c, Log* log) : inner_(makeBankedRegisterFile(c)), log_(log) {}
  uint32_t collectorsPerPartition() const override { return inner_->collectorsPerPartition(); }
  bool canAllocate(uint32_t p) const override { return inner_->canAllocate(p); }
  uint32_t allocate(const RegisterRead& r, Cycle now) override {
    log_->readWide.push_back(r.wideMask);
    return inner_->allocate(r, now);
  }
  ExecutionWidth executionWidth(uint32_t) const override { return log_->width; }
  uint64_t ready(uint32_t p, Cycle now) const override { return inner_->ready(p, now); }
  void release(uint32_t c) override { inner_->release(c); }
  void write(const RegisterWrite& w, Cycle now) override {
    log_->lane0Values.push_back(w.values[0][0]);
    log_->masks.push_back(w.activeMask);
    log_->writeWide.push_back(w.wideMask);
    inner_->write(w, now);
  }
  bool popWritten(uint32_t& tag) override { return inner_->popWritten(tag); }
  void cycle(Cycle now) override { inner_->cycle(now); }
  Cycle nextEvent(Cycle now) const override { return inner_->nextEvent(now); }
  void onWarpStart(uint32_t) override { ++log_->starts; }
  void onWarpExit(uint32_t) override { ++log_->exits; }
  void onWarpDescheduled(uint32_t, Cycle) override { ++log_->deschedules; }
  void onWarpActivated(uint32_t, Cycle) override { ++log_->activations; }
  void reportStats(nlohmann::json& out) const override { inner_->reportStats(out); }

 private:
  std::unique_ptr<IRegisterFile> inner_;
  Log* log_;
};

TEST(SmExtensionPoints, RegisterFileModelSeesValuesMasksAndWarpEvents) {
  SmHarness h(R"(
.visible .entry vals(.param .u64 p)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];
  ld.global.u32 %r1, [%rd1];
  mov.u32 %r2, %tid.x;
  setp.lt.u32 %p1, %r2, 8;
  @%p1 add.u32 %r3, %r1, 5;
  exit;
}
)", testConfig({{"sm.register_file.impl", "\"recording\""}, {"sm.warp_scheduler.impl", "\"two-level\""},
                {"sm.warp_scheduler.active_warps", "1"}}));
  RecordingRegisterFile::Log log;
  h.registry.add<IRegisterFile>("recording", "test", [&](const IRegisterFile::Context& c) {
    return std::make_unique<RecordingRegisterFile>(c, &log);
  });
  const uint64_t buf = h.runner.upload(std::vector<uint32_t>(64, 37));
  h.run("vals", 1, 64, {buf});
  EXPECT_EQ(log.starts, 2);
  EXPECT_EQ(log.exits, 2);
  EXPECT_GE(log.deschedules, 2);
  EXPECT_EQ(log.activations, log.deschedules + 2);
  // Per warp: %rd1 (the buffer address), %r1 = 37, %r2 = tid, %r3 = 42 on lanes 0..7 (warp 1
  // executes its add on no lane: nothing is written).
  ASSERT_EQ(log.lane0Values.size(), 7u);
  EXPECT_EQ(std::count(log.lane0Values.begin(), log.lane0Values.end(), buf), 2);
  EXPECT_EQ(std::count(log.lane0Values.begin(), log.lane0Values.end(), 37u), 2);
  EXPECT_EQ(std::count(log.lane0Values.begin(), log.lane0Values.end(), 42u), 1);
  EXPECT_EQ(std::count(log.masks.begin(), log.masks.end(), 0xFFu), 1);  // warp 0's add
  EXPECT_EQ(std::count(log.masks.begin(), log.masks.end(), 0u), 0);
  // ld.global reads the 64-bit %rd1; ld.param writes it.
  EXPECT_EQ(std::count(log.readWide.begin(), log.readWide.end(), 1u), 2);
  EXPECT_EQ(std::count(log.writeWide.begin(), log.writeWide.end(), 1u), 2);
}

// A model that says one lane executes: the SM counts one lane operation per instruction (five
// adds, the mov and the exit) and the other active lanes as gated; a shorter occupancy lets the
// single 4-lane ALU take an instruction every cycle instead of every eight.
TEST(SmExtensionPoints, ExecutionWidthGatesLanesAndOccupancy) {
  const char* kAdds = R"(
.visible .entry adds()
{
  .reg .b32 %r<6>;
  mov.u32 %r1, 1;
  add.u32 %r2, %r1, 1;
  add.u32 %r3, %r1, 2;
  add.u32 %r4, %r1, 3;
  add.u32 %r5, %r1, 4;
  exit;
}
)";
  auto runWith = [&](ExecutionWidth width) {
    SmHarness h(kAdds, testConfig({{"sm.register_file.impl", "\"recording\""}, {"sm.units.alu.count", "1"}, {"sm.units.alu.lanes", "4"}}));
    RecordingRegisterFile::Log log;
    log.width = width;
    h.registry.add<IRegisterFile>("recording", "test", [&](const IRegisterFile::Context& c) {
      return std::make_unique<RecordingRegisterFile>(c, &log);
    });
    const Cycle cycles = h.run("adds", 1, 32, {});
    return std::make_pair(h.stats(), cycles);
  };
  const auto [full, fullCycles] = runWith(ExecutionWidth{});
  EXPECT_EQ(full["units"]["alu_lane_ops"], 6u * 32);
  EXPECT_EQ(full["units"]["alu_gated_lane_ops"], 0u);
  const auto [gated, gatedCycles] = runWith(ExecutionWidth{1, 0});
  EXPECT_EQ(gated["units"]["alu_lane_ops"], 6u);
  EXPECT_EQ(gated["units"]["alu_gated_lane_ops"], 6u * 31);
  EXPECT_EQ(gatedCycles, fullCycles);  // same occupancy: same timing
  const auto [fast, fastCycles] = runWith(ExecutionWidth{1, 1});
  EXPECT_EQ(fast["units"]["alu_lane_ops"], 6u);
  EXPECT_LT(fastCycles + 20, fullCycles);
}

// Issues `count` high-priority ALU instructions on scheduler 0 from cycle `from`, one at a
// time (each waits for the previous to complete), and logs completions.
class TestAssist final : public IAssistWarp {
 public:
  TestAssist(uint32_t count, Cycle from) : left_(count), from_(from) {}
  bool active() const override { return true; }
  bool next(uint32_t scheduler, Priority p, Cycle now, AssistInstr& out) override {
    if (scheduler != 0 || p != Priority::High || left_ == 0 || busy_ || now < from_) return false;
    out = AssistInstr{};
    out.unit = UnitClass::Alu;
    out.parentSlot = 0;
    out.numSrc = 1;
    out.srcRegs[0] = 0;
    out.numDst = 1;
    out.dstRegs[0] = 1;
    out.tag = 100 + left_;
    return true;
  }
  void onIssued(const AssistInstr& a, Cycle now) override {
    busy_ = true;
    --left_;
    issued.push_back(now);
  }
  void onCompleted(uint32_t tag, Cycle now) override {
    busy_ = false;
    completed.push_back({tag, now});
  }
  bool blocksWarp(uint32_t slot) const override { return left_ != 0 && slot == 0; }
  Cycle nextEvent(Cycle now) const override { return left_ != 0 && !busy_ ? std::max(now, from_) : kNever; }

  std::vector<Cycle> issued;
  std::vector<std::pair<uint32_t, Cycle>> completed;

 private:
  uint32_t left_;
  Cycle from_;
  bool busy_ = false;
};

TEST(SmExtensionPoints, AssistWarpInstructionsTakeIssueSlotsWithPriority) {
  SmHarness h(R"(
.visible .entry k()
{
  .reg .b32 %r<4>;
  mov.u32 %r1, 1;
  mov.u32 %r2, 2;
  exit;
}
)", testConfig({{"sm.assist_warp.impl", "\"test\""}}));
  TestAssist* assist = nullptr;
  h.registry.add<IAssistWarp>("test", "test", [&](const IAssistWarp::Context&) {
    auto a = std::make_unique<TestAssist>(2, 11);
    assist = a.get();
    return a;
  });
  h.run("k", 1, 32);
  ASSERT_NE(assist, nullptr);
  // Assist instructions at 11 and, after the first completes (11 + 6), at 17; the parent warp
  // is blocked until both have issued.
  EXPECT_EQ(assist->issued, (std::vector<Cycle>{11, 17}));
  ASSERT_EQ(assist->completed.size(), 2u);
  EXPECT_EQ(assist->completed[0], (std::pair<uint32_t, Cycle>{102, 17}));
  EXPECT_EQ(assist->completed[1], (std::pair<uint32_t, Cycle>{101, 23}));
  EXPECT_EQ(h.trace.cyclesOf(0), (std::vector<Cycle>{18, 19, 20}));
  EXPECT_EQ(h.stats()["assist"]["instructions"], 2u);
  EXPECT_EQ(h.issue("issued"), 5u);
  // Between the two assist instructions (cycles 12-16) the parent's slot is charged to it.
  EXPECT_EQ(h.issue("assist"), 5u);
  EXPECT_EQ(h.issue("memory"), 0u);
}

}  // namespace
}  // namespace warpsim::timing
