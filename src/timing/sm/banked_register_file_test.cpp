#include "timing/sm/banked_register_file.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace warpsim::timing {
namespace {

struct Rf {
  explicit Rf(const std::string& toml, uint32_t partitions = 1)
      : tree(config::Tree::fromString(toml, "rf.toml")),
        rf(IRegisterFile::Context{tree.section("sm.register_file"), 0, 8, partitions}) {}
  config::Tree tree;
  BankedRegisterFile rf;
  uint64_t stat(const char* k) const {
    nlohmann::json j = nlohmann::json::object();
    rf.reportStats(j);
    return j[k].get<uint64_t>();
  }
};

RegisterRead read(uint32_t slot, std::initializer_list<uint32_t> regs, uint32_t partition = 0) {
  RegisterRead r;
  r.warpSlot = slot;
  r.partition = partition;
  for (uint32_t reg : regs) r.srcRegs[r.numSrc++] = reg;
  return r;
}

TEST(BankedRegisterFile, BankOfRegisterAndWarp) {
  Rf a("[sm.register_file]\nbanks = 16\n");
  EXPECT_EQ(a.rf.bankOf(0, 17), 1u);
  EXPECT_EQ(a.rf.bankOf(3, 17), 4u);
  Rf b("[sm.register_file]\nbanks = 8\nwarp_stride = 0\n");
  EXPECT_EQ(b.rf.bankOf(5, 9), 1u);
  Rf c("[sm.register_file]\nbanks = 16\n", 2);  // two partitions of 8 banks
  EXPECT_EQ(c.rf.bankOf(1, 9), 2u);
  EXPECT_EQ(c.rf.collectorsPerPartition(), 8u);
}

TEST(BankedRegisterFile, OperandsAreReadTheCycleAfterAllocationAndReadyTheNext) {
  Rf r("[sm.register_file]\nbanks = 16\ncollectors = 4\n");
  const uint32_t c = r.rf.allocate(read(0, {1, 2}), 10);
  EXPECT_EQ(r.rf.nextEvent(11), 11u);
  r.rf.cycle(11);
  EXPECT_EQ(r.rf.ready(0, 11), 0u);
  EXPECT_EQ(r.rf.nextEvent(12), 12u);
  EXPECT_EQ(r.rf.ready(0, 12), uint64_t{1} << c);
  r.rf.release(c);
  EXPECT_EQ(r.rf.ready(0, 12), 0u);
  EXPECT_EQ(r.rf.nextEvent(12), kNever);
  EXPECT_EQ(r.stat("bank_reads"), 2u);
  EXPECT_EQ(r.stat("bank_conflicts"), 0u);
}

TEST(BankedRegisterFile, SameBankReadsTakeOneCycleEachOldestFirst) {
  Rf r("[sm.register_file]\nbanks = 4\ncollectors = 4\n");
  const uint32_t old = r.rf.allocate(read(0, {1, 5}), 0);   // both in bank 1
  const uint32_t young = r.rf.allocate(read(0, {9}), 0);    // bank 1 too
  r.rf.cycle(1);  // old reads %1; %5 and young's %9 conflict
  r.rf.cycle(2);  // old reads %5; young conflicts again
  EXPECT_EQ(r.rf.ready(0, 3), uint64_t{1} << old);
  r.rf.cycle(3);  // young reads
  EXPECT_EQ(r.rf.ready(0, 4), (uint64_t{1} << old) | (uint64_t{1} << young));
  EXPECT_EQ(r.stat("bank_conflicts"), 3u);
  EXPECT_EQ(r.stat("bank_reads"), 3u);
}

TEST(BankedRegisterFile, CollectorsRunOut) {
  Rf r("[sm.register_file]\ncollectors = 2\n");
  r.rf.allocate(read(0, {}), 0);
  EXPECT_TRUE(r.rf.canAllocate(0));
  const uint32_t c = r.rf.allocate(read(0, {}), 0);
  EXPECT_FALSE(r.rf.canAllocate(0));
  r.rf.cycle(1);
  r.rf.release(c);
  EXPECT_TRUE(r.rf.canAllocate(0));
  EXPECT_EQ(r.stat("collector_allocations"), 2u);
}

TEST(BankedRegisterFile, WritesShareBankPortsInSubmissionOrder) {
  Rf r("[sm.register_file]\nbanks = 4\n");
  RegisterWrite a;
  a.tag = 7;
  a.warpSlot = 0;
  a.numDst = 2;
  a.dstRegs[0] = 1;
  a.dstRegs[1] = 5;  // same bank as %1
  RegisterWrite b = a;
  b.tag = 8;
  b.numDst = 1;
  b.dstRegs[0] = 2;
  r.rf.write(a, 3);
  r.rf.write(b, 3);
  r.rf.cycle(3);
  uint32_t tag = 0;
  ASSERT_TRUE(r.rf.popWritten(tag));
  EXPECT_EQ(tag, 8u);  // a still needs its second register
  EXPECT_FALSE(r.rf.popWritten(tag));
  r.rf.cycle(4);
  ASSERT_TRUE(r.rf.popWritten(tag));
  EXPECT_EQ(tag, 7u);
  EXPECT_EQ(r.stat("bank_writes"), 3u);
  EXPECT_EQ(r.stat("write_conflicts"), 1u);
}

// Energy events: a read activates all 8 arrays and moves 128 bytes per 32-bit register; a write
// activates the arrays holding a written lane (array k: lanes 4k..4k+3) and moves 4 bytes per
// lane; a 64-bit register counts twice.
TEST(BankedRegisterFile, ArraysAndCrossbarBytesFollowMasksAndWidths) {
  Rf r("[sm.register_file]\nbanks = 16\n");
  RegisterRead rd = read(0, {1, 2});
  rd.wideMask = 0b10;                 // %2 is 64-bit
  r.rf.allocate(rd, 0);
  EXPECT_EQ(r.stat("array_reads"), 24u);
  EXPECT_EQ(r.stat("crossbar_bytes"), 384u);
  RegisterWrite w;
  w.numDst = 1;
  w.dstRegs[0] = 3;
  w.activeMask = 0x000000F1u;         // lanes 0, 4-7: arrays 0 and 1
  r.rf.write(w, 1);
  EXPECT_EQ(r.stat("array_writes"), 2u);
  EXPECT_EQ(r.stat("crossbar_bytes"), 384u + 20u);
  w.activeMask = 0xFFFFFFFFu;
  w.wideMask = 1;
  r.rf.write(w, 1);
  EXPECT_EQ(r.stat("array_writes"), 2u + 16u);
  EXPECT_EQ(r.stat("crossbar_bytes"), 404u + 256u);
  EXPECT_EQ(laneSlicedArrays(0x80000001u), 2u);
}

TEST(BankedRegisterFile, BadSplitIsAConfigurationError) {
  try {
    Rf r("[sm.register_file]\nbanks = 6\n", 4);
    FAIL();
  } catch (const config::Error& e) {
    EXPECT_STREQ(e.what(),
                 "config: error: sm.register_file.banks (6) must be a positive multiple of sm.schedulers (4) with sm.sub_cores");
  }
}

}  // namespace
}  // namespace warpsim::timing
