// The assist warp store and executor: routines in PTX run functionally on staged bytes and
// live-ins, and their executed instructions come back in order with units and lane masks.
#include "timing/sm/assist/assist_executor.h"

#include <gtest/gtest.h>

#include <cstring>

#include "ptx/parser.h"
#include "timing/sm/assist/assist_test_store.h"

namespace warpsim::timing {
namespace {


struct ExecutorFixture {
  AssistRoutineStore store{ptx::parseModule(testing::kAssistStore, "store.ptx")};
  AssistExecutor exec{store, 64};
};

TEST(AssistRoutineStore, FindsRoutinesAndCountsTheirRegisters) {
  ExecutorFixture f;
  EXPECT_EQ(f.store.find("nope"), -1);
  const uint32_t add = f.store.require("add_k");
  EXPECT_EQ(f.store.name(add), "add_k");
  EXPECT_EQ(f.store.registers(add), 5u + 2u * 2u);  // %r0..%r4 and two 64-bit %rd
  EXPECT_EQ(f.store.sharedBytes(add), 128u);
  EXPECT_EQ(f.store.paramBytes(add), 4u);
  EXPECT_EQ(f.store.maxRegisters(), 9u);
  EXPECT_THROW(f.store.require("nope"), std::runtime_error);
}

TEST(AssistRoutineStore, RejectsGlobalVariables) {
  const char* bad = ".version 7.0\n.target sm_80\n.address_size 64\n.global .u32 g;\n"
                    ".entry r()\n{\n  exit;\n}\n";
  try {
    AssistRoutineStore s(ptx::parseModule(bad, "bad.ptx"));
    FAIL() << "accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("bad.ptx: assist routines may not use global"), std::string::npos);
  }
}

TEST(AssistExecutor, RunsOnTheStagedBytesAndListsTheInstructions) {
  ExecutorFixture f;
  uint32_t line[32];
  for (uint32_t i = 0; i < 32; ++i) line[i] = 100 * i;
  const uint64_t k = 7;
  ASSERT_TRUE(f.exec.run(f.store.require("add_k"), 0x0000FFFFu,
                         reinterpret_cast<const uint8_t*>(line), sizeof line, &k, 1))
      << f.exec.error();
  uint32_t out[32];
  std::memcpy(out, f.exec.shared(), sizeof out);
  for (uint32_t i = 0; i < 32; ++i) EXPECT_EQ(out[i], 100 * i + (i < 16 ? 7 : 0)) << i;
  const std::vector<AssistStep>& s = f.exec.steps();
  ASSERT_EQ(s.size(), 9u);  // eight instructions and exit
  EXPECT_TRUE(s[0].liveIn);
  EXPECT_FALSE(s[1].liveIn);
  for (const AssistStep& step : s) EXPECT_EQ(step.execMask, 0x0000FFFFu);
  EXPECT_EQ(s[5].instr->unit, UnitClass::Lsu);  // ld.shared
  EXPECT_EQ(s[6].instr->unit, UnitClass::Alu);
  EXPECT_TRUE(s[7].instr->has(DecodedInstr::kStore));
  // Run again: the same executor, fresh state.
  ASSERT_TRUE(f.exec.run(f.store.require("add_k"), ~0u, reinterpret_cast<const uint8_t*>(line),
                         sizeof line, &k, 1));
  std::memcpy(out, f.exec.shared(), sizeof out);
  EXPECT_EQ(out[31], 3100u + 7);
}

TEST(AssistExecutor, DivergentRoutinesReportTheLanesOfEachPath) {
  ExecutorFixture f;
  ASSERT_TRUE(f.exec.run(f.store.require("skip_odd"), ~0u, nullptr, 0, nullptr, 0)) << f.exec.error();
  const std::vector<AssistStep>& s = f.exec.steps();
  ASSERT_EQ(s.size(), 9u);  // mov, and, setp, bra, then shl, mov, add, st (even lanes), exit
  EXPECT_EQ(s[3].execMask, 0xAAAAAAAAu);  // the odd lanes take the branch
  EXPECT_EQ(s[4].execMask, 0x55555555u);
  EXPECT_EQ(s[7].execMask, 0x55555555u);
  EXPECT_EQ(s[8].execMask, ~0u);  // exit, after the paths reconverge
  uint32_t out[32];
  std::memcpy(out, f.exec.shared(), sizeof out);
  EXPECT_EQ(out[4], 4u);
  EXPECT_EQ(out[5], 0u);
}

TEST(AssistExecutor, ARunawayOrMiscalledRoutineIsAnError) {
  ExecutorFixture f;
  EXPECT_FALSE(f.exec.run(f.store.require("spin"), ~0u, nullptr, 0, nullptr, 0));
  EXPECT_EQ(f.exec.error(), "assist routine 'spin' ran more than 64 instructions");
  EXPECT_FALSE(f.exec.run(f.store.require("add_k"), ~0u, nullptr, 0, nullptr, 0));
  EXPECT_EQ(f.exec.error(), "assist routine 'add_k' takes 1 live-ins, given 0");
}

}  // namespace
}  // namespace warpsim::timing
