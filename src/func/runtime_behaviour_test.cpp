// Special registers, device printf, trap/brkpt, the instruction limit, launch validation, link
// errors and the execution record.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "func/address_space.h"
#include "func/testing/kernel_runner.h"

namespace warpsim::func {
namespace {

using testing::KernelRunner;
using testing::ptxModule;

// `.global .align 1 .b8 name[N] = {...};` holding `text` and its terminating NUL.
std::string ptxString(const std::string& name, const std::string& text) {
  std::string s = fmt::format(".global .align 1 .b8 {}[{}] = {{", name, text.size() + 1);
  for (unsigned char c : text) s += fmt::format("{}, ", static_cast<int>(c));
  return s + "0};\n";
}

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

TEST(Runtime, SpecialRegisters) {
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

TEST(Runtime, PrintfFormatsEveryLaneInOrder) {
  const std::string text = ptxModule(R"(
.extern .func  (.param .b32 func_retval0) vprintf
(
	.param .b64 vprintf_param_0,
	.param .b64 vprintf_param_1
)
;
)" + ptxString("fmtstr", "t=%d v=%6.2f s=%s c=%c x=%#x ll=%lld u=%u%%\n") +
                                       ptxString("word", "hi") + ptxString("plain", "no args\n") + R"(
.visible .entry pr()
{
  .local .align 8 .b8 __local_depot0[48];
  .reg .b64 %SP;
  .reg .b64 %SPL;
  .reg .pred %p<3>;
  .reg .b32 %r<10>;
  .reg .f64 %fd<3>;
  .reg .b64 %rd<10>;
  mov.u64 %SPL, __local_depot0;
  cvta.local.u64 %SP, %SPL;
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 3;
  setp.eq.u32 %p1, %r2, 0;
  @%p1 bra DONE;
  setp.gt.u32 %p2, %r1, 6;
  @%p2 bra DONE;
  add.u64 %rd1, %SP, 0;
  add.u64 %rd2, %SPL, 0;
  st.local.u32 [%rd2], %r1;
  cvt.rn.f64.u32 %fd1, %r1;
  mul.f64 %fd2, %fd1, 0d3FF4000000000000;
  st.local.f64 [%rd2+8], %fd2;
  mov.u64 %rd3, word;
  cvta.global.u64 %rd4, %rd3;
  st.local.u64 [%rd2+16], %rd4;
  add.u32 %r3, %r1, 65;
  st.local.u32 [%rd2+24], %r3;
  mul.lo.u32 %r4, %r1, 255;
  st.local.u32 [%rd2+28], %r4;
  cvt.s64.s32 %rd5, %r1;
  neg.s64 %rd5, %rd5;
  mul.lo.s64 %rd5, %rd5, 10000000000;
  st.local.u64 [%rd2+32], %rd5;
  mov.u32 %r5, 4000000000;
  st.local.u32 [%rd2+40], %r5;
  mov.u64 %rd6, fmtstr;
  cvta.global.u64 %rd7, %rd6;
  {
  .param .b64 param0;
  st.param.b64 [param0+0], %rd7;
  .param .b64 param1;
  st.param.b64 [param1+0], %rd1;
  .param .b32 retval0;
  call.uni (retval0), vprintf, (param0, param1);
  ld.param.b32 %r6, [retval0+0];
  }
DONE:
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra END;
  mov.u64 %rd8, plain;
  cvta.global.u64 %rd9, %rd8;
  {
  .param .b64 param0;
  st.param.b64 [param0+0], %rd9;
  .param .b64 param1;
  st.param.b64 [param1+0], 0;
  .param .b32 retval0;
  call.uni (retval0), vprintf, (param0, param1);
  ld.param.b32 %r7, [retval0+0];
  }
END:
  ret;
}
)");
  KernelRunner r(text);
  LaunchResult res = r.launch("pr", {1, 1, 1}, {32, 1, 1});
  ASSERT_TRUE(res.ok) << res.error;
  EXPECT_EQ(r.printed.str(),
            "t=1 v=  1.25 s=hi c=B x=0xff ll=-10000000000 u=4000000000%\n"
            "t=2 v=  2.50 s=hi c=C x=0x1fe ll=-20000000000 u=4000000000%\n"
            "t=3 v=  3.75 s=hi c=D x=0x2fd ll=-30000000000 u=4000000000%\n"
            "t=5 v=  6.25 s=hi c=F x=0x4fb ll=-50000000000 u=4000000000%\n"
            "t=6 v=  7.50 s=hi c=G x=0x5fa ll=-60000000000 u=4000000000%\n"
            "no args\n");
}

TEST(Runtime, TrapAndBreakpointStopTheKernel) {
  KernelRunner r(ptxModule(R"(
.visible .entry t()
{
  .reg .pred %p<2>;
  .reg .b32 %r<2>;
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p1, %r1, 37;
  @%p1 trap;
  ret;
}
.visible .entry b()
{
  brkpt;
  ret;
}
)"));
  LaunchResult res = r.launch("t", {1, 1, 1}, {64, 1, 1});
  EXPECT_FALSE(res.ok);
  EXPECT_EQ(res.error, "kernel 't' CTA (0,0,0) thread (37,0,0) at test.ptx:12: trap executed");
  res = r.launch("b", {1, 1, 1}, {1, 1, 1});
  EXPECT_EQ(res.error,
            "kernel 'b' CTA (0,0,0) thread (0,0,0) at test.ptx:17: breakpoint (brkpt) executed; no debugger is attached");
}

const char* kSpin = R"(
.visible .entry spin()
{
  .reg .b32 %r<2>;
  mov.u32 %r1, 0;
LOOP:
  add.u32 %r1, %r1, 1;
  bra.uni LOOP;
}
)";

TEST(Runtime, InstructionLimitStopsAnInfiniteLoop) {
  KernelRunner r(ptxModule(kSpin));
  r.options.maxWarpInstructions = 1000;
  LaunchResult res = r.launch("spin", {1, 1, 1}, {64, 1, 1});
  ASSERT_FALSE(res.ok);
  EXPECT_EQ(res.error,
            "kernel 'spin' CTA (0,0,0) warp 0 at test.ptx:12: instruction limit of 1000 warp-instructions reached "
            "(infinite loop?)");
  EXPECT_EQ(res.warpInstructions, 1000u);
  // The same through the recording path.
  struct Count : ExecObserver {
    uint64_t n = 0;
    void onExec(const ExecRecord&) override { ++n; }
  } count;
  r.options.observer = &count;
  res = r.launch("spin", {1, 1, 1}, {64, 1, 1});
  EXPECT_FALSE(res.ok);
  EXPECT_EQ(count.n, 1000u);
}

TEST(Runtime, LaunchValidation) {
  KernelRunner r(ptxModule(R"(
.visible .entry k(.param .u64 p)
{
  .shared .align 4 .b8 s[1024];
  st.shared.u32 [s], 0;
  ret;
}
.visible .entry req() .reqntid 64, 1, 1
{
  ret;
}
.func helper()
{
  ret;
}
)"));
  auto err = [&](const std::string& kernel, Dim3 g, Dim3 b, uint32_t dyn = 0, std::vector<uint8_t> params = {}) {
    LaunchConfig c;
    c.grid = g;
    c.block = b;
    c.dynamicSharedBytes = dyn;
    c.params = params;
    int k = r.program().findKernel(kernel);
    return validateLaunch(r.program(), k < 0 ? 99u : static_cast<uint32_t>(k), c, r.options);
  };
  const std::vector<uint8_t> p8(8, 0);
  EXPECT_EQ(err("k", {1, 1, 1}, {1024, 1, 1}, 0, p8), "");
  EXPECT_EQ(err("k", {1, 1, 1}, {1025, 1, 1}, 0, p8), "kernel 'k': block dimension x = 1025 exceeds the limit of 1024");
  EXPECT_EQ(err("k", {1, 1, 1}, {64, 32, 1}, 0, p8), "kernel 'k': block of 2048 threads exceeds the limit of 1024");
  EXPECT_EQ(err("k", {1, 1, 1}, {1, 1, 65}, 0, p8), "kernel 'k': block dimension z = 65 exceeds the limit of 64");
  EXPECT_EQ(err("k", {1, 65536, 1}, {1, 1, 1}, 0, p8), "kernel 'k': grid dimension y = 65536 exceeds the limit of 65535");
  EXPECT_EQ(err("k", {0, 1, 1}, {1, 1, 1}, 0, p8),
            "kernel 'k': launch with a zero dimension (grid (0,1,1), block (1,1,1))");
  EXPECT_EQ(err("k", {1, 1, 1}, {32, 1, 1}, 48 * 1024, p8),
            "kernel 'k': 1024 bytes of static and 49152 bytes of dynamic shared memory exceed the per-CTA limit of "
            "49152");
  EXPECT_EQ(err("k", {1, 1, 1}, {32, 1, 1}, 0, {}), "kernel 'k': argument buffer of 0 bytes, expected 8");
  EXPECT_EQ(err("req", {1, 1, 1}, {32, 1, 1}), "kernel 'req': block (32,1,1) differs from the required .reqntid 64,1,1");
  EXPECT_EQ(err("req", {1, 1, 1}, {64, 1, 1}), "");
  EXPECT_EQ(err("nothere", {1, 1, 1}, {1, 1, 1}), "no function #99 in module test.ptx");
  LaunchConfig c;
  EXPECT_EQ(validateLaunch(r.program(), static_cast<uint32_t>(r.program().module().findFunction("helper")), c,
                           r.options),
            "'helper' is not a kernel (.entry)");
  // runKernel reports the same without running anything.
  LaunchResult res = r.launch("k", {1, 1, 1}, {2000, 1, 1}, {uint64_t{0}});
  EXPECT_FALSE(res.ok);
  EXPECT_EQ(res.error, "kernel 'k': block dimension x = 2000 exceeds the limit of 1024");
  EXPECT_EQ(res.warpInstructions, 0u);
}

TEST(Runtime, LinkErrorsNameFileAndLine) {
  auto linkError = [](const std::string& body) -> std::string {
    try {
      KernelRunner r(ptxModule(body));
    } catch (const LinkError& e) {
      return e.what();
    }
    return "linked";
  };
  EXPECT_EQ(linkError(R"(
.extern .func ext(.param .b32 x);
.visible .entry k()
{
  .reg .b32 %r<2>;
  {
  .param .b32 param0;
  st.param.b32 [param0], %r1;
  call.uni ext, (param0);
  }
  ret;
}
)"),
            "test.ptx:13: error: call to 'ext', which has no body (only vprintf is provided)");
  // A module variable without a device address.
  const ir::Module m = ptx::parseModule(ptxModule(R"(
.global .align 4 .b32 g;
.visible .entry k()
{
  .reg .b32 %r<2>;
  ld.global.u32 %r1, [g];
  ret;
}
)"),
                                        "m.ptx");
  try {
    Program::link(m, {});
    FAIL() << "linked";
  } catch (const LinkError& e) {
    EXPECT_EQ(std::string(e.what()), "m.ptx:10: error: symbol 'g' has no device address");
  }
  Program p = Program::link(m, {0x7f0000001000ull});
  EXPECT_EQ(p.function(0).code[0].in.ops[1].imm, 0x7f0000001000ll);  // folded into the operand
}

// The record of a global load: masks, registers, addresses, values.
TEST(Runtime, ExecRecordDescribesLoadsAndBranches) {
  KernelRunner r(ptxModule(R"(
.visible .entry rec(.param .u64 p)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [p];
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 5;
  @%p1 bra DONE;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  ld.global.u32 %r2, [%rd3];
DONE:
  ret;
}
)"));
  std::vector<uint32_t> data(32);
  for (uint32_t i = 0; i < 32; ++i) data[i] = i * i;
  uint64_t buf = r.upload(data);
  struct Capture : ExecObserver {
    std::vector<ExecRecord> loads, branches;
    std::vector<std::vector<uint64_t>> loadValues;
    void onExec(const ExecRecord& rec) override {
      if (rec.instr->op == ir::Op::Ld && rec.space == ir::Space::Global) {
        loads.push_back(rec);
        loadValues.emplace_back(rec.dstValues[0], rec.dstValues[0] + 32);
      }
      if (rec.isBranch) branches.push_back(rec);
    }
  } cap;
  r.options.observer = &cap;
  LaunchResult res = r.launch("rec", {1, 1, 1}, {20, 1, 1}, {buf});
  ASSERT_TRUE(res.ok) << res.error;
  ASSERT_EQ(cap.branches.size(), 1u);
  EXPECT_EQ(cap.branches[0].issueMask, 0xFFFFFu);
  EXPECT_EQ(cap.branches[0].takenMask, 0x1Fu);
  EXPECT_TRUE(cap.branches[0].diverged);
  ASSERT_EQ(cap.loads.size(), 1u);
  const ExecRecord& ld = cap.loads[0];
  EXPECT_EQ(ld.execMask, 0xFFFE0u);
  EXPECT_EQ(ld.accessBytes, 4u);
  EXPECT_FALSE(ld.isStore);
  ASSERT_EQ(ld.numDstRegs, 1u);
  ASSERT_EQ(ld.numSrcRegs, 1u);
  for (unsigned l = 5; l < 20; ++l) {
    EXPECT_EQ(ld.addr[l], buf + 4 * l);
    EXPECT_EQ(ld.laneSpace[l], ir::Space::Global);
    EXPECT_EQ(cap.loadValues[0][l], uint64_t{l} * l);
  }
}

// Generic accesses report the issued generic address and the space each lane resolved to.
TEST(Runtime, ExecRecordOfGenericAccesses) {
  KernelRunner r(ptxModule(R"(
.visible .entry gen(.param .u64 p)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<8>;
  .shared .align 4 .b8 s[128];
  ld.param.u64 %rd1, [p];
  mov.u64 %rd2, s;
  cvta.shared.u64 %rd3, %rd2;
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 1;
  setp.eq.u32 %p1, %r2, 0;
  selp.b64 %rd4, %rd3, %rd1, %p1;
  mul.wide.u32 %rd5, %r1, 4;
  add.s64 %rd6, %rd4, %rd5;
  st.u32 [%rd6], %r1;
  ret;
}
)"));
  uint64_t buf = r.upload(std::vector<uint32_t>(32, 0));
  struct Capture : ExecObserver {
    std::vector<ExecRecord> stores;
    void onExec(const ExecRecord& rec) override {
      if (rec.instr->op == ir::Op::St) stores.push_back(rec);
    }
  } cap;
  r.options.observer = &cap;
  LaunchResult res = r.launch("gen", {1, 1, 1}, {32, 1, 1}, {buf});
  ASSERT_TRUE(res.ok) << res.error;
  ASSERT_EQ(cap.stores.size(), 1u);
  const ExecRecord& st = cap.stores[0];
  EXPECT_EQ(st.space, ir::Space::Generic);
  EXPECT_TRUE(st.isStore);
  for (unsigned l = 0; l < 32; ++l) {
    if (l % 2 == 0) {
      EXPECT_EQ(st.laneSpace[l], ir::Space::Shared) << l;
      EXPECT_EQ(st.addr[l], kSharedWindow + 4 * l) << l;
    } else {
      EXPECT_EQ(st.laneSpace[l], ir::Space::Global) << l;
      EXPECT_EQ(st.addr[l], buf + 4 * l) << l;
    }
  }
  auto v = r.download<uint32_t>(buf, 32);
  for (unsigned l = 0; l < 32; ++l) EXPECT_EQ(v[l], l % 2 ? l : 0u) << l;
}

}  // namespace
}  // namespace warpsim::func
