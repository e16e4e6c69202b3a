// The "last-reads" pass: exact dead-after bits on straight-line code, across a divergent
// if/else (where the SIMT-safe rule keeps a value the other side reads alive), under a guard
// and around a loop.
#include "timing/sm/last_reads.h"

#include <gtest/gtest.h>

#include "func/testing/kernel_runner.h"

namespace warpsim::timing {
namespace {

AnnotationTable<LastReads> lastReadsOf(const char* ptx) {
  func::testing::KernelRunner k(func::testing::ptxModule(ptx));
  AnnotationTable<LastReads> table({static_cast<uint32_t>(k.program().function(0).code.size())});
  computeLastReads(k.program(), table);
  return table;
}

const char* kStraight = R"(
.visible .entry k(.param .u64 p)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];      // 0
  mov.u32 %r1, %tid.x;         // 1
  add.u32 %r2, %r1, 1;         // 2  r1 read again at 3
  add.u32 %r3, %r2, %r1;       // 3  r2 dead, r1 dead
  st.global.u32 [%rd1], %r3;   // 4  rd1 dead, r3 dead
  ret;                         // 5
}
)";

TEST(LastReads, StraightLineMarksEachValuesFinalRead) {
  const AnnotationTable<LastReads> t = lastReadsOf(kStraight);
  EXPECT_EQ(t.at(0, 2).deadAfter, 0b0);
  EXPECT_EQ(t.at(0, 3).deadAfter, 0b11);   // src order: r2, r1
  EXPECT_EQ(t.at(0, 4).deadAfter, 0b11);   // rd1, r3
}

// r1 is read on both sides of a divergent branch: the warp runs the taken side, then the other,
// so the read on the first side run is not the last one.
const char* kDiverge = R"(
.visible .entry k(.param .u64 p)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];      // 0
  mov.u32 %r1, %tid.x;         // 1
  setp.lt.u32 %p1, %r1, 8;     // 2
  @%p1 bra THEN;               // 3
  add.u32 %r2, %r1, 2;         // 4  else side
  bra JOIN;                    // 5
THEN:
  add.u32 %r2, %r1, 1;         // 6  then side
JOIN:
  st.global.u32 [%rd1], %r2;   // 7
  ret;                         // 8
}
)";

TEST(LastReads, DivergentSidesKeepEachOthersValuesAlive) {
  const AnnotationTable<LastReads> t = lastReadsOf(kDiverge);
  EXPECT_EQ(t.at(0, 4).deadAfter, 0u);  // plain CFG liveness would call r1 dead here
  EXPECT_EQ(t.at(0, 6).deadAfter, 0u);  // and here
  EXPECT_EQ(t.at(0, 7).deadAfter, 0b11);
}

// A guarded definition keeps the old value for the lanes it skips.
const char* kGuarded = R"(
.visible .entry k(.param .u64 p)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];      // 0
  mov.u32 %r1, %tid.x;         // 1
  mov.u32 %r2, 5;              // 2
  setp.lt.u32 %p1, %r1, 8;     // 3  r1 dead
  @%p1 mov.u32 %r2, 7;         // 4  guarded: the old r2 lives on
  add.u32 %r3, %r2, 1;         // 5  r2 dead
  st.global.u32 [%rd1], %r3;   // 6
  ret;
}
)";

TEST(LastReads, GuardedDefinitionsDoNotEndTheOldValue) {
  const AnnotationTable<LastReads> t = lastReadsOf(kGuarded);
  EXPECT_EQ(t.at(0, 3).deadAfter, 0b1);
  EXPECT_EQ(t.at(0, 5).deadAfter, 0b1);
}

const char* kLoop = R"(
.visible .entry k(.param .u64 p)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];      // 0
  mov.u32 %r1, 0;              // 1
  mov.u32 %r2, 3;              // 2
LOOP:
  add.u32 %r1, %r1, %r2;       // 3  r2 read every iteration: never dead in the loop
  setp.lt.u32 %p1, %r1, 30;    // 4
  @%p1 bra LOOP;               // 5
  st.global.u32 [%rd1], %r1;   // 6
  ret;
}
)";

TEST(LastReads, LoopCarriedValuesStayAliveAcrossTheBackEdge) {
  const AnnotationTable<LastReads> t = lastReadsOf(kLoop);
  EXPECT_EQ(t.at(0, 3).deadAfter, 0u);
  EXPECT_EQ(t.at(0, 4).deadAfter, 0u);     // r1 is stored after the loop
  EXPECT_EQ(t.at(0, 6).deadAfter, 0b11);   // rd1, r1
}

}  // namespace
}  // namespace warpsim::timing
