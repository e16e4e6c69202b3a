// The "rfc" model driven directly (no SM): allocation on results, hits and misses, FIFO
// write-backs, the long-latency bypass, partial writes, flush on deschedule, drop on exit, the
// hardware LRF and the shared datapath, with exact counters.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "mech/rfc/rfc_register_file.h"

namespace warpsim::mech::rfc {
namespace {

using timing::RegisterRead;
using timing::RegisterWrite;
using timing::UnitClass;

struct Rig {
  explicit Rig(const std::string& keys)
      : tree(config::Tree::fromString("[sm.register_file]\n" + keys)),
        rf(timing::IRegisterFile::Context{tree.section("sm.register_file"), 0, 4, 1, nullptr}) {
    rf.beginKernel({16, nullptr});
  }
  void read(uint32_t slot, std::initializer_list<uint32_t> regs, UnitClass unit = UnitClass::Alu,
            uint8_t wide = 0, const func::ExecRecord* record = nullptr) {
    RegisterRead r;
    r.record = record;
    r.warpSlot = slot;
    r.unit = unit;
    r.activeMask = ~0u;
    r.wideMask = wide;
    for (uint32_t reg : regs) r.srcRegs[r.numSrc++] = reg;
    rf.release(rf.allocate(r, now));
  }
  void write(uint32_t slot, uint32_t reg, bool longLatency = false, uint32_t mask = ~0u,
             UnitClass unit = UnitClass::Alu, bool wide = false) {
    RegisterWrite w;
    w.tag = tag++;
    w.warpSlot = slot;
    w.numDst = 1;
    w.dstRegs[0] = reg;
    w.wideMask = wide ? 1 : 0;
    w.activeMask = mask;
    w.longLatency = longLatency;
    w.unit = unit;
    rf.write(w, now);
    rf.cycle(now);
    uint32_t t = 0;
    while (rf.popWritten(t)) ++written;
    ++now;
  }
  nlohmann::json h() const {
    nlohmann::json j;
    rf.reportStats(j);
    return j["hierarchy"];
  }
  config::Tree tree;
  RfcRegisterFile rf;
  timing::Cycle now = 1;
  uint32_t tag = 0, written = 0;
};

uint64_t at(const nlohmann::json& j, const char* level, const char* key) { return j[level][key].get<uint64_t>(); }

TEST(RfcModel, ResultsAllocateHitsSkipTheMrfAndFifoEvictionsWriteBack) {
  Rig rig("entries = 2\n");
  rig.write(0, 1);
  rig.write(0, 2);
  rig.read(0, {1, 2});   // two hits
  rig.write(0, 3);       // evicts r1: written back
  rig.read(0, {1, 3});   // r1 misses, r3 hits
  const nlohmann::json h = rig.h();
  EXPECT_EQ(at(h, "rfc", "result_writes"), 3u);
  EXPECT_EQ(at(h, "rfc", "operand_reads"), 3u);
  EXPECT_EQ(at(h, "rfc", "writeback_reads"), 1u);
  EXPECT_EQ(at(h, "mrf", "writeback_writes"), 1u);
  EXPECT_EQ(at(h, "mrf", "operand_reads"), 1u);
  EXPECT_EQ(at(h, "mrf", "result_writes"), 0u);
  EXPECT_EQ(h["evictions"].get<uint64_t>(), 1u);
  EXPECT_EQ(h["mrf_operands_per_instruction"], nlohmann::json::array({0, 0, 0, 0}));  // no records
  EXPECT_EQ(rig.written, 3u);  // every result reported written
  EXPECT_EQ(at(h, "rfc", "array_reads"), 8u * 3 + 8u);  // three operand reads, one write-back read
}

TEST(RfcModel, LongLatencyResultsBypassAndSupersedeTheCachedCopy) {
  Rig rig("entries = 4\n");
  rig.write(0, 5);
  rig.write(0, 5, /*longLatency=*/true);
  rig.read(0, {5});
  const nlohmann::json h = rig.h();
  EXPECT_EQ(h["bypassed_writes"].get<uint64_t>(), 1u);
  EXPECT_EQ(at(h, "mrf", "result_writes"), 1u);
  EXPECT_EQ(at(h, "mrf", "operand_reads"), 1u);   // the cached copy was dropped, not read
  EXPECT_EQ(at(h, "rfc", "writeback_reads"), 0u);  // and not written back (superseded)

  Rig off("entries = 4\nbypass_long_latency = false\n");
  off.write(0, 5, true);
  off.read(0, {5});
  EXPECT_EQ(at(off.h(), "rfc", "operand_reads"), 1u);
}

TEST(RfcModel, PartialWritesMergeIntoACachedCopyOrGoAroundToTheMrf) {
  Rig rig("entries = 4\n");
  rig.write(0, 1);
  rig.write(0, 1, false, 0x0000FFFFu);  // merges in place
  rig.write(0, 2, false, 0x0000FFFFu);  // not cached: written to the MRF
  const nlohmann::json h = rig.h();
  EXPECT_EQ(at(h, "rfc", "result_writes"), 2u);
  EXPECT_EQ(at(h, "mrf", "result_writes"), 1u);
  EXPECT_EQ(h["partial_write_arounds"].get<uint64_t>(), 1u);
  EXPECT_EQ(at(h, "mrf", "array_writes"), 4u);  // lanes 0-15: four 4-lane arrays
}

TEST(RfcModel, DescheduleFlushesDirtyEntriesAndExitDropsThem) {
  Rig rig("entries = 6\n");
  rig.write(0, 1);
  rig.write(0, 2);
  rig.write(1, 3);
  rig.rf.onWarpDescheduled(0, rig.now);
  rig.rf.onWarpExit(1);
  rig.read(0, {1});
  const nlohmann::json h = rig.h();
  EXPECT_EQ(h["flushes"].get<uint64_t>(), 1u);
  EXPECT_EQ(h["flushed_entries"].get<uint64_t>(), 2u);
  EXPECT_EQ(at(h, "mrf", "writeback_writes"), 2u);  // slot 1's r3 is gone without a write-back
  EXPECT_EQ(at(h, "mrf", "operand_reads"), 1u);
}

TEST(RfcModel, WideRegistersCountTwoWords) {
  Rig rig("entries = 2\n");
  rig.write(0, 4, false, ~0u, UnitClass::Alu, /*wide=*/true);
  rig.write(0, 7);  // evicts the pair: two words written back
  const nlohmann::json h = rig.h();
  EXPECT_EQ(at(h, "rfc", "result_writes"), 3u);
  EXPECT_EQ(at(h, "mrf", "writeback_writes"), 2u);
}

TEST(RfcModel, HardwareLrfTakesAluResultsAndSpillsToTheRfc) {
  Rig rig("entries = 2\nhardware_lrf = true\n");
  rig.write(0, 1);                                          // LRF: r1
  rig.write(0, 2);                                          // LRF: r2; r1 moves to the RFC
  rig.write(0, 3, false, ~0u, UnitClass::Sfu);              // shared datapath: into the RFC
  rig.read(0, {2});                                         // ALU reads r2 in the LRF
  rig.read(0, {2}, UnitClass::Lsu);                         // the LSU cannot: r2 moves to the RFC
  const nlohmann::json h = rig.h();
  EXPECT_EQ(at(h, "lrf", "result_writes"), 2u);
  EXPECT_EQ(at(h, "lrf", "operand_reads"), 1u);
  EXPECT_EQ(at(h, "lrf", "writeback_reads"), 2u);   // r1 and r2 out to the RFC
  EXPECT_EQ(at(h, "rfc", "fill_writes"), 2u);
  EXPECT_EQ(at(h, "rfc", "result_writes"), 1u);
  EXPECT_EQ(at(h, "rfc", "operand_reads"), 1u);
  EXPECT_EQ(at(h, "rfc", "writeback_reads"), 1u);   // r2 arriving evicted r1 (RFC holds r3, r2)
  EXPECT_EQ(h["shared_reads_from_lrf"].get<uint64_t>(), 1u);
  EXPECT_EQ(at(h, "lrf", "wire_words_private"), 32u * 2 + 32u);  // two results, one ALU read
}

// A hint that calls a value dead although it is read again is caught: the later read finds the
// main register file's copy stale.
TEST(RfcModel, AWrongLivenessHintIsCountedAsAnInvalidRead) {
  Rig rig("entries = 2\nliveness = true\n");
  timing::InstructionAnnotations notes;
  notes.setCodeSizes({1});
  notes.add<timing::LastReads>(timing::kLastReads).at(0, 0).deadAfter = 0b1;
  rig.rf.beginKernel({16, &notes});
  ir::Instr add;
  add.op = ir::Op::Add;
  func::ExecRecord record;
  record.instr = &add;
  rig.write(0, 1);
  rig.read(0, {1}, UnitClass::Alu, 0, &record);  // "last read" of r1
  rig.write(0, 2);
  rig.write(0, 3);                               // r1 leaves dead: dropped, MRF copy stale
  rig.read(0, {1});                              // ... but it is read again
  const nlohmann::json h = rig.h();
  EXPECT_EQ(h["dead_drops"].get<uint64_t>(), 1u);
  EXPECT_EQ(h["invalid_reads"].get<uint64_t>(), 1u);
  EXPECT_EQ(at(h, "mrf", "writeback_writes"), 0u);
}

}  // namespace
}  // namespace warpsim::mech::rfc
