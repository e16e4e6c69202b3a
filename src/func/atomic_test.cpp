// Atomics under contention: every operation, 1024 threads on the same words, and a CAS loop.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "func/testing/kernel_runner.h"

namespace warpsim::func {
namespace {

using testing::KernelRunner;
using testing::ptxModule;

const char* kAtomics = R"(
.visible .entry atomics(.param .u64 counters, .param .u64 olds)
{
  .reg .pred %p<4>;
  .reg .b32 %r<24>;
  .reg .b64 %rd<10>;
  .reg .f32 %f<4>;
  .shared .align 4 .b32 scount;
  ld.param.u64 %rd1, [counters];
  ld.param.u64 %rd2, [olds];
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p2, %r1, 0;
  @!%p2 bra START;
  mov.u32 %r20, 5;
  st.shared.u32 [scount], %r20;
START:
  bar.sync 0;
  atom.global.add.u32 %r2, [%rd1], 1;
  mul.wide.u32 %rd3, %r1, 8;
  add.s64 %rd4, %rd2, %rd3;
  st.global.u32 [%rd4], %r2;
  red.global.add.u32 [%rd1+4], %r1;
  sub.s32 %r3, %r1, 500;
  atom.global.max.s32 %r4, [%rd1+8], %r3;
  atom.global.min.s32 %r5, [%rd1+12], %r3;
  atom.global.inc.u32 %r6, [%rd1+16], 9;
  atom.global.dec.u32 %r7, [%rd1+20], 5;
  atom.global.exch.b32 %r8, [%rd1+24], %r1;
  st.global.u32 [%rd4+4], %r8;
  atom.global.add.f32 %f1, [%rd1+28], 0f3F000000;
  and.b32 %r9, %r1, 31;
  mov.u32 %r10, 1;
  shl.b32 %r10, %r10, %r9;
  atom.global.or.b32 %r11, [%rd1+32], %r10;
  red.global.xor.b32 [%rd1+36], %r10;
  not.b32 %r12, %r10;
  atom.global.and.b32 %r13, [%rd1+40], %r12;
  atom.shared.add.u32 %r14, [scount], 2;
  atom.global.add.u64 %rd5, [%rd1+48], 3;
CAS:
  ld.volatile.global.u32 %r15, [%rd1+56];
  add.u32 %r16, %r15, 1;
  atom.global.cas.b32 %r17, [%rd1+56], %r15, %r16;
  setp.ne.u32 %p1, %r17, %r15;
  @%p1 bra CAS;
  mov.b32 %r18, 0x3C003C00;
  atom.global.add.noftz.f16x2 %r19, [%rd1+60], %r18;
  mov.b32 %r18, 0x3F803F80;
  red.global.add.noftz.bf16x2 [%rd1+64], %r18;
  bar.sync 0;
  @!%p2 bra END;
  ld.shared.u32 %r21, [scount];
  st.global.u32 [%rd1+44], %r21;
END:
  ret;
}
)";

TEST(Atomics, ContendedOperationsSerialiseInLaneOrder) {
  KernelRunner r(ptxModule(kAtomics));
  std::vector<uint32_t> init(17, 0);
  init[10] = 0xFFFFFFFF;  // and target
  uint64_t counters = r.upload(init);
  uint64_t olds = r.upload(std::vector<uint32_t>(2048, 0));
  LaunchResult res = r.launch("atomics", {1, 1, 1}, {1024, 1, 1}, {counters, olds});
  ASSERT_TRUE(res.ok) << res.error;
  auto c = r.download<uint32_t>(counters, 17);
  EXPECT_EQ(c[0], 1024u);
  EXPECT_EQ(c[1], 1023u * 1024 / 2);
  EXPECT_EQ(static_cast<int32_t>(c[2]), 523);
  EXPECT_EQ(static_cast<int32_t>(c[3]), -500);
  EXPECT_EQ(c[4], 1024u % 10);              // inc wraps at 9
  EXPECT_EQ(c[5], 6u - 1024 % 6);           // dec: 0 -> 5 -> 4 ... period 6
  EXPECT_EQ(c[6], 30u * 32 + 31);           // the last exchange wins (see the order below)
  float f;
  std::memcpy(&f, &c[7], 4);
  EXPECT_EQ(f, 512.0f);
  EXPECT_EQ(c[8], 0xFFFFFFFFu);
  EXPECT_EQ(c[9], 0u);                      // every bit toggled 32 times
  EXPECT_EQ(c[10], 0u);
  EXPECT_EQ(c[11], 5u + 2 * 1024);          // shared counter
  uint64_t wide;
  std::memcpy(&wide, &c[12], 8);
  EXPECT_EQ(wide, 3u * 1024);
  EXPECT_EQ(c[14], 1024u);                  // CAS loop
  EXPECT_EQ(c[15], 0x64006400u);            // f16x2: 1024.0 in both halves
  EXPECT_EQ(c[16], 0x43804380u);            // bf16x2: 256 + 1 rounds back to 256
  // Warp 31 completes the first barrier and runs on, so it reaches the atomics first; the
  // others follow in warp order, lanes in lane order.
  std::vector<uint32_t> order;
  for (uint32_t l = 0; l < 32; ++l) order.push_back(31 * 32 + l);
  for (uint32_t t = 0; t < 31 * 32; ++t) order.push_back(t);
  auto o = r.download<uint32_t>(olds, 2048);
  for (uint32_t i = 0; i < 1024; ++i) {
    const uint32_t t = order[i];
    EXPECT_EQ(o[2 * t], i) << "add old value of thread " << t;
    EXPECT_EQ(o[2 * t + 1], i == 0 ? 0 : order[i - 1]) << "exch old value of thread " << t;
  }
}

TEST(Atomics, GenericAtomicsReachSharedAndGlobal) {
  KernelRunner r(ptxModule(R"(
.visible .entry gen(.param .u64 out)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<6>;
  .shared .align 8 .b64 sv;
  ld.param.u64 %rd1, [out];
  mov.u64 %rd2, sv;
  cvta.shared.u64 %rd3, %rd2;
  atom.add.u64 %rd4, [%rd3], 5;
  atom.add.u32 %r1, [%rd1], 7;
  bar.sync 0;
  ld.shared.u64 %rd5, [sv];
  st.global.u64 [%rd1+8], %rd5;
  ret;
}
)"));
  uint64_t out = r.upload(std::vector<uint64_t>(2, 0));
  LaunchResult res = r.launch("gen", {1, 1, 1}, {64, 1, 1}, {out});
  ASSERT_TRUE(res.ok) << res.error;
  auto v = r.download<uint64_t>(out, 2);
  EXPECT_EQ(v[0], 7u * 64);
  EXPECT_EQ(v[1], 5u * 64);
}

TEST(Atomics, UnsupportedVariantIsALinkError) {
  const std::string text = ptxModule(R"(
.visible .entry bad(.param .u64 p)
{
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [p];
  atom.global.inc.u64 %rd2, [%rd1], 3;
  ret;
}
)");
  try {
    KernelRunner r(text);
    FAIL() << "linked";
  } catch (const LinkError& e) {
    EXPECT_EQ(std::string(e.what()), "test.ptx:10: error: unsupported atomic operation on this type in 'atom'");
  }
}

}  // namespace
}  // namespace warpsim::func
