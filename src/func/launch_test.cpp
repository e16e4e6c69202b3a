// Traps, the instruction limit, launch validation, link errors and the execution record.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "func/address_space.h"
#include "func/testing/kernel_runner.h"

namespace warpsim::func {
namespace {

using testing::KernelRunner;
using testing::ptxModule;

TEST(Launch, TrapAndBreakpointStopTheKernel) {
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

TEST(Launch, InstructionLimitStopsAnInfiniteLoop) {
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

TEST(Launch, LaunchValidation) {
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

TEST(Launch, LinkErrorsNameFileAndLine) {
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
TEST(Launch, ExecRecordDescribesLoadsAndBranches) {
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
TEST(Launch, ExecRecordOfGenericAccesses) {
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
