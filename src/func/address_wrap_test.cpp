// Addresses in the 32-bit state spaces (shared, local, kernel parameters) wrap modulo 2^32, as
// PTX defines ("Addresses as Operands": truncated to the state space's address width): a 32-bit
// register holding `s - 60` plus an offset of 64 reads s + 4; a 64-bit register is truncated.
// Loads, stores, atomics, cvta and the addresses in ExecRecord all see the wrapped address.
#include <gtest/gtest.h>

#include <vector>

#include "func/testing/kernel_runner.h"

namespace warpsim::func {
namespace {

using testing::KernelRunner;
using testing::ptxModule;

// Thread t (of 32) writes s[t] = t, then reads s[t + 1] in every wrapping way; `s` is the only
// shared variable, at offset 0, so `s + 4t - 60` wraps below zero for t < 15.
const char* kWrap = R"(
.visible .entry wrap(.param .u64 out)
{
  .reg .b32 %r<16>;
  .reg .b64 %rd<16>;
  .shared .align 4 .b8 s[132];
  .local .align 4 .b8 __local_depot0[16];
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, s;
  shl.b32 %r3, %r1, 2;
  add.u32 %r4, %r2, %r3;
  st.shared.u32 [%r4], %r1;
  bar.sync 0;
  add.u32 %r5, %r4, -60;
  ld.shared.u32 %r6, [%r5+64];
  cvt.u64.u32 %rd2, %r5;
  ld.shared.u32 %r7, [%rd2+64];
  mov.u64 %rd3, __local_depot0;
  st.local.u32 [%rd3+8], %r1;
  add.s64 %rd4, %rd3, -4294967288;
  ld.local.u32 %r8, [%rd4];
  mov.u64 %rd5, out;
  add.s64 %rd6, %rd5, 4294967296;
  ld.param.u64 %rd7, [%rd6];
  cvt.u32.u64 %r9, %rd7;
  bar.sync 0;
  atom.shared.add.u32 %r10, [%r5+64], 100;
  bar.sync 0;
  ld.shared.u32 %r11, [%r4];
  cvt.u64.u32 %rd8, %r3;
  add.s64 %rd9, %rd8, 4294967296;
  cvta.shared.u64 %rd10, %rd9;
  ld.u32 %r12, [%rd10];
  cvta.to.shared.u64 %rd11, %rd10;
  cvt.u32.u64 %r13, %rd11;
  mul.wide.u32 %rd12, %r1, 32;
  add.s64 %rd13, %rd1, %rd12;
  st.global.v4.u32 [%rd13], {%r6, %r7, %r8, %r9};
  st.global.v4.u32 [%rd13+16], {%r10, %r11, %r12, %r13};
  ret;
}
)";

// Keeps the per-lane addresses of the load at [%r5+64] (test.ptx:20).
struct SharedLoadAddresses final : ExecObserver {
  std::vector<uint64_t> addr;
  void onExec(const ExecRecord& r) override {
    if (r.instr && r.instr->op == ir::Op::Ld && r.instr->line == 20) addr.assign(r.addr, r.addr + 32);
  }
};

TEST(AddressWrap, SharedLocalParamAtomicAndCvtaAddressesWrapAt32Bits) {
  KernelRunner r(ptxModule(kWrap));
  SharedLoadAddresses seen;
  r.options.observer = &seen;
  const uint64_t out = r.upload(std::vector<uint32_t>(32 * 8, 0xEEEEEEEE));
  LaunchResult res = r.launch("wrap", {1, 1, 1}, {32, 1, 1}, {out});
  ASSERT_TRUE(res.ok) << res.error;
  auto v = r.download<uint32_t>(out, 32 * 8);
  for (uint32_t t = 0; t < 32; ++t) {
    const uint32_t* o = &v[t * 8];
    const uint32_t next = t < 31 ? t + 1 : 0;  // s[32] was never written: zero
    EXPECT_EQ(o[0], next) << t;                // 32-bit register + 64
    EXPECT_EQ(o[1], next) << t;                // 64-bit register + 64, truncated
    EXPECT_EQ(o[2], t) << t;                   // local: depot + 8 - 2^32 is depot + 8
    EXPECT_EQ(o[3], static_cast<uint32_t>(out)) << t;  // kernel parameter at its offset + 2^32
    EXPECT_EQ(o[4], next) << t;                // atom.shared at the wrapped address: old value
    EXPECT_EQ(o[5], t == 0 ? 0u : t + 100) << t;  // ... which it raised by 100
    EXPECT_EQ(o[6], t == 0 ? 0u : t + 100) << t;  // cvta.shared of 4t + 2^32: generic s + 4t
    EXPECT_EQ(o[7], 4 * t) << t;               // cvta.to.shared gives the 32-bit offset back
  }
  ASSERT_EQ(seen.addr.size(), 32u);
  for (uint32_t t = 0; t < 32; ++t) EXPECT_EQ(seen.addr[t], 4 * t + 4) << t;  // what timing sees
}

// The wrapped address is range-checked like any other: past the CTA's shared memory it faults,
// naming the wrapped offset.
TEST(AddressWrap, AWrappedSharedAddressPastTheEndStillFaults) {
  KernelRunner r(ptxModule(R"(
.visible .entry f()
{
  .reg .b32 %r<4>;
  .shared .align 4 .b8 s[64];
  mov.u32 %r1, s;
  add.u32 %r2, %r1, -4;
  ld.shared.u32 %r3, [%r2+72];
  ret;
}
)"));
  LaunchResult res = r.launch("f", {1, 1, 1}, {1, 1, 1});
  ASSERT_FALSE(res.ok);
  EXPECT_EQ(res.error,
            "kernel 'f' CTA (0,0,0) thread (0,0,0) at test.ptx:12: illegal shared load of 4 bytes at offset 0x44 "
            "(out of range: the CTA's shared memory is 64 bytes)");
}

}  // namespace
}  // namespace warpsim::func
