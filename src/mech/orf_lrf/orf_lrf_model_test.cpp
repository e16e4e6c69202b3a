// The "orf-lrf" model driven directly with hand-made placements: levels obeyed with exact
// counters, dual writes, deposits, strand-start and deschedule invalidation, and the check
// catching reads of entries that do not hold the value and MRF reads of values written only
// above it, lane by lane (entries are per lane, writes masked).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "mech/orf_lrf/orf_lrf_register_file.h"

namespace warpsim::mech::orf_lrf {
namespace {

using timing::RegisterRead;
using timing::RegisterWrite;
using timing::UnitClass;

// pc 0: r1 -> ORF 0 only; pc 1: reads r1 from ORF 0, r2 from the MRF with a deposit into ORF 1,
// writes r3 to the LRF and the MRF; pc 2: reads r2 from ORF 1 and r3 from the LRF (strand start
// when `start2`); pc 3: reads r1 from the MRF.
struct Rig {
  explicit Rig(bool start2 = false)
      : tree(config::Tree::fromString("[sm.register_file]\nentries = 2\nlrf = \"unified\"\n")),
        rf(timing::IRegisterFile::Context{tree.section("sm.register_file"), 0, 2, 1, nullptr}) {
    notes.setCodeSizes({4});
    auto& t = notes.add<OperandPlacement>(kPlacementTable);
    t.at(0, 0).dstLevel[0] = Level::Orf;
    t.at(0, 1).srcLevel[0] = Level::Orf;
    t.at(0, 1).depositMask = 0b10;
    t.at(0, 1).srcEntry[1] = 1;
    t.at(0, 1).dstLevel[0] = Level::Lrf;
    t.at(0, 1).dstMrfMask = 1;
    t.at(0, 2).srcLevel[0] = Level::Orf;
    t.at(0, 2).srcEntry[0] = 1;
    t.at(0, 2).srcLevel[1] = Level::Lrf;
    t.at(0, 2).strandStart = start2;
    t.at(0, 3).dstMrfMask = 0xF;
    rf.beginKernel({8, &notes});
    instr.op = ir::Op::Add;
  }
  void read(uint32_t pc, std::initializer_list<uint32_t> regs, uint32_t mask = ~0u) {
    func::ExecRecord rec;
    rec.instr = &instr;
    rec.pc = pc;
    RegisterRead r;
    r.record = &rec;
    r.activeMask = mask;
    for (uint32_t reg : regs) r.srcRegs[r.numSrc++] = reg;
    rf.release(rf.allocate(r, now++));
  }
  void write(uint32_t pc, uint32_t reg, uint32_t mask = ~0u) {
    RegisterWrite w;
    w.tag = pc;
    w.numDst = 1;
    w.dstRegs[0] = reg;
    w.activeMask = mask;
    w.instr = &instr;
    w.pc = pc;
    rf.write(w, now);
    rf.cycle(now++);
    uint32_t t;
    while (rf.popWritten(t)) ++written;
  }
  nlohmann::json h() const {
    nlohmann::json j;
    rf.reportStats(j);
    return j["hierarchy"];
  }
  config::Tree tree;
  timing::InstructionAnnotations notes;
  OrfLrfRegisterFile rf;
  ir::Instr instr;
  timing::Cycle now = 1;
  uint32_t written = 0;
};

uint64_t at(const nlohmann::json& h, const char* level, const char* key) { return h[level][key].get<uint64_t>(); }

TEST(OrfLrfModel, ObeysThePlacementWithExactCounters) {
  Rig rig;
  rig.write(0, 1);
  rig.read(1, {1, 2});
  rig.write(1, 3);
  rig.read(2, {2, 3});
  const nlohmann::json h = rig.h();
  EXPECT_EQ(at(h, "orf", "result_writes"), 1u);
  EXPECT_EQ(at(h, "orf", "operand_reads"), 2u);   // r1 at pc 1, r2 at pc 2
  EXPECT_EQ(at(h, "orf", "fill_writes"), 1u);     // r2's deposit
  EXPECT_EQ(at(h, "lrf", "result_writes"), 1u);
  EXPECT_EQ(at(h, "lrf", "operand_reads"), 1u);
  EXPECT_EQ(at(h, "mrf", "operand_reads"), 1u);   // r2 at pc 1
  EXPECT_EQ(at(h, "mrf", "result_writes"), 1u);   // r3's second destination
  EXPECT_EQ(h["invalid_reads"].get<uint64_t>(), 0u);
  EXPECT_EQ(h["mrf_operands_per_instruction"], nlohmann::json::array({1, 1, 0, 0}));
  EXPECT_EQ(rig.written, 2u);
}

TEST(OrfLrfModel, StrandStartsInvalidateTheUpperLevels) {
  Rig rig(/*start2=*/true);
  rig.write(0, 1);
  rig.read(1, {1, 2});
  rig.write(1, 3);
  rig.read(2, {2, 3});  // both entries were invalidated by the strand start
  EXPECT_EQ(rig.h()["invalid_reads"].get<uint64_t>(), 2u);
  EXPECT_EQ(rig.h()["strand_starts"].get<uint64_t>(), 1u);
}

TEST(OrfLrfModel, DescheduleInvalidatesAndMrfReadsOfValuesWrittenOnlyAboveAreCaught) {
  Rig rig;
  rig.write(0, 1);
  rig.rf.onWarpDescheduled(0, rig.now);
  rig.read(1, {1, 2});  // r1's ORF entry is gone
  rig.read(3, {1});     // and its only copy was in the ORF: the MRF does not hold it
  const nlohmann::json h = rig.h();
  EXPECT_EQ(h["invalid_reads"].get<uint64_t>(), 2u);
  EXPECT_EQ(h["deschedule_invalidations"].get<uint64_t>(), 1u);
}

// Divergent arms: lanes 16-31 put r5 into ORF 0 while lanes 0-15 keep r1 there. Each lane
// holds what it wrote last: r1 is valid for lanes 0-15 only, r5 for lanes 16-31 only.
TEST(OrfLrfModel, EntriesArePerLaneAndWritesMasked) {
  Rig rig;
  rig.write(0, 1);
  rig.write(0, 5, 0xFFFF0000u);
  rig.read(1, {1, 2}, 0x0000FFFFu);  // r1 from ORF 0, lanes 0-15: valid
  EXPECT_EQ(rig.h()["invalid_reads"].get<uint64_t>(), 0u);
  rig.read(1, {5, 2}, 0xFFFF0000u);  // r5 from ORF 0, lanes 16-31: valid
  EXPECT_EQ(rig.h()["invalid_reads"].get<uint64_t>(), 0u);
  rig.read(1, {1, 2}, 0x00010000u);  // r1 for lane 16, which now holds r5
  EXPECT_EQ(rig.h()["invalid_reads"].get<uint64_t>(), 1u);
  rig.read(1, {5, 2}, 0x00018000u);  // r5 for lanes 15 and 16: lane 15 holds r1
  EXPECT_EQ(rig.h()["invalid_reads"].get<uint64_t>(), 2u);
}

}  // namespace
}  // namespace warpsim::mech::orf_lrf
