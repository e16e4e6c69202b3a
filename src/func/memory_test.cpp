// Memory spaces through PTX: const, kernel params, local, static and dynamic shared, generic
// addressing, vectors, sign extension, and the messages of illegal accesses.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "func/address_space.h"
#include "func/testing/kernel_runner.h"

namespace warpsim::func {
namespace {

using testing::KernelRunner;
using testing::ptxModule;

const char* kSpaces = R"(
.const .align 4 .b32 ctab[4] = {10, 20, 30, 40};
.shared .align 4 .b32 sfix[64];
.extern .shared .align 16 .b8 dyn[];

.visible .entry spaces(.param .u64 out, .param .u32 k)
{
  .reg .pred %p<4>;
  .reg .b32 %r<24>;
  .reg .b64 %rd<20>;
  .local .align 4 .b8 __local_depot0[16];
  .reg .b64 %SP;
  .reg .b64 %SPL;
  mov.u64 %SPL, __local_depot0;
  cvta.local.u64 %SP, %SPL;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u64 %rd2, ctab;
  and.b32 %r2, %r1, 3;
  mul.wide.u32 %rd3, %r2, 4;
  add.s64 %rd4, %rd2, %rd3;
  ld.const.u32 %r3, [%rd4];
  ld.const.u32 %r4, [ctab+12];
  mov.u64 %rd5, k;
  ld.param.u32 %r5, [%rd5];
  mul.lo.u32 %r6, %r1, 2;
  st.local.u32 [%SPL+4], %r6;
  add.u64 %rd6, %SP, 4;
  ld.u32 %r7, [%rd6];
  isspacep.local %p1, %rd6;
  mov.u64 %rd7, sfix;
  cvta.shared.u64 %rd8, %rd7;
  mul.wide.u32 %rd9, %r1, 4;
  add.s64 %rd10, %rd8, %rd9;
  st.u32 [%rd10], %r1;
  isspacep.shared %p2, %rd10;
  mov.u32 %r8, dyn;
  shl.b32 %r9, %r1, 2;
  add.u32 %r10, %r8, %r9;
  add.u32 %r11, %r1, 1000;
  st.shared.u32 [%r10], %r11;
  bar.sync 0;
  xor.b32 %r12, %r1, 1;
  shl.b32 %r13, %r12, 2;
  mov.u32 %r15, sfix;
  add.u32 %r15, %r15, %r13;
  ld.shared.u32 %r16, [%r15];
  add.u32 %r17, %r8, %r13;
  ld.shared.u32 %r18, [%r17];
  isspacep.global %p3, %rd1;
  selp.u32 %r19, 1, 0, %p1;
  selp.u32 %r20, 1, 0, %p2;
  selp.u32 %r21, 1, 0, %p3;
  shl.b32 %r19, %r19, 2;
  shl.b32 %r20, %r20, 1;
  or.b32 %r19, %r19, %r20;
  or.b32 %r19, %r19, %r21;
  mul.wide.u32 %rd11, %r1, 32;
  add.s64 %rd12, %rd1, %rd11;
  st.global.v4.u32 [%rd12], {%r3, %r4, %r5, %r7};
  st.global.v4.u32 [%rd12+16], {%r16, %r18, %r19, %r8};
  ret;
}
)";

TEST(Memory, EverySpaceAndGenericAddressing) {
  KernelRunner r(ptxModule(kSpaces));
  const int n = 64;
  uint64_t out = r.upload(std::vector<uint32_t>(n * 8, 0));
  const uint32_t fn = static_cast<uint32_t>(r.program().findKernel("spaces"));
  EXPECT_EQ(r.program().staticSharedBytes(fn), 256u);
  EXPECT_EQ(r.program().dynamicSharedBase(fn), 256u);
  LaunchResult res = r.launch("spaces", {1, 1, 1}, {n, 1, 1}, {out, 4242}, 256);
  ASSERT_TRUE(res.ok) << res.error;
  auto v = r.download<uint32_t>(out, n * 8);
  for (uint32_t t = 0; t < n; ++t) {
    const uint32_t* o = &v[t * 8];
    EXPECT_EQ(o[0], 10 * ((t & 3) + 1)) << t;  // const through a register address
    EXPECT_EQ(o[1], 40u) << t;                  // const through symbol + offset
    EXPECT_EQ(o[2], 4242u) << t;                // kernel parameter through a register
    EXPECT_EQ(o[3], 2 * t) << t;                // local through a generic pointer
    EXPECT_EQ(o[4], t ^ 1) << t;                // static shared written through generic
    EXPECT_EQ(o[5], (t ^ 1) + 1000) << t;       // dynamic shared
    EXPECT_EQ(o[6], 7u) << t;                   // isspacep local, shared, global
    EXPECT_EQ(o[7], 256u) << t;                 // dynamic shared starts after the static part
  }
}

const char* kVectors = R"(
.visible .entry vec(.param .u64 in, .param .u64 out)
{
  .reg .b16 %rs<4>;
  .reg .b32 %r<10>;
  .reg .b64 %rd<10>;
  .reg .f64 %fd<4>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  ld.global.v4.u32 {%r1, %r2, _, %r4}, [%rd1];
  ld.global.s8 %r5, [%rd1+16];
  ld.global.u8 %r6, [%rd1+16];
  ld.global.s16 %rd3, [%rd1+18];
  ld.global.s8 %rs1, [%rd1+16];
  cvt.u64.u32 %rd4, %r5;
  st.global.v2.u64 [%rd2], {%rd3, %rd4};
  st.global.v4.u32 [%rd2+16], {%r1, %r2, %r4, %r6};
  st.global.u16 [%rd2+32], %rs1;
  ld.global.v2.f64 {%fd1, %fd2}, [%rd1+32];
  add.f64 %fd3, %fd1, %fd2;
  st.global.f64 [%rd2+40], %fd3;
  ret;
}
)";

TEST(Memory, VectorsAndSignExtensionKeepTheRegisterInvariant) {
  KernelRunner r(ptxModule(kVectors));
  std::vector<uint8_t> in(48, 0);
  const uint32_t words[4] = {11, 22, 33, 44};
  std::memcpy(in.data(), words, 16);
  in[16] = 0x80;
  in[18] = 0x01;
  in[19] = 0x80;
  const double d[2] = {1.5, 2.25};
  std::memcpy(in.data() + 32, d, 16);
  uint64_t din = r.upload(in), dout = r.upload(std::vector<uint8_t>(48, 0));
  LaunchResult res = r.launch("vec", {1, 1, 1}, {1, 1, 1}, {din, dout});
  ASSERT_TRUE(res.ok) << res.error;
  auto o = r.download<uint8_t>(dout, 48);
  uint64_t q[2];
  std::memcpy(q, o.data(), 16);
  EXPECT_EQ(q[0], 0xFFFFFFFFFFFF8001ull);  // ld.s16 into a 64-bit register
  EXPECT_EQ(q[1], 0x00000000FFFFFF80ull);  // ld.s8 into a 32-bit register: zeros above bit 31
  uint32_t w[4];
  std::memcpy(w, o.data() + 16, 16);
  EXPECT_EQ(w[0], 11u);
  EXPECT_EQ(w[1], 22u);
  EXPECT_EQ(w[2], 44u);
  EXPECT_EQ(w[3], 0x80u);
  uint16_t h;
  std::memcpy(&h, o.data() + 32, 2);
  EXPECT_EQ(h, 0xFF80);
  double sum;
  std::memcpy(&sum, o.data() + 40, 8);
  EXPECT_EQ(sum, 3.75);
}

// Global index ctaid*8 + tid stores past a 10-element buffer.
const char* kOverrun = R"(
.visible .entry overrun(.param .u64 out)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mad.lo.s32 %r3, %r2, 8, %r1;
  mul.wide.u32 %rd2, %r3, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r3;
  ret;
}
)";

TEST(Memory, OutOfBoundsGlobalStoreNamesCtaThreadLineAndAddress) {
  KernelRunner r(ptxModule(kOverrun));
  r.options.memcheck = true;  // without it the store lands in the allocation's mapped chunk
  uint64_t out = r.upload(std::vector<uint32_t>(10, 0));
  LaunchResult res = r.launch("overrun", {2, 1, 1}, {8, 1, 1}, {out});
  ASSERT_FALSE(res.ok);
  EXPECT_EQ(res.error, fmt::format("kernel 'overrun' CTA (1,0,0) thread (2,0,0) at test.ptx:16: illegal global store "
                                   "of 4 bytes at {:#x} (outside every allocation: 0 bytes after the end of the "
                                   "allocation at {:#x} of 40 bytes)",
                                   out + 40, out));
  EXPECT_EQ(res.ctasExecuted, 2u);
  auto v = r.download<uint32_t>(out, 10);
  EXPECT_EQ(v[9], 9u);
}

std::string runFault(const std::string& body, std::vector<KernelRunner::Arg> args = {}, uint32_t dyn = 0) {
  KernelRunner r(ptxModule(body));
  LaunchResult res = r.launch("f", {1, 1, 1}, {32, 1, 1}, std::move(args), dyn);
  EXPECT_FALSE(res.ok);
  return res.error;
}

TEST(Memory, NullAndMisalignedGlobalAccesses) {
  EXPECT_EQ(runFault(R"(
.visible .entry f(.param .u64 p)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];
  ld.global.u32 %r1, [%rd1+16];
  ret;
}
)",
                     {uint64_t{0}}),
            "kernel 'f' CTA (0,0,0) thread (0,0,0) at test.ptx:11: illegal global load of 4 bytes at 0x10 (unmapped)");
  KernelRunner r(ptxModule(R"(
.visible .entry f(.param .u64 p)
{
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [p];
  ld.global.u64 %rd2, [%rd1+4];
  ret;
}
)"));
  uint64_t buf = r.upload(std::vector<uint64_t>(4, 0));
  LaunchResult res = r.launch("f", {1, 1, 1}, {1, 1, 1}, {buf});
  EXPECT_EQ(res.error, fmt::format("kernel 'f' CTA (0,0,0) thread (0,0,0) at test.ptx:10: misaligned global load of "
                                   "8 bytes at {:#x}",
                                   buf + 4));
}

TEST(Memory, SharedAndLocalOutOfRange) {
  EXPECT_EQ(runFault(R"(
.visible .entry f()
{
  .reg .b32 %r<4>;
  .shared .align 4 .b8 s[256];
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 4;
  st.shared.u32 [s], %r1;
  st.shared.u32 [%r2], %r1;
  ret;
}
)"),
            "kernel 'f' CTA (0,0,0) thread (16,0,0) at test.ptx:13: illegal shared store of 4 bytes at offset 0x100 "
            "(out of range: the CTA's shared memory is 256 bytes)");
  // Through a generic pointer, the message gives the generic address.
  EXPECT_EQ(runFault(R"(
.visible .entry f()
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b8 s[64];
  mov.u64 %rd1, s;
  cvta.shared.u64 %rd2, %rd1;
  ld.u32 %r1, [%rd2+64];
  ret;
}
)"),
            "kernel 'f' CTA (0,0,0) thread (0,0,0) at test.ptx:13: illegal shared load of 4 bytes at generic address "
            "0x20000000040 (out of range: the CTA's shared memory is 64 bytes)");
  // Local memory: the kernel's 16-byte depot plus the 1024-byte stack.
  EXPECT_EQ(runFault(R"(
.visible .entry f()
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  .local .align 4 .b8 __local_depot0[16];
  mov.u64 %rd1, __local_depot0;
  st.local.u32 [%rd1+1040], %r1;
  ret;
}
)"),
            "kernel 'f' CTA (0,0,0) thread (0,0,0) at test.ptx:12: illegal local store of 4 bytes at offset 0x410 "
            "(out of range: per-thread local memory is 1040 bytes)");
}

TEST(Memory, GenericNullPointerIsAGlobalFault) {
  EXPECT_EQ(runFault(R"(
.visible .entry f()
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  mov.u64 %rd1, 0;
  st.u32 [%rd1], %r1;
  ret;
}
)"),
            "kernel 'f' CTA (0,0,0) thread (0,0,0) at test.ptx:11: illegal global store of 4 bytes at 0x0 (unmapped)");
}

// Every CTA starts with zeroed shared and local memory, whatever earlier CTAs left there.
TEST(Memory, SharedAndLocalStartZeroedInEveryCta) {
  KernelRunner r(ptxModule(R"(
.visible .entry z(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  .shared .align 4 .b8 s[128];
  .local .align 4 .b8 __local_depot0[4];
  ld.param.u64 %rd1, [out];
  mov.u64 %rd2, __local_depot0;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, s;
  shl.b32 %r4, %r1, 2;
  add.u32 %r3, %r3, %r4;
  ld.shared.u32 %r5, [%r3];
  ld.local.u32 %r6, [%rd2];
  add.u32 %r5, %r5, %r6;
  mad.lo.u32 %r7, %r2, 32, %r1;
  mul.wide.u32 %rd3, %r7, 4;
  add.s64 %rd4, %rd1, %rd3;
  st.global.u32 [%rd4], %r5;
  st.shared.u32 [%r3], 99;
  st.local.u32 [%rd2], 7;
  ret;
}
)"));
  uint64_t out = r.upload(std::vector<uint32_t>(96, 1));
  LaunchResult res = r.launch("z", {3, 1, 1}, {32, 1, 1}, {out});
  ASSERT_TRUE(res.ok) << res.error;
  EXPECT_EQ(res.ctasExecuted, 3u);
  auto v = r.download<uint32_t>(out, 96);
  for (uint32_t i = 0; i < 96; ++i) EXPECT_EQ(v[i], 0u) << i;
}

}  // namespace
}  // namespace warpsim::func
