// SIMT control flow through real PTX: nested divergence, loops with divergent exits, early exit,
// divergent calls, divergent returns and recursion.
#include <gtest/gtest.h>

#include <map>

#include "func/testing/kernel_runner.h"

namespace warpsim::func {
namespace {

using testing::KernelRunner;
using testing::ptxModule;

// Counts executions of every store, with the SIMT mask they issued with.
struct StoreMasks : ExecObserver {
  std::vector<uint32_t> masks;
  void onExec(const ExecRecord& r) override {
    if (r.instr->op == ir::Op::St && r.space == ir::Space::Global) masks.push_back(r.issueMask);
  }
};

const char* kNested = R"(
.visible .entry nested(.param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 1;
  setp.eq.u32 %p1, %r2, 0;
  @%p1 bra EVEN;
  and.b32 %r3, %r1, 2;
  setp.eq.u32 %p2, %r3, 0;
  @%p2 bra ODD_A;
  mov.u32 %r4, 300;
  bra ODD_JOIN;
ODD_A:
  mov.u32 %r4, 200;
ODD_JOIN:
  add.u32 %r4, %r4, 1;
  bra JOIN;
EVEN:
  setp.lt.u32 %p3, %r1, 16;
  @%p3 bra EVEN_LOW;
  mov.u32 %r4, 100;
  bra JOIN;
EVEN_LOW:
  mov.u32 %r4, 0;
JOIN:
  add.u32 %r4, %r4, %r1;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r4;
  ret;
}
)";

TEST(Simt, NestedIfElseComputesPerLaneAndReconverges) {
  KernelRunner r(ptxModule(kNested));
  uint64_t out = r.upload(std::vector<uint32_t>(64, 0));
  StoreMasks obs;
  r.options.observer = &obs;
  LaunchResult res = r.launch("nested", {1, 1, 1}, {64, 1, 1}, {out});
  ASSERT_TRUE(res.ok) << res.error;
  auto v = r.download<uint32_t>(out, 64);
  for (uint32_t t = 0; t < 64; ++t) {
    uint32_t want = (t & 1) ? ((t & 2) ? 301 : 201) + t : (t < 16 ? 0 : 100) + t;
    EXPECT_EQ(v[t], want) << "thread " << t;
  }
  // The store after the join runs once per warp with every lane.
  EXPECT_EQ(obs.masks, (std::vector<uint32_t>{0xFFFFFFFF, 0xFFFFFFFF}));
}

const char* kLoopBreak = R"(
.visible .entry loopbreak(.param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, 0;
  mov.u32 %r3, 0;
LOOP:
  setp.ge.u32 %p1, %r2, %r1;
  @%p1 bra DONE;
  add.u32 %r3, %r3, %r2;
  add.u32 %r2, %r2, 1;
  setp.eq.u32 %p2, %r2, 20;
  @%p2 bra DONE;
  bra.uni LOOP;
DONE:
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r3;
  ret;
}
)";

TEST(Simt, LoopWithTwoDivergentExitsReconvergesAfterTheLoop) {
  KernelRunner r(ptxModule(kLoopBreak));
  uint64_t out = r.upload(std::vector<uint32_t>(40, 0xFFFF));
  StoreMasks obs;
  r.options.observer = &obs;
  LaunchResult res = r.launch("loopbreak", {1, 1, 1}, {40, 1, 1}, {out});
  ASSERT_TRUE(res.ok) << res.error;
  auto v = r.download<uint32_t>(out, 40);
  for (uint32_t t = 0; t < 40; ++t) {
    uint32_t n = std::min<uint32_t>(t, 20), want = n * (n - (n ? 1 : 0)) / 2;
    if (n == 0) want = 0;
    EXPECT_EQ(v[t], want) << "thread " << t;
  }
  EXPECT_EQ(obs.masks, (std::vector<uint32_t>{0xFFFFFFFF, 0x000000FF}));
}

const char* kEarlyExit = R"(
.visible .entry early(.param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  and.b32 %r2, %r1, 3;
  setp.eq.u32 %p1, %r2, 0;
  @%p1 bra SKIP;
  setp.gt.u32 %p2, %r1, 20;
  @%p2 exit;
  mov.u32 %r3, 7;
  st.global.u32 [%rd3], %r3;
SKIP:
  ld.global.u32 %r4, [%rd3];
  add.u32 %r4, %r4, 1000;
  st.global.u32 [%rd3], %r4;
  ret;
}
)";

TEST(Simt, EarlyExitInDivergentCodeLeavesOtherLanesRunning) {
  KernelRunner r(ptxModule(kEarlyExit));
  uint64_t out = r.upload(std::vector<uint32_t>(32, 1));
  StoreMasks obs;
  r.options.observer = &obs;
  LaunchResult res = r.launch("early", {1, 1, 1}, {32, 1, 1}, {out});
  ASSERT_TRUE(res.ok) << res.error;
  auto v = r.download<uint32_t>(out, 32);
  for (uint32_t t = 0; t < 32; ++t) {
    uint32_t want = (t % 4 == 0) ? 1001 : (t > 20 ? 1 : 1007);
    EXPECT_EQ(v[t], want) << "thread " << t;
  }
  // Exited lanes do not hold back reconvergence: the final store runs once, for the multiples of
  // four and the lanes <= 20.
  uint32_t tail = 0;
  for (uint32_t t = 0; t < 32; ++t)
    if (t % 4 == 0 || t <= 20) tail |= 1u << t;
  EXPECT_EQ(obs.masks, (std::vector<uint32_t>{0x000EEEEE, tail}));
}

// fib(n) recursive, with the base case returning from divergent code; called only by lanes < 12.
const char* kFib = R"(
.func (.param .b32 fib_ret) fib(.param .b32 fib_n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  ld.param.u32 %r1, [fib_n];
  setp.lt.u32 %p1, %r1, 2;
  @%p1 bra BASE;
  sub.u32 %r2, %r1, 1;
  {
  .param .b32 param0;
  st.param.b32 [param0], %r2;
  .param .b32 retval0;
  call.uni (retval0), fib, (param0);
  ld.param.b32 %r3, [retval0];
  }
  sub.u32 %r4, %r1, 2;
  {
  .param .b32 param0;
  st.param.b32 [param0], %r4;
  .param .b32 retval0;
  call.uni (retval0), fib, (param0);
  ld.param.b32 %r5, [retval0];
  }
  add.u32 %r6, %r3, %r5;
  st.param.b32 [fib_ret], %r6;
  ret;
BASE:
  st.param.b32 [fib_ret], %r1;
  ret;
}

.visible .entry fibk(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, 12345;
  setp.ge.u32 %p1, %r1, 12;
  @%p1 bra SKIP;
  {
  .param .b32 param0;
  st.param.b32 [param0], %r1;
  .param .b32 retval0;
  call (retval0), fib, (param0);
  ld.param.b32 %r2, [retval0];
  }
SKIP:
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r2;
  ret;
}
)";

TEST(Simt, RecursiveFibonacciCalledFromDivergentCode) {
  KernelRunner r(ptxModule(kFib));
  uint64_t out = r.upload(std::vector<uint32_t>(32, 0));
  StoreMasks obs;
  r.options.observer = &obs;
  LaunchResult res = r.launch("fibk", {1, 1, 1}, {32, 1, 1}, {out});
  ASSERT_TRUE(res.ok) << res.error;
  auto v = r.download<uint32_t>(out, 32);
  const uint32_t fib[12] = {0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89};
  for (uint32_t t = 0; t < 32; ++t) EXPECT_EQ(v[t], t < 12 ? fib[t] : 12345u) << "thread " << t;
  EXPECT_EQ(obs.masks, (std::vector<uint32_t>{0xFFFFFFFF}));  // reconverged after the call
}

// Factorial through a predicated call; lanes exit inside the callee; callee writes memory.
const char* kFact = R"(
.func (.param .b64 fact_ret) fact(.param .b64 fact_n, .param .b64 fact_out)
{
  .reg .pred %p<3>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [fact_n];
  ld.param.u64 %rd7, [fact_out];
  setp.eq.u64 %p2, %rd1, 13;
  @%p2 exit;
  setp.le.u64 %p1, %rd1, 1;
  @%p1 bra ONE;
  sub.u64 %rd2, %rd1, 1;
  {
  .param .b64 param0;
  st.param.b64 [param0], %rd2;
  .param .b64 param1;
  st.param.b64 [param1], %rd7;
  .param .b64 retval0;
  call.uni (retval0), fact, (param0, param1);
  ld.param.b64 %rd3, [retval0];
  }
  mul.lo.u64 %rd4, %rd3, %rd1;
  st.param.b64 [fact_ret], %rd4;
  ret;
ONE:
  mov.u64 %rd5, 1;
  st.param.b64 [fact_ret], %rd5;
  ret;
}

.visible .entry factk(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  cvt.u64.u32 %rd2, %r1;
  mul.wide.u32 %rd3, %r1, 8;
  add.s64 %rd4, %rd1, %rd3;
  mov.u64 %rd5, 777;
  and.b32 %r2, %r1, 1;
  setp.eq.u32 %p1, %r2, 0;
  {
  .param .b64 param0;
  st.param.b64 [param0], %rd2;
  .param .b64 param1;
  st.param.b64 [param1], %rd1;
  .param .b64 retval0;
  @%p1 call (retval0), fact, (param0, param1);
  @%p1 ld.param.b64 %rd5, [retval0];
  }
  st.global.u64 [%rd4], %rd5;
  ret;
}
)";

TEST(Simt, PredicatedCallWithExitsInsideTheCallee) {
  KernelRunner r(ptxModule(kFact));
  uint64_t out = r.upload(std::vector<uint64_t>(32, 5));
  LaunchResult res = r.launch("factk", {1, 1, 1}, {32, 1, 1}, {out});
  ASSERT_TRUE(res.ok) << res.error;
  auto v = r.download<uint64_t>(out, 32);
  uint64_t f = 1;
  for (uint32_t t = 0; t < 32; ++t) {
    if (t > 1) f *= t;
    uint64_t want = (t & 1) ? 777 : (t >= 13 ? 5 : (t <= 1 ? 1 : f));  // even lanes >= 13 exit inside
    EXPECT_EQ(v[t], want) << "thread " << t;
  }
}

const char* kInfinite = R"(
.func (.param .b32 down_ret) down(.param .b32 down_n)
{
  .reg .b32 %r<4>;
  .local .align 4 .b8 __local_depot1[64];
  ld.param.u32 %r1, [down_n];
  add.u32 %r2, %r1, 1;
  {
  .param .b32 param0;
  st.param.b32 [param0], %r2;
  .param .b32 retval0;
  call.uni (retval0), down, (param0);
  ld.param.b32 %r3, [retval0];
  }
  st.param.b32 [down_ret], %r3;
  ret;
}

.visible .entry deep()
{
  .reg .b32 %r<4>;
  mov.u32 %r1, 0;
  {
  .param .b32 param0;
  st.param.b32 [param0], %r1;
  .param .b32 retval0;
  call.uni (retval0), down, (param0);
  ld.param.b32 %r2, [retval0];
  }
  ret;
}
)";

TEST(Simt, UnboundedRecursionOverflowsTheStack) {
  KernelRunner r(ptxModule(kInfinite));
  LaunchResult res = r.launch("deep", {1, 1, 1}, {32, 1, 1});
  ASSERT_FALSE(res.ok);
  // Each frame takes its 64-byte depot plus 16 bytes of call overhead: 1024 / 80 = 12 fit.
  EXPECT_EQ(res.error,
            "kernel 'deep' CTA (0,0,0) thread (0,0,0) at test.ptx:16: stack overflow calling 'down' at call "
            "depth 13 (per-thread local memory is 1024 bytes; raise the stack size)");
}

TEST(Simt, EmptyKernelAndEmptyFunctionReturn) {
  KernelRunner r(ptxModule(R"(
.func nothing()
{
}
.visible .entry empty()
{
}
.visible .entry callsempty()
{
  call.uni nothing;
  ret;
}
)"));
  LaunchResult res = r.launch("empty", {2, 1, 1}, {33, 1, 1});
  ASSERT_TRUE(res.ok) << res.error;
  EXPECT_EQ(res.warpInstructions, 4u);  // the implicit ret of each warp
  res = r.launch("callsempty", {1, 1, 1}, {32, 1, 1});
  ASSERT_TRUE(res.ok) << res.error;
  EXPECT_EQ(res.warpInstructions, 3u);
}

}  // namespace
}  // namespace warpsim::func
