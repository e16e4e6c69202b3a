// Atomics under contention: every operation, 1024 threads on the same words, and a CAS loop;
// vector atomics (sm_90) element by element in lane order; floating-point min/max with the
// NaN and signed-zero rules of the min instruction; where atom.add.f32 flushes subnormals.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstring>
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
  EXPECT_EQ(c[6], 1023u);                   // the last exchange wins (see the order below)
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
  // The warps leave the first barrier together and take turns one instruction at a time
  // (cta.h), so they reach each atomic in warp order, lanes in lane order.
  std::vector<uint32_t> order;
  for (uint32_t t = 0; t < 1024; ++t) order.push_back(t);
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

// A module for sm_90, where the vector forms exist.
std::string sm90Module(const std::string& body) {
  return ".version 8.1\n.target sm_90\n.address_size 64\n\n" + body;
}
uint32_t bitsOf(float f) { return std::bit_cast<uint32_t>(f); }

TEST(Atomics, VectorAddUpdatesEachElementInLaneOrder) {
  KernelRunner r(sm90Module(R"(
.visible .entry vadd(.param .u64 acc, .param .u64 olds)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<6>;
  .reg .f32 %f<12>;
  ld.param.u64 %rd1, [acc];
  ld.param.u64 %rd2, [olds];
  mov.u32 %r1, %tid.x;
  cvt.rn.f32.u32 %f1, %r1;
  mov.f32 %f2, 0f3F800000;
  mov.f32 %f3, 0f3E800000;
  mov.f32 %f4, 0fBF800000;
  atom.global.add.v4.f32 {%f5, %f6, %f7, %f8}, [%rd1], {%f2, %f1, %f3, %f4};
  mul.wide.u32 %rd3, %r1, 16;
  add.s64 %rd4, %rd2, %rd3;
  st.global.v4.f32 [%rd4], {%f5, %f6, %f7, %f8};
  atom.global.add.v2.f32 {_, %f9}, [%rd1+16], {%f2, %f2};
  red.add.v2.f32 [%rd1+24], {%f1, %f2};
  atom.global.add.v2.f32 {%f10, %f11}, [%rd1+32], {%f2, %f2};
  ret;
}
)"));
  uint64_t acc = r.upload(std::vector<float>(10, 0.0f));
  // Element 0 of the last vector starts subnormal: without .noftz the global add flushes it.
  std::vector<uint32_t> sub = {0x00000001u};
  r.memory.write(acc + 32, sub.data(), 4);
  uint64_t olds = r.upload(std::vector<float>(32 * 4, -7.0f));
  LaunchResult res = r.launch("vadd", {1, 1, 1}, {32, 1, 1}, {acc, olds});
  ASSERT_TRUE(res.ok) << res.error;
  const auto a = r.download<float>(acc, 10);
  EXPECT_EQ(a[0], 32.0f);
  EXPECT_EQ(a[1], 496.0f);  // 0 + 1 + ... + 31
  EXPECT_EQ(a[2], 8.0f);
  EXPECT_EQ(a[3], -32.0f);
  EXPECT_EQ(a[4], 32.0f);  // the sink still adds
  EXPECT_EQ(a[5], 32.0f);
  EXPECT_EQ(a[6], 496.0f);  // red through a generic address
  EXPECT_EQ(a[7], 32.0f);
  EXPECT_EQ(a[8], 32.0f);  // 2^-149 flushed to zero before the first add
  EXPECT_EQ(a[9], 32.0f);
  const auto o = r.download<float>(olds, 32 * 4);
  for (unsigned l = 0; l < 32; ++l) {
    EXPECT_EQ(o[4 * l], static_cast<float>(l)) << "lane " << l;
    EXPECT_EQ(o[4 * l + 1], static_cast<float>(l * (l - 1) / 2)) << "lane " << l;
    EXPECT_EQ(o[4 * l + 2], 0.25f * static_cast<float>(l)) << "lane " << l;
    EXPECT_EQ(o[4 * l + 3], -static_cast<float>(l)) << "lane " << l;
  }
}

// bf16 max over 32 lanes, eight elements each: lane l offers l * (k + 1) in element k (exact in
// bf16), so element k ends at 31 * (k + 1) and lane l reads (l - 1) * (k + 1) (lane 0: -inf).
TEST(Atomics, V8Bf16MaxSerialisesLanesPerElement) {
  KernelRunner r(sm90Module(R"(
.visible .entry vmax(.param .u64 acc, .param .u64 in, .param .u64 olds)
{
  .reg .b16 %rs<17>;
  .reg .b32 %r<2>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [acc];
  ld.param.u64 %rd2, [in];
  ld.param.u64 %rd3, [olds];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd4, %r1, 16;
  add.s64 %rd5, %rd2, %rd4;
  add.s64 %rd6, %rd3, %rd4;
  ld.global.v4.b16 {%rs1, %rs2, %rs3, %rs4}, [%rd5];
  ld.global.v4.b16 {%rs5, %rs6, %rs7, %rs8}, [%rd5+8];
  atom.global.v8.bf16.max.noftz {%rs9, %rs10, %rs11, %rs12, %rs13, %rs14, %rs15, %rs16}, [%rd1],
      {%rs1, %rs2, %rs3, %rs4, %rs5, %rs6, %rs7, %rs8};
  st.global.v4.b16 [%rd6], {%rs9, %rs10, %rs11, %rs12};
  st.global.v4.b16 [%rd6+8], {%rs13, %rs14, %rs15, %rs16};
  ret;
}
)"));
  auto bf16 = [](float f) { return static_cast<uint16_t>(bitsOf(f) >> 16); };
  std::vector<uint16_t> in(32 * 8);
  for (unsigned l = 0; l < 32; ++l)
    for (unsigned k = 0; k < 8; ++k) in[8 * l + k] = bf16(static_cast<float>(l * (k + 1)));
  uint64_t acc = r.upload(std::vector<uint16_t>(8, 0xFF80));  // -inf
  uint64_t din = r.upload(in);
  uint64_t olds = r.upload(std::vector<uint16_t>(32 * 8, 0));
  LaunchResult res = r.launch("vmax", {1, 1, 1}, {32, 1, 1}, {acc, din, olds});
  ASSERT_TRUE(res.ok) << res.error;
  const auto a = r.download<uint16_t>(acc, 8);
  for (unsigned k = 0; k < 8; ++k) EXPECT_EQ(a[k], bf16(31.0f * static_cast<float>(k + 1))) << k;
  const auto o = r.download<uint16_t>(olds, 32 * 8);
  for (unsigned l = 0; l < 32; ++l)
    for (unsigned k = 0; k < 8; ++k)
      EXPECT_EQ(o[8 * l + k], l == 0 ? 0xFF80 : bf16(static_cast<float>((l - 1) * (k + 1))))
          << "lane " << l << " element " << k;
}

// One thread: min/max of the stored value and b per element, as min/max.f16 compute them.
TEST(Atomics, HalfMinMaxFollowTheMinInstruction) {
  KernelRunner r(sm90Module(R"(
.visible .entry mm(.param .u64 mem, .param .u64 olds)
{
  .reg .b16 %rs<20>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [mem];
  ld.param.u64 %rd2, [olds];
  mov.b16 %rs1, 0x3C00;
  mov.b16 %rs2, 0x7E00;
  mov.b16 %rs3, 0x7C01;
  mov.b16 %rs4, 0x8000;
  atom.global.v4.f16.min.noftz {%rs5, %rs6, %rs7, %rs8}, [%rd1], {%rs1, %rs2, %rs3, %rs4};
  mov.b16 %rs9, 0x0002;
  mov.b16 %rs10, 0x0000;
  mov.b16 %rs11, 0xFC00;
  mov.b16 %rs12, 0x4000;
  atom.global.v4.f16.max.noftz {%rs13, %rs14, %rs15, %rs16}, [%rd1+8], {%rs9, %rs10, %rs11, %rs12};
  mov.b32 %r1, 0x7FC13F80;
  mov.b32 %r2, 0x80000000;
  red.global.v2.bf16x2.min.noftz [%rd1+16], {%r1, %r2};
  st.global.v4.b16 [%rd2], {%rs5, %rs6, %rs7, %rs8};
  st.global.v4.b16 [%rd2+8], {%rs13, %rs14, %rs15, %rs16};
  ret;
}
)"));
  // min (stored vs b): 2.0 vs 1.0 | 3.0 vs NaN | NaN vs NaN | +0 vs -0
  // max: subnormal 1 vs subnormal 2 | -0 vs +0 | 1.0 vs -inf | NaN vs 2.0
  // bf16x2 min (high, low halves): (NaN, 1.0) vs (NaN, 1.0) | (-0, -0) vs (-0, +0)
  const std::vector<uint16_t> init = {0x4000, 0x4200, 0x7E01, 0x0000,   // f16 min
                                      0x0001, 0x8000, 0x3C00, 0x7E00,   // f16 max
                                      0x3F80, 0x7FC0, 0x8000, 0x8000};  // bf16x2 x 2
  uint64_t mem = r.upload(init);
  uint64_t olds = r.upload(std::vector<uint16_t>(8, 0x1234));
  LaunchResult res = r.launch("mm", {1, 1, 1}, {1, 1, 1}, {mem, olds});
  ASSERT_TRUE(res.ok) << res.error;
  const auto m = r.download<uint16_t>(mem, 12);
  EXPECT_EQ(m[0], 0x3C00);  // min(2, 1) = 1
  EXPECT_EQ(m[1], 0x4200);  // the NaN operand loses: 3
  EXPECT_EQ(m[2], 0x7FFF);  // two NaNs: the canonical NaN
  EXPECT_EQ(m[3], 0x8000);  // -0 < +0: b wins
  EXPECT_EQ(m[4], 0x0002);  // subnormals compare (and stay): .noftz
  EXPECT_EQ(m[5], 0x0000);  // +0 > -0: b wins
  EXPECT_EQ(m[6], 0x3C00);
  EXPECT_EQ(m[7], 0x4000);  // the stored NaN loses
  EXPECT_EQ(m[8], 0x3F80);  // low half of element 0: 1.0 vs 1.0
  EXPECT_EQ(m[9], 0x7FFF);  // high half: NaN vs NaN
  EXPECT_EQ(m[10], 0x8000);  // low half of element 1: -0 vs -0
  EXPECT_EQ(m[11], 0x8000);  // high half: -0 vs +0
  const auto o = r.download<uint16_t>(olds, 8);
  EXPECT_EQ(o, std::vector<uint16_t>(init.begin(), init.begin() + 8));  // the old values
}

TEST(Atomics, F32AddFlushesSubnormalsOnGlobalMemoryOnly) {
  KernelRunner r(sm90Module(R"(
.visible .entry sub(.param .u64 mem)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<3>;
  .reg .f32 %f<6>;
  .shared .align 4 .b32 s;
  ld.param.u64 %rd1, [mem];
  mov.b32 %f1, 0x00000001;
  st.shared.f32 [s], %f1;
  atom.shared.add.f32 %f2, [s], %f1;
  ld.shared.f32 %f3, [s];
  st.global.f32 [%rd1], %f3;
  atom.global.add.f32 %f4, [%rd1+4], %f1;
  atom.global.add.noftz.f32 %f5, [%rd1+8], %f1;
  ret;
}
)"));
  uint64_t mem = r.upload(std::vector<uint32_t>{0, 0x00000003u, 0x00000003u});
  LaunchResult res = r.launch("sub", {1, 1, 1}, {1, 1, 1}, {mem});
  ASSERT_TRUE(res.ok) << res.error;
  const auto m = r.download<uint32_t>(mem, 3);
  EXPECT_EQ(m[0], 0x00000002u);  // shared: 2^-149 + 2^-149 kept
  EXPECT_EQ(m[1], 0x00000000u);  // global: inputs and result flushed
  EXPECT_EQ(m[2], 0x00000004u);  // global with .noftz: kept
}

// What the timing model and the mechanisms see of a vector atomic: an atomic of the whole
// vector's bytes per lane, the data elements (an immediate one by value), one address per lane.
TEST(Atomics, VectorAtomicRecordCarriesEveryElement) {
  struct Capture : ExecObserver {
    bool seen = false;
    ExecRecord copy;
    std::vector<uint64_t> element1;
    void onExec(const ExecRecord& r) override {
      if (!r.isAtomic) return;
      seen = true;
      copy = r;
      element1.assign(r.storeValues[1], r.storeValues[1] + 32);
    }
  } cap;
  KernelRunner r(sm90Module(R"(
.visible .entry rec(.param .u64 acc)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  .reg .f32 %f<8>;
  ld.param.u64 %rd1, [acc];
  mov.u32 %r1, %tid.x;
  cvt.rn.f32.u32 %f1, %r1;
  atom.global.add.v4.f32 {%f4, %f5, %f6, %f7}, [%rd1], {0f40000000, %f1, %f1, %f1};
  ret;
}
)"));
  r.options.observer = &cap;
  uint64_t acc = r.upload(std::vector<float>(4, 0.0f));
  LaunchResult res = r.launch("rec", {1, 1, 1}, {4, 1, 1}, {acc});
  ASSERT_TRUE(res.ok) << res.error;
  ASSERT_TRUE(cap.seen);
  EXPECT_EQ(ir::opClass(*cap.copy.instr), ir::OpClass::Atomic);
  EXPECT_EQ(cap.copy.space, ir::Space::Global);
  EXPECT_EQ(cap.copy.accessBytes, 16);
  EXPECT_EQ(cap.copy.execMask, 0xFu);
  EXPECT_EQ(cap.copy.numStoreRegs, 4);
  EXPECT_EQ(cap.copy.storeValues[0], nullptr);  // the immediate 2.0
  EXPECT_EQ(cap.copy.storeImm[0], bitsOf(2.0f));
  for (unsigned l = 0; l < 4; ++l) {
    EXPECT_EQ(cap.element1[l], bitsOf(static_cast<float>(l)));
    EXPECT_EQ(cap.copy.addr[l], acc);
  }
  EXPECT_EQ(r.download<float>(acc, 4), (std::vector<float>{8.0f, 6.0f, 6.0f, 6.0f}));
}

TEST(Atomics, VectorAtomicOnSharedMemoryFaults) {
  KernelRunner r(sm90Module(R"(
.visible .entry vs()
{
  .reg .b64 %rd<3>;
  .reg .f32 %f<3>;
  .shared .align 16 .b8 buf[16];
  mov.u64 %rd1, buf;
  cvta.shared.u64 %rd2, %rd1;
  mov.f32 %f1, 0f3F800000;
  atom.add.v2.f32 {%f1, %f2}, [%rd2], {%f1, %f1};
  ret;
}
)"));
  LaunchResult res = r.launch("vs", {1, 1, 1}, {1, 1, 1});
  ASSERT_FALSE(res.ok);
  EXPECT_NE(res.error.find("kernel 'vs' CTA (0,0,0) thread (0,0,0) at test.ptx:14: illegal vector atomic of 8 "
                           "bytes at generic address 0x20000000000 (not global memory: vector atomics "
                           "reach global memory only)"),
            std::string::npos)
      << res.error;
}

}  // namespace
}  // namespace warpsim::func
