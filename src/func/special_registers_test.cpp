// Special registers read through mov, across a 2-D grid of 2-D blocks.
#include <gtest/gtest.h>

#include "func/testing/kernel_runner.h"

namespace warpsim::func {
namespace {

using testing::KernelRunner;
using testing::ptxModule;

const char* kSpecial = R"(
.visible .entry sregs(.param .u64 out)
{
  .reg .b32 %r<24>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %tid.y;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %ntid.y;
  mov.u32 %r5, %ctaid.x;
  mov.u32 %r6, %ctaid.y;
  mov.u32 %r7, %nctaid.x;
  mov.u32 %r8, %nctaid.y;
  mov.u32 %r9, %laneid;
  mov.u32 %r10, %warpid;
  mov.u32 %r11, %smid;
  mov.u32 %r12, %nsmid;
  mov.u32 %r13, %lanemask_lt;
  mov.u32 %r14, %lanemask_ge;
  mov.u32 %r15, %dynamic_smem_size;
  mov.u32 %r16, %total_smem_size;
  mov.u32 %r17, %lanemask_eq;
  mov.u32 %r18, %lanemask_gt;
  mov.u64 %rd2, %clock64;
  mov.u32 %r19, %clock;
  mov.u32 %r20, %lanemask_le;
  mov.u32 %r21, %nwarpid;
  cvt.u32.u64 %r22, %rd2;
  mad.lo.u32 %r23, %r6, %r7, %r5;
  mad.lo.u32 %r23, %r23, %r4, %r2;
  mad.lo.u32 %r23, %r23, %r3, %r1;
  mul.wide.u32 %rd3, %r23, 80;
  add.s64 %rd4, %rd1, %rd3;
  st.global.v4.u32 [%rd4], {%r1, %r2, %r3, %r4};
  st.global.v4.u32 [%rd4+16], {%r5, %r6, %r7, %r8};
  st.global.v4.u32 [%rd4+32], {%r9, %r10, %r11, %r12};
  st.global.v4.u32 [%rd4+48], {%r13, %r14, %r15, %r16};
  st.global.v4.u32 [%rd4+64], {%r17, %r18, %r22, %r20};
  ret;
}
)";

TEST(SpecialRegisters, EveryRegisterInEveryThread) {
  KernelRunner r(ptxModule(kSpecial));
  r.options.numSms = 3;
  const uint32_t threads = 2 * 3 * 24 * 2;  // grid (2,3) of (24,2) blocks
  uint64_t out = r.upload(std::vector<uint32_t>(threads * 20, 0));
  LaunchResult res = r.launch("sregs", {2, 3, 1}, {24, 2, 1}, {out}, 64);
  ASSERT_TRUE(res.ok) << res.error;
  auto v = r.download<uint32_t>(out, threads * 20);
  for (uint32_t cy = 0; cy < 3; ++cy)
    for (uint32_t cx = 0; cx < 2; ++cx)
      for (uint32_t ty = 0; ty < 2; ++ty)
        for (uint32_t tx = 0; tx < 24; ++tx) {
          const uint32_t linearTid = ty * 24 + tx, cta = cy * 2 + cx;
          const uint32_t* o = &v[((cta * 2 + ty) * 24 + tx) * 20];
          SCOPED_TRACE(::testing::Message() << "cta " << cta << " thread " << linearTid);
          const uint32_t lane = linearTid % 32;
          EXPECT_EQ(o[0], tx);
          EXPECT_EQ(o[1], ty);
          EXPECT_EQ(o[2], 24u);
          EXPECT_EQ(o[3], 2u);
          EXPECT_EQ(o[4], cx);
          EXPECT_EQ(o[5], cy);
          EXPECT_EQ(o[6], 2u);
          EXPECT_EQ(o[7], 3u);
          EXPECT_EQ(o[8], lane);
          EXPECT_EQ(o[9], linearTid / 32);
          EXPECT_EQ(o[10], cta % 3);
          EXPECT_EQ(o[11], 3u);
          EXPECT_EQ(o[12], (1u << lane) - 1);
          EXPECT_EQ(o[13], ~((1u << lane) - 1));
          EXPECT_EQ(o[14], 64u);
          EXPECT_EQ(o[15], 64u);
          EXPECT_EQ(o[16], 1u << lane);
          EXPECT_EQ(o[17], lane == 31 ? 0u : ~((2u << lane) - 1));
          EXPECT_EQ(o[18], 19u);  // %clock64 counts the warp's instructions executed before it
          EXPECT_EQ(o[19], lane == 31 ? 0xFFFFFFFFu : (2u << lane) - 1);
        }
}

}  // namespace
}  // namespace warpsim::func
