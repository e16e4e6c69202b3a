// The allocator on hand-written PTX with exact levels: savings/range priority and first-fit
// entries, the split LRF's operand-slot rule and ALU-only rule, 64-bit values in two entries,
// dual writes of values read in a later strand, the MRF at merge points after one-sided writes,
// read-operand allocation, the effect of the switches, and divergent arms that run one after
// the other.
#include "mech/orf_lrf/allocation.h"

#include <gtest/gtest.h>

#include "func/testing/kernel_runner.h"

namespace warpsim::mech::orf_lrf {
namespace {

std::vector<OperandPlacement> allocate(const char* ptx, const OrfParams& params, AllocationCounts* counts = nullptr) {
  func::testing::KernelRunner k(func::testing::ptxModule(ptx));
  const FunctionCode f = decodeFunction(k.program(), 0);
  const Strands s = formStrands(f);
  std::vector<OperandPlacement> out(f.code.size());
  AllocationCounts c;
  allocateFunction(f, s, params, out.data(), counts ? *counts : c);
  return out;
}

OrfParams splitLrf() {
  OrfParams p;
  p.lrf = LrfMode::Split;
  return p;
}

// Savings / range: r3 (25.6 pJ over 1 slot) first, r1 (38.4 / 2), then rd1 (51.1 / 4).
const char* kStraight = R"(
.visible .entry k(.param .u64 p)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];        // 0  rd1: ORF entries 1-2 (64 bits)
  mov.u32 %r1, %tid.x;           // 1  r1: read in slots A and B: not the split LRF; ORF 0
  add.u32 %r2, %r1, 1;           // 2  r2: one ALU read in slot A: LRF bank 0
  mul.lo.u32 %r3, %r2, %r1;      // 3  r3: read by the store (shared datapath): ORF 0
  st.global.u32 [%rd1], %r3;     // 4
  ret;
}
)";

TEST(Allocation, ExactLevelsOnStraightLineCode) {
  AllocationCounts c;
  const std::vector<OperandPlacement> p = allocate(kStraight, splitLrf(), &c);
  EXPECT_EQ(p[0].dstLevel[0], Level::Orf);
  EXPECT_EQ(p[0].dstEntry[0], 1);
  EXPECT_EQ(p[1].dstLevel[0], Level::Orf);
  EXPECT_EQ(p[1].dstEntry[0], 0);
  EXPECT_EQ(p[2].srcLevel[0], Level::Orf);
  EXPECT_EQ(p[2].dstLevel[0], Level::Lrf);
  EXPECT_EQ(p[2].dstEntry[0], 0);
  EXPECT_EQ(p[3].srcLevel[0], Level::Lrf);
  EXPECT_EQ(p[3].srcLevel[1], Level::Orf);
  EXPECT_EQ(p[3].srcEntry[1], 0);
  EXPECT_EQ(p[3].dstLevel[0], Level::Orf);
  EXPECT_EQ(p[3].dstEntry[0], 0);  // r1's last read is at 3: its entry is free there
  EXPECT_EQ(p[4].srcLevel[0], Level::Orf);  // rd1
  EXPECT_EQ(p[4].srcEntry[0], 1);
  EXPECT_EQ(p[4].srcLevel[1], Level::Orf);  // r3
  EXPECT_EQ(p[4].srcEntry[1], 0);
  for (unsigned pc = 0; pc < 4; ++pc) EXPECT_EQ(p[pc].dstMrfMask & 1u, 0u) << "pc " << pc;  // nothing live out
  EXPECT_TRUE(p[0].strandStart);
  EXPECT_EQ(c.lrfValues, 1u);
  EXPECT_EQ(c.orfValues, 3u);
  EXPECT_EQ(c.upperReads, 5u);  // every read: r1 twice, r2, rd1, r3
  EXPECT_EQ(c.reads, 5u);

  OrfParams twoLevel;  // no LRF: r2 goes to the ORF too
  const std::vector<OperandPlacement> q = allocate(kStraight, twoLevel);
  EXPECT_EQ(q[2].dstLevel[0], Level::Orf);
  EXPECT_EQ(q[3].srcLevel[0], Level::Orf);
}

// A value read in a later strand is written to both levels; a value written on one side of a
// branch and read at the merge is read from the MRF there.
const char* kLiveOut = R"(
.visible .entry k(.param .u64 p)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];        // 0
  mov.u32 %r1, %tid.x;           // 1  r1: read at 2 and after the barrier: ORF + MRF
  add.u32 %r2, %r1, 3;           // 2
  setp.lt.u32 %p1, %r1, 8;       // 3
  mov.u32 %r3, 1;                // 4  r3: read on the taken side only... and at the merge
  @%p1 bra SKIP;                 // 5
  add.u32 %r3, %r2, 5;           // 6  one-sided write of r3
SKIP:
  add.u32 %r4, %r3, %r2;         // 7  r3 from the MRF (two definitions reach)
  bar.sync 0;                    // 8
  add.u32 %r5, %r1, %r4;         // 9  next strand: r1 and r4 from the MRF
  st.global.u32 [%rd1], %r5;     // 10
  ret;
}
)";

TEST(Allocation, LiveOutValuesAreDualWrittenAndMergesReadTheMrf) {
  const std::vector<OperandPlacement> p = allocate(kLiveOut, OrfParams{});
  EXPECT_EQ(p[1].dstLevel[0], Level::Orf);
  EXPECT_EQ(p[1].dstMrfMask & 1u, 1u);       // r1 is read in the next strand
  EXPECT_EQ(p[2].srcLevel[0], Level::Orf);
  EXPECT_EQ(p[2].dstLevel[0], Level::Orf);  // r2: read at 6 and 7, both dominated
  EXPECT_EQ(p[7].srcLevel[1], Level::Orf);
  EXPECT_EQ(p[4].dstLevel[0], Level::Mrf);  // r3's merge read has two definitions
  EXPECT_EQ(p[6].dstLevel[0], Level::Mrf);
  EXPECT_EQ(p[7].srcLevel[0], Level::Mrf);
  EXPECT_EQ(p[7].dstMrfMask & 1u, 1u);      // r4 read after the barrier
  EXPECT_EQ(p[9].srcLevel[0], Level::Mrf);
  EXPECT_EQ(p[9].srcLevel[1], Level::Mrf);
  EXPECT_TRUE(p[9].strandStart);

  OrfParams blockLocal;
  blockLocal.forwardBranches = false;  // r2 is read in two other blocks: stays in the MRF
  const std::vector<OperandPlacement> q = allocate(kLiveOut, blockLocal);
  EXPECT_EQ(q[2].dstLevel[0], Level::Mrf);
  EXPECT_EQ(q[7].srcLevel[1], Level::Mrf);
}

// r1 comes from an earlier strand and is read three times: the first read fills ORF entry 0.
const char* kReadOperand = R"(
.visible .entry k(.param .u64 p)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];        // 0
  ld.global.u32 %r1, [%rd1];     // 1
  add.u32 %r2, %r1, 1;           // 2  new strand; first read of r1 deposits it
  add.u32 %r3, %r1, %r2;         // 3
  add.u32 %r4, %r1, %r3;         // 4
  st.global.u32 [%rd1], %r4;     // 5
  ret;
}
)";

TEST(Allocation, ReadOperandsAreKeptAfterTheirFirstRead) {
  const std::vector<OperandPlacement> p = allocate(kReadOperand, OrfParams{});
  EXPECT_TRUE(p[2].strandStart);
  EXPECT_EQ(p[2].srcLevel[0], Level::Mrf);
  EXPECT_EQ(p[2].depositMask, 1u);
  const uint8_t e = p[2].srcEntry[0];
  EXPECT_EQ(p[3].srcLevel[0], Level::Orf);
  EXPECT_EQ(p[3].srcEntry[0], e);
  EXPECT_EQ(p[4].srcLevel[0], Level::Orf);
  EXPECT_EQ(p[4].srcEntry[0], e);
  EXPECT_EQ(p[5].srcLevel[0], Level::Mrf);  // rd1 was produced in the first strand

  OrfParams off;
  off.readOperands = false;
  const std::vector<OperandPlacement> q = allocate(kReadOperand, off);
  EXPECT_EQ(q[2].depositMask, 0u);
  EXPECT_EQ(q[3].srcLevel[0], Level::Mrf);
}

// One ORF entry: r1 (range 4) does not fit beside r2 (range 1, higher priority) until it gives
// up its last read, which then comes from the MRF (and r1 is written there too).
const char* kPartial = R"(
.visible .entry k(.param .u64 p)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];        // 0
  mov.u32 %r1, %tid.x;           // 1
  add.u32 %r5, %r1, 7;           // 2  r1 read
  add.u32 %r2, %r5, 1;           // 3  r5 read once, range 1
  add.u32 %r3, %r2, %r1;         // 4  r1 read again: r1's range 1-4 overlaps r5 and r2
  st.global.u32 [%rd1], %r3;     // 5
  ret;
}
)";

TEST(Allocation, PartialRangesGiveUpTheirLastReads) {
  OrfParams one;
  one.entries = 1;
  const std::vector<OperandPlacement> p = allocate(kPartial, one);
  EXPECT_EQ(p[1].dstLevel[0], Level::Orf);  // r1 kept for its first read only
  EXPECT_EQ(p[1].dstMrfMask & 1u, 1u);
  EXPECT_EQ(p[2].srcLevel[0], Level::Orf);
  EXPECT_EQ(p[4].srcLevel[1], Level::Mrf);
  one.partialRanges = false;
  const std::vector<OperandPlacement> q = allocate(kPartial, one);
  EXPECT_EQ(q[1].dstLevel[0], Level::Mrf);
}

// A divergent if/else whose arms run one after the other (func/warp.h: the fall-through path,
// here the trampoline to OTHER, first). OTHER starts a strand at 12 (the load's consumer), which
// invalidates the upper levels of every lane, also of lanes 0-15 waiting to run TAKEN. By pc
// order 4 and 8 are in one strand and 4 dominates 8, yet the warp executes 12 between them: the
// read at 8 must use the MRF. The read at 10 precedes the start in its own arm and TAKEN has no
// strand start: it stays in the ORF. (sibling_arms_test.cpp runs this kernel.)
const char* kSiblingStart = R"(
.visible .entry k(.param .u64 pout)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [pout];     // 0
  mov.u32 %r1, %tid.x;           // 1
  mul.wide.u32 %rd2, %r1, 4;     // 2
  add.s64 %rd3, %rd1, %rd2;      // 3
  add.u32 %r2, %r1, 100;         // 4  r2: read in both arms
  setp.lt.u32 %p1, %r1, 16;      // 5
  @%p1 bra TAKEN;                // 6  lanes 0-15 take it
  bra.uni OTHER;                 // 7  lanes 16-31: run first
TAKEN:
  add.u32 %r3, %r2, 1;           // 8  after OTHER's strand start: the MRF
  bra.uni MERGE;                 // 9
OTHER:
  add.u32 %r4, %r2, 2;           // 10 before the start, TAKEN has none: the ORF
  ld.global.u32 %r5, [%rd3];     // 11
  add.u32 %r3, %r5, %r4;         // 12 strand start (long latency)
MERGE:
  st.global.u32 [%rd3], %r3;     // 13
  ret;                           // 14
}
)";

TEST(Allocation, AStrandStartInASiblingArmSendsReadsAfterItToTheMrf) {
  func::testing::KernelRunner k(func::testing::ptxModule(kSiblingStart));
  EXPECT_EQ(formStrands(decodeFunction(k.program(), 0)).start, (std::vector<uint32_t>{0, 12}));
  OrfParams roomy;  // room for every value: only the rule decides
  roomy.entries = 8;
  const std::vector<OperandPlacement> p = allocate(kSiblingStart, roomy);
  EXPECT_EQ(p[8].srcLevel[0], Level::Mrf);   // the bug: was the ORF
  EXPECT_EQ(p[10].srcLevel[0], Level::Orf);
  EXPECT_EQ(p[4].dstLevel[0], Level::Orf);
  EXPECT_EQ(p[4].dstMrfMask & 1u, 1u);       // r2 is read from the MRF at 8: written there too
  EXPECT_EQ(p[11].srcLevel[0], Level::Orf);  // rd3 in OTHER, before the start
  EXPECT_EQ(p[13].srcLevel[0], Level::Mrf);  // rd3 in the next strand

  // The overlays' 3 entries (r2, now read once above, loses its entry to r1 and rd3) and the
  // split LRF.
  EXPECT_EQ(allocate(kSiblingStart, OrfParams{})[8].srcLevel[0], Level::Mrf);
  const std::vector<OperandPlacement> q = allocate(kSiblingStart, splitLrf());
  EXPECT_EQ(q[8].srcLevel[0], Level::Mrf);

  OrfParams blockLocal = roomy;  // forward_branches off: neither arm reads r2 above the MRF
  blockLocal.forwardBranches = false;
  const std::vector<OperandPlacement> b = allocate(kSiblingStart, blockLocal);
  EXPECT_EQ(b[8].srcLevel[0], Level::Mrf);
  EXPECT_EQ(b[10].srcLevel[0], Level::Mrf);
}

// The mirror image: the strand start is in the taken arm, which runs second. The fall-through
// arm's read (7) comes before it and stays in the ORF; so does the taken arm's (9), before the
// start in its own arm. (sibling_arms_test.cpp runs this kernel: it relies on func/warp.h's
// order, fall-through first.)
const char* kTakenStart = R"(
.visible .entry k(.param .u64 pout)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [pout];     // 0
  mov.u32 %r1, %tid.x;           // 1
  mul.wide.u32 %rd2, %r1, 4;     // 2
  add.s64 %rd3, %rd1, %rd2;      // 3
  add.u32 %r2, %r1, 100;         // 4
  setp.lt.u32 %p1, %r1, 16;      // 5
  @%p1 bra TAKEN;                // 6  lanes 0-15: run second
  add.u32 %r3, %r2, 1;           // 7  the ORF: runs before TAKEN's start
  bra.uni MERGE;                 // 8
TAKEN:
  add.u32 %r4, %r2, 2;           // 9  the ORF: the fall-through arm has no start
  ld.global.u32 %r5, [%rd3];     // 10
  add.u32 %r3, %r5, %r4;         // 11 strand start
MERGE:
  st.global.u32 [%rd3], %r3;     // 12 rd3 from the MRF: a start ran since 3
  ret;                           // 13
}
)";

TEST(Allocation, AStrandStartInTheArmThatRunsSecondLeavesTheFirstArmsReadsAbove) {
  OrfParams roomy;
  roomy.entries = 8;
  const std::vector<OperandPlacement> p = allocate(kTakenStart, roomy);
  EXPECT_EQ(p[7].srcLevel[0], Level::Orf);
  EXPECT_EQ(p[9].srcLevel[0], Level::Orf);
  EXPECT_EQ(p[4].dstMrfMask & 1u, 0u);  // every read of r2 above
  EXPECT_EQ(p[10].srcLevel[0], Level::Orf);
  EXPECT_EQ(p[12].srcLevel[0], Level::Mrf);
}

// Without the strand start (the load's consumer gone) the same read stays in the ORF, and so
// does a read after reconvergence (r2 at 11), from before the branch.
const char* kSiblingNoStart = R"(
.visible .entry k(.param .u64 pout)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [pout];     // 0
  mov.u32 %r1, %tid.x;           // 1
  mul.wide.u32 %rd2, %r1, 4;     // 2
  add.s64 %rd3, %rd1, %rd2;      // 3
  add.u32 %r2, %r1, 100;         // 4
  setp.lt.u32 %p1, %r1, 16;      // 5
  @%p1 bra TAKEN;                // 6
  bra.uni OTHER;                 // 7
TAKEN:
  add.u32 %r3, %r2, 1;           // 8  the ORF
  bra.uni MERGE;                 // 9
OTHER:
  add.u32 %r3, %r2, 2;           // 10 the ORF
MERGE:
  add.u32 %r4, %r3, %r2;         // 11 r2: the ORF
  st.global.u32 [%rd3], %r4;     // 12
  ret;                           // 13
}
)";

TEST(Allocation, SiblingArmsWithoutStrandStartsKeepValuesInTheOrf) {
  const std::vector<OperandPlacement> p = allocate(kSiblingNoStart, OrfParams{});
  EXPECT_EQ(p[8].srcLevel[0], Level::Orf);
  EXPECT_EQ(p[10].srcLevel[0], Level::Orf);
  EXPECT_EQ(p[11].srcLevel[1], Level::Orf);
  EXPECT_EQ(p[11].srcLevel[0], Level::Mrf);  // r3: two definitions reach the merge
  EXPECT_EQ(p[4].dstMrfMask & 1u, 0u);
}

// One ORF entry shared by the two arms' values: r2 over [3, 6) (read in TAKEN), r4 over [8, 9)
// (in OTHER), r1 gives up its reads at 8 and 10 to fit before r2. OTHER runs first and writes r4
// for its lanes only; TAKEN's lanes still hold r2 (sibling_arms_test.cpp checks the model).
const char* kSiblingReuse = R"(
.visible .entry k(.param .u64 pout)
{
  .reg .pred %p<2>;
  .reg .b32 %r<5>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [pout];     // 0
  mov.u32 %r1, %tid.x;           // 1
  setp.lt.u32 %p1, %r1, 16;      // 2
  add.u32 %r2, %r1, 100;         // 3
  @%p1 bra TAKEN;                // 4
  bra.uni OTHER;                 // 5
TAKEN:
  add.u32 %r3, %r2, 1;           // 6
  bra.uni MERGE;                 // 7
OTHER:
  add.u32 %r4, %r1, 2;           // 8
  add.u32 %r3, %r4, 3;           // 9
MERGE:
  mul.wide.u32 %rd2, %r1, 4;     // 10
  add.s64 %rd3, %rd1, %rd2;      // 11
  st.global.u32 [%rd3], %r3;     // 12
  ret;                           // 13
}
)";

TEST(Allocation, SiblingArmsShareAnEntryByPcOrder) {
  OrfParams one;
  one.entries = 1;
  AllocationCounts c;
  const std::vector<OperandPlacement> p = allocate(kSiblingReuse, one, &c);
  EXPECT_EQ(p[1].dstLevel[0], Level::Orf);
  EXPECT_EQ(p[1].dstMrfMask & 1u, 1u);
  EXPECT_EQ(p[3].dstLevel[0], Level::Orf);
  EXPECT_EQ(p[3].dstEntry[0], 0);
  EXPECT_EQ(p[6].srcLevel[0], Level::Orf);
  EXPECT_EQ(p[8].srcLevel[0], Level::Mrf);
  EXPECT_EQ(p[8].dstLevel[0], Level::Orf);
  EXPECT_EQ(p[8].dstEntry[0], 0);
  EXPECT_EQ(p[9].srcLevel[0], Level::Orf);
  EXPECT_EQ(c.upperReads, 4u);  // r1 at 2 and 3, r2 at 6, r4 at 9
}

// OTHER ends the function with a barrier and falls off the end: the strand after the barrier
// begins at the linker's sentinel `ret` (pc 10, past the last block), which OTHER's lanes run.
const char* kSentinelStart = R"(
.visible .entry k(.param .u64 pout)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [pout];     // 0
  mov.u32 %r1, %tid.x;           // 1
  add.u32 %r2, %r1, 1;           // 2
  setp.lt.u32 %p1, %r1, 16;      // 3
  @%p1 bra TAKEN;                // 4
  bra.uni OTHER;                 // 5
TAKEN:
  st.global.u32 [%rd1], %r2;     // 6  r2: OTHER's lanes may run the sentinel's start first
  ret;                           // 7
OTHER:
  add.u32 %r3, %r1, 2;           // 8
  bar.sync 0;                    // 9
}
)";

TEST(Allocation, AStrandStartAtTheSentinelCountsForTheArmThatFallsOffTheEnd) {
  func::testing::KernelRunner k(func::testing::ptxModule(kSentinelStart));
  EXPECT_EQ(formStrands(decodeFunction(k.program(), 0)).start, (std::vector<uint32_t>{0, 10}));
  OrfParams roomy;
  roomy.entries = 8;
  const std::vector<OperandPlacement> p = allocate(kSentinelStart, roomy);
  EXPECT_EQ(p[6].srcLevel[0], Level::Mrf);  // rd1 and r2, from before the branch
  EXPECT_EQ(p[6].srcLevel[1], Level::Mrf);
  EXPECT_EQ(p[8].srcLevel[0], Level::Orf);  // r1 in OTHER: TAKEN holds no start
}

}  // namespace
}  // namespace warpsim::mech::orf_lrf
