// Strand formation on hand-written PTX: every strand start and its cause.
#include "mech/orf_lrf/strands.h"

#include <gtest/gtest.h>

#include "func/testing/kernel_runner.h"

namespace warpsim::mech::orf_lrf {
namespace {

const char* kKernel = R"(
.visible .entry k(.param .u64 p)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];        // 0  function entry (a parameter: not long latency)
  ld.global.u32 %r1, [%rd1];     // 1
  add.u32 %r2, %r3, 1;           // 2  independent of the load
  add.u32 %r4, %r1, %r2;         // 3  consumes the load: long latency
  bar.sync 0;                    // 4
  add.u32 %r5, %r4, 1;           // 5  after a barrier
LOOP:
  add.u32 %r5, %r5, 1;           // 6  loop head
  setp.lt.u32 %p1, %r5, 10;      // 7
  @%p1 bra LOOP;                 // 8
  st.global.u32 [%rd1], %r5;     // 9  after the backward branch
  setp.eq.u32 %p1, %r5, 0;       // 10
  ld.global.u32 %r6, [%rd1];     // 11
  @%p1 bra SKIP;                 // 12
  add.u32 %r7, %r2, 1;           // 13 independent
SKIP:
  add.u32 %r7, %r6, 2;           // 14 the load may be pending on either path: long latency
  ret;                           // 15
}
)";

TEST(Strands, EveryStartWithItsCause) {
  func::testing::KernelRunner k(func::testing::ptxModule(kKernel));
  const FunctionCode f = decodeFunction(k.program(), 0);
  const Strands s = formStrands(f);
  EXPECT_EQ(s.start, (std::vector<uint32_t>{0, 3, 5, 6, 9, 14}));
  EXPECT_EQ(s.cause, (std::vector<StrandCause>{StrandCause::FunctionEntry, StrandCause::LongLatency,
                                               StrandCause::Barrier, StrandCause::LoopHead,
                                               StrandCause::BackwardBranch, StrandCause::LongLatency}));
  EXPECT_EQ(s.strandOf[2], 0u);
  EXPECT_EQ(s.strandOf[13], 4u);
  EXPECT_EQ(s.strandOf[15], 5u);
}

}  // namespace
}  // namespace warpsim::mech::orf_lrf
