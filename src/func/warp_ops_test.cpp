// shfl / vote / match / activemask, with full warps, segments and divergence.
#include <gtest/gtest.h>

#include "func/testing/kernel_runner.h"

namespace warpsim::func {
namespace {

using testing::KernelRunner;
using testing::ptxModule;

const char* kWarpOps = R"(
.visible .entry warpops(.param .u64 out)
{
  .reg .pred %p<10>;
  .reg .b32 %r<32>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %laneid;
  mul.lo.u32 %r2, %r1, 10;
  shfl.sync.down.b32 %r3|%p1, %r2, 3, 31, 0xffffffff;
  shfl.sync.up.b32 %r4|%p2, %r2, 2, 0, 0xffffffff;
  shfl.sync.bfly.b32 %r5, %r2, 5, 31, 0xffffffff;
  shfl.sync.idx.b32 %r6, %r2, 7, 31, 0xffffffff;
  shfl.sync.idx.b32 %r7, %r2, 2, 0x181f, 0xffffffff;
  shfl.sync.down.b32 %r8, %r2, 4, 0x181f, 0xffffffff;
  and.b32 %r9, %r1, 1;
  setp.eq.u32 %p3, %r9, 0;
  mov.u32 %r10, 0;
  mov.u32 %r11, 0;
  mov.u32 %r12, 0;
  mov.u32 %r13, 0;
  mov.u32 %r14, 0;
  mov.u32 %r15, 0;
  @!%p3 bra JOIN;
  shfl.sync.idx.b32 %r10, %r2, 1, 31, 0x55555555;
  vote.sync.ballot.b32 %r11, %p3, 0x55555555;
  activemask.b32 %r12;
  setp.lt.u32 %p4, %r1, 10;
  vote.sync.any.pred %p5, %p4, 0x55555555;
  vote.sync.all.pred %p6, %p4, 0x55555555;
  vote.sync.uni.pred %p7, %p3, 0x55555555;
  shr.u32 %r16, %r1, 2;
  match.any.sync.b32 %r13, %r16, 0x55555555;
  match.all.sync.b32 %r14|%p8, %r9, 0x55555555;
  selp.u32 %r17, 1, 0, %p5;
  selp.u32 %r18, 2, 0, %p6;
  selp.u32 %r19, 4, 0, %p7;
  selp.u32 %r20, 8, 0, %p8;
  or.b32 %r15, %r17, %r18;
  or.b32 %r15, %r15, %r19;
  or.b32 %r15, %r15, %r20;
JOIN:
  selp.u32 %r21, 1, 0, %p1;
  selp.u32 %r22, 2, 0, %p2;
  or.b32 %r21, %r21, %r22;
  activemask.b32 %r23;
  vote.sync.ballot.b32 %r24, %p1, 0xffffffff;
  mul.wide.u32 %rd2, %r1, 64;
  add.s64 %rd3, %rd1, %rd2;
  st.global.v4.u32 [%rd3], {%r3, %r4, %r5, %r6};
  st.global.v4.u32 [%rd3+16], {%r7, %r8, %r10, %r11};
  st.global.v4.u32 [%rd3+32], {%r12, %r13, %r14, %r15};
  st.global.v4.u32 [%rd3+48], {%r21, %r23, %r24, %r1};
  ret;
}
)";

TEST(WarpOps, ShuffleVoteMatchWithSegmentsAndDivergence) {
  KernelRunner r(ptxModule(kWarpOps));
  uint64_t out = r.upload(std::vector<uint32_t>(32 * 16, 0xEEEE));
  LaunchResult res = r.launch("warpops", {1, 1, 1}, {32, 1, 1}, {out});
  ASSERT_TRUE(res.ok) << res.error;
  auto v = r.download<uint32_t>(out, 32 * 16);
  for (uint32_t l = 0; l < 32; ++l) {
    const uint32_t* o = &v[l * 16];
    SCOPED_TRACE(::testing::Message() << "lane " << l);
    EXPECT_EQ(o[0], (l <= 28 ? l + 3 : l) * 10);         // down 3
    EXPECT_EQ(o[1], (l >= 2 ? l - 2 : l) * 10);          // up 2
    EXPECT_EQ(o[2], (l ^ 5) * 10);                       // butterfly
    EXPECT_EQ(o[3], 70u);                                // idx 7
    EXPECT_EQ(o[4], ((l & ~7u) + 2) * 10);               // idx 2 within 8-lane segments
    EXPECT_EQ(o[5], ((l & 7) <= 3 ? l + 4 : l) * 10);    // down 4 within segments
    const bool even = (l & 1) == 0;
    // Even lanes only: lane 1 is not executing; its register is read as it stands (10).
    EXPECT_EQ(o[6], even ? 10u : 0u);
    EXPECT_EQ(o[7], even ? 0x55555555u : 0u);            // ballot over executing lanes
    EXPECT_EQ(o[8], even ? 0x55555555u : 0u);            // activemask
    EXPECT_EQ(o[9], even ? (0x5u << (l & ~3u)) : 0u);    // match.any on lane / 4
    EXPECT_EQ(o[10], even ? 0x55555555u : 0u);           // match.all: all equal
    EXPECT_EQ(o[11], even ? (1u | 4u | 8u) : 0u);        // any true, all false, uni true, match.all p
    EXPECT_EQ(o[12], (l <= 28 ? 1u : 0u) | (l >= 2 ? 2u : 0u));  // shfl predicates
    EXPECT_EQ(o[13], 0xFFFFFFFFu);                       // reconverged
    EXPECT_EQ(o[14], 0x1FFFFFFFu);
  }
}

TEST(WarpOps, LaneMissingFromMembermaskFaults) {
  KernelRunner r(ptxModule(R"(
.visible .entry f()
{
  .reg .b32 %r<4>;
  mov.u32 %r1, %laneid;
  shfl.sync.idx.b32 %r2, %r1, 0, 31, 0x0000ffff;
  ret;
}
)"));
  LaunchResult res = r.launch("f", {1, 1, 1}, {32, 1, 1});
  ASSERT_FALSE(res.ok);
  EXPECT_EQ(res.error,
            "kernel 'f' CTA (0,0,0) thread (16,0,0) at test.ptx:10: shfl.sync executed by a lane missing from "
            "membermask 0x0000ffff");
}

TEST(WarpOps, PartialLastWarpShufflesAmongItsLiveLanes) {
  KernelRunner r(ptxModule(R"(
.visible .entry f(.param .u64 out)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  shfl.sync.bfly.b32 %r2, %r1, 1, 31, 0xffffffff;
  activemask.b32 %r3;
  mul.wide.u32 %rd2, %r1, 8;
  add.s64 %rd3, %rd1, %rd2;
  st.global.v2.u32 [%rd3], {%r2, %r3};
  ret;
}
)"));
  uint64_t out = r.upload(std::vector<uint32_t>(80, 0));
  LaunchResult res = r.launch("f", {1, 1, 1}, {40, 1, 1}, {out});
  ASSERT_TRUE(res.ok) << res.error;
  auto v = r.download<uint32_t>(out, 80);
  for (uint32_t t = 0; t < 40; ++t) {
    EXPECT_EQ(v[2 * t], t ^ 1) << t;
    EXPECT_EQ(v[2 * t + 1], t < 32 ? 0xFFFFFFFFu : 0xFFu) << t;
  }
}

}  // namespace
}  // namespace warpsim::func
