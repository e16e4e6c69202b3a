// Parallel functional mode gives exactly the result of running the CTAs one after another: the
// same memory, printf text, counters, findings and first error, with 1, 2, 3 and 5 threads, for
// CTAs that are independent, that read what earlier CTAs wrote, that take tickets with atomics,
// that fault, that reach the instruction limit and that access memory outside allocations.
#include <gtest/gtest.h>

#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "func/parallel_ctas.h"
#include "func/testing/compare_memory.h"
#include "func/testing/kernel_runner.h"

namespace warpsim::func {
namespace {

using testing::KernelRunner;
using testing::ptxModule;

const std::string kParallelKernels = ptxModule(R"(
.global .align 1 .b8 ctaFormat[8] = {99, 116, 97, 32, 37, 100, 10, 0};

.extern .func (.param .b32 func_retval0) vprintf (.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);

// out[i] = 3 * in[i] + i for the grid's threads.
.visible .entry independent(.param .u64 in, .param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mad.lo.u32 %r4, %r1, %r2, %r3;
  mul.wide.u32 %rd3, %r4, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.u32 %r5, [%rd4];
  mad.lo.u32 %r6, %r5, 3, %r4;
  add.s64 %rd5, %rd2, %rd3;
  st.global.u32 [%rd5], %r6;
  ret;
}

// Thread 0 of CTA c writes out[c] = out[c - 1] + c + 1 (out[-1] read as 0): each CTA reads what
// the one before wrote.
.visible .entry chain(.param .u64 out)
{
  .reg .pred %p<3>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra END;
  ld.param.u64 %rd1, [out];
  mov.u32 %r2, %ctaid.x;
  mul.wide.u32 %rd2, %r2, 4;
  add.s64 %rd3, %rd1, %rd2;
  mov.u32 %r3, 0;
  setp.eq.u32 %p2, %r2, 0;
  @%p2 bra WRITE;
  ld.global.u32 %r3, [%rd3+-4];
WRITE:
  add.u32 %r4, %r3, %r2;
  add.u32 %r5, %r4, 1;
  st.global.u32 [%rd3], %r5;
END:
  ret;
}

// Thread 0 of every CTA takes a ticket from *counter and stores it at tickets[ctaid]; every
// thread adds its thread index to *sum with red.
.visible .entry tickets(.param .u64 counter, .param .u64 tickets)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [counter];
  ld.param.u64 %rd2, [tickets];
  mov.u32 %r1, %tid.x;
  red.global.add.u32 [%rd1+4], %r1;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra END;
  atom.global.add.u32 %r2, [%rd1], 1;
  mov.u32 %r3, %ctaid.x;
  mul.wide.u32 %rd3, %r3, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.u32 [%rd4], %r2;
END:
  ret;
}

// Every thread writes out[i] = i + 1, then thread 3 of CTA `bad` loads from address 8.
.visible .entry faulting(.param .u64 out, .param .u32 bad)
{
  .reg .pred %p<3>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r7, [bad];
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mad.lo.u32 %r4, %r1, %r2, %r3;
  mul.wide.u32 %rd2, %r4, 4;
  add.s64 %rd3, %rd1, %rd2;
  add.u32 %r5, %r4, 1;
  st.global.u32 [%rd3], %r5;
  setp.ne.u32 %p1, %r1, %r7;
  setp.ne.or.u32 %p2, %r3, 3, %p1;
  @%p2 bra END;
  mov.u64 %rd4, 8;
  ld.global.u32 %r6, [%rd4];
END:
  ret;
}

// CTA c loops 4c times, adding to out[c], then stores the total.
.visible .entry loops(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %ctaid.x;
  shl.b32 %r2, %r1, 2;
  mov.u32 %r3, 0;
  mov.u32 %r4, 0;
LOOP:
  setp.ge.u32 %p1, %r4, %r2;
  @%p1 bra DONE;
  add.u32 %r3, %r3, %r4;
  add.u32 %r4, %r4, 1;
  bra LOOP;
DONE:
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r3;
  ret;
}

// Thread 0 of each CTA prints "cta <c>" and writes one word 256 bytes past out's end (outside
// every allocation, inside the mapped chunk).
.visible .entry printsAndStrays(.param .u64 out, .param .u32 words)
{
  .local .align 8 .b8 __local_depot0[8];
  .reg .b64 %SP;
  .reg .b64 %SPL;
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<10>;
  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra END;
  mov.u64 %SPL, __local_depot0;
  cvta.local.u64 %SP, %SPL;
  mov.u32 %r2, %ctaid.x;
  st.local.u32 [%SPL], %r2;
  mov.u64 %rd1, ctaFormat;
  cvta.global.u64 %rd2, %rd1;
  {
  .param .b64 param0;
  st.param.b64 [param0+0], %rd2;
  .param .b64 param1;
  st.param.b64 [param1+0], %SP;
  .param .b32 retval0;
  call.uni (retval0), vprintf, (param0, param1);
  }
  ld.param.u64 %rd3, [out];
  ld.param.u32 %r3, [words];
  add.u32 %r4, %r3, 64;
  mul.wide.u32 %rd4, %r4, 4;
  add.s64 %rd5, %rd3, %rd4;
  st.global.u32 [%rd5], %r2;
END:
  ret;
}
)");

// One launch's outcome, with what it left in memory.
struct LaunchRun {
  std::unique_ptr<KernelRunner> runner;
  LaunchResult result;
  MemoryFindings findings;
};

// Runs `kernel` with `threads` threads on fresh memory that `setup` fills (returning the
// arguments), with the instruction limit `limit` (0: none).
template <class Setup>
LaunchRun launchWithThreads(const std::string& kernel, unsigned threads, uint32_t ctas, uint32_t block, Setup&& setup,
           uint64_t limit = 0) {
  LaunchRun run;
  run.runner = std::make_unique<KernelRunner>(kParallelKernels);
  KernelRunner& r = *run.runner;
  r.options.threads = threads;
  r.options.maxWarpInstructions = limit;
  r.options.findings = &run.findings;
  std::vector<KernelRunner::Arg> args = setup(r);
  run.result = r.launch(kernel, {ctas, 1, 1}, {block, 1, 1}, args);
  return run;
}

void expectSameRuns(const LaunchRun& serial, const LaunchRun& parallel) {
  EXPECT_EQ(parallel.result.ok, serial.result.ok);
  EXPECT_EQ(parallel.result.error, serial.result.error);
  EXPECT_EQ(parallel.result.ctasExecuted, serial.result.ctasExecuted);
  EXPECT_EQ(parallel.result.warpInstructions, serial.result.warpInstructions);
  EXPECT_EQ(parallel.result.threadInstructions, serial.result.threadInstructions);
  EXPECT_EQ(parallel.result.deviceAtomOps, serial.result.deviceAtomOps);
  EXPECT_EQ(parallel.runner->printed.str(), serial.runner->printed.str());
  EXPECT_EQ(parallel.findings.outsideAllocations.count, serial.findings.outsideAllocations.count);
  EXPECT_EQ(parallel.findings.outsideAllocations.first, serial.findings.outsideAllocations.first);
  EXPECT_EQ(testing::compareMemory(serial.runner->memory, parallel.runner->memory), "");
}

template <class Setup>
void expectSameWithEveryThreadCount(const std::string& kernel, uint32_t ctas, uint32_t block, Setup&& setup,
                                    uint64_t limit = 0) {
  const LaunchRun serial = launchWithThreads(kernel, 1, ctas, block, setup, limit);
  for (unsigned threads : {2u, 3u, 5u}) {
    SCOPED_TRACE(fmt::format("{} threads", threads));
    expectSameRuns(serial, launchWithThreads(kernel, threads, ctas, block, setup, limit));
  }
}

uint64_t zeroWords(KernelRunner& r, size_t n) { return r.upload(std::vector<uint32_t>(n, 0)); }

TEST(ParallelCtas, IndependentCtasGiveTheSameMemoryAndCounters) {
  const LaunchRun serial = launchWithThreads("independent", 1, 40, 64, [](KernelRunner& r) {
    std::vector<uint32_t> in(40 * 64);
    std::iota(in.begin(), in.end(), 7u);
    return std::vector<KernelRunner::Arg>{r.upload(in), zeroWords(r, in.size())};
  });
  ASSERT_TRUE(serial.result.ok) << serial.result.error;
  EXPECT_EQ(serial.result.ctasExecuted, 40u);
  expectSameWithEveryThreadCount("independent", 40, 64, [](KernelRunner& r) {
    std::vector<uint32_t> in(40 * 64);
    std::iota(in.begin(), in.end(), 7u);
    return std::vector<KernelRunner::Arg>{r.upload(in), zeroWords(r, in.size())};
  });
}

TEST(ParallelCtas, ACtaThatReadsWhatAnEarlierOneWroteSeesIt) {
  uint64_t out = 0;
  LaunchRun parallel = launchWithThreads("chain", 2, 50, 32, [&](KernelRunner& r) {
    out = zeroWords(r, 50);
    return std::vector<KernelRunner::Arg>{out};
  });
  ASSERT_TRUE(parallel.result.ok) << parallel.result.error;
  const std::vector<uint32_t> got = parallel.runner->download<uint32_t>(out, 50);
  for (uint32_t c = 0; c < 50; ++c) EXPECT_EQ(got[c], (c + 1) * (c + 2) / 2) << "CTA " << c;
  expectSameWithEveryThreadCount("chain", 50, 32, [](KernelRunner& r) { return std::vector<KernelRunner::Arg>{zeroWords(r, 50)}; });
}

TEST(ParallelCtas, AtomicsHandOutTicketsInCtaOrder) {
  uint64_t counter = 0, tickets = 0;
  LaunchRun parallel = launchWithThreads("tickets", 3, 60, 64, [&](KernelRunner& r) {
    counter = zeroWords(r, 2);
    tickets = zeroWords(r, 60);
    return std::vector<KernelRunner::Arg>{counter, tickets};
  });
  ASSERT_TRUE(parallel.result.ok) << parallel.result.error;
  const std::vector<uint32_t> got = parallel.runner->download<uint32_t>(tickets, 60);
  for (uint32_t c = 0; c < 60; ++c) EXPECT_EQ(got[c], c);
  const std::vector<uint32_t> totals = parallel.runner->download<uint32_t>(counter, 2);
  EXPECT_EQ(totals[0], 60u);
  EXPECT_EQ(totals[1], 60u * (63u * 64u / 2));
  expectSameWithEveryThreadCount("tickets", 60, 64, [](KernelRunner& r) {
    return std::vector<KernelRunner::Arg>{zeroWords(r, 2), zeroWords(r, 60)};
  });
}

TEST(ParallelCtas, AFaultStopsTheLaunchWhereTheSerialRunStops) {
  const LaunchRun serial = launchWithThreads("faulting", 1, 30, 32, [](KernelRunner& r) {
    return std::vector<KernelRunner::Arg>{zeroWords(r, 30 * 32), 17u};
  });
  ASSERT_FALSE(serial.result.ok);
  EXPECT_EQ(serial.result.ctasExecuted, 18u);
  EXPECT_NE(serial.result.error.find("CTA (17,0,0) thread (3,0,0)"), std::string::npos) << serial.result.error;
  expectSameWithEveryThreadCount("faulting", 30, 32, [](KernelRunner& r) {
    return std::vector<KernelRunner::Arg>{zeroWords(r, 30 * 32), 17u};
  });
}

TEST(ParallelCtas, TheInstructionLimitStopsTheSameInstruction) {
  // CTA c runs about 8c + 12 warp-instructions: 600 runs out inside CTA 10 or so.
  const auto setup = [](KernelRunner& r) { return std::vector<KernelRunner::Arg>{zeroWords(r, 40)}; };
  const LaunchRun serial = launchWithThreads("loops", 1, 40, 32, setup, 600);
  ASSERT_FALSE(serial.result.ok);
  EXPECT_NE(serial.result.error.find("instruction limit of 600"), std::string::npos) << serial.result.error;
  EXPECT_LT(serial.result.ctasExecuted, 40u);
  expectSameWithEveryThreadCount("loops", 40, 32, setup, 600);
  // A limit the launch just reaches without going over it.
  const LaunchRun whole = launchWithThreads("loops", 1, 40, 32, setup);
  ASSERT_TRUE(whole.result.ok);
  expectSameWithEveryThreadCount("loops", 40, 32, setup, whole.result.warpInstructions);
  expectSameWithEveryThreadCount("loops", 40, 32, setup, whole.result.warpInstructions + 1);
}

TEST(ParallelCtas, PrintfAndFindingsComeInCtaOrder) {
  const auto setup = [](KernelRunner& r) { return std::vector<KernelRunner::Arg>{zeroWords(r, 16), 16u}; };
  const LaunchRun serial = launchWithThreads("printsAndStrays", 1, 24, 32, setup);
  ASSERT_TRUE(serial.result.ok) << serial.result.error;
  std::string expected;
  for (int c = 0; c < 24; ++c) expected += fmt::format("cta {}\n", c);
  EXPECT_EQ(serial.runner->printed.str(), expected);
  EXPECT_EQ(serial.findings.outsideAllocations.count, 24u);
  EXPECT_NE(serial.findings.outsideAllocations.first.find("CTA (0,0,0)"), std::string::npos)
      << serial.findings.outsideAllocations.first;
  expectSameWithEveryThreadCount("printsAndStrays", 24, 32, setup);
}

// An observer that takes the launch in parts: it lists the CTAs of the records it saw, in order.
struct CtaOrderObserver final : ExecObserver {
  void onExec(const ExecRecord& r) override {
    if (ctas.empty() || ctas.back() != r.ctaLinear) ctas.push_back(r.ctaLinear);
    ++records;
  }
  std::unique_ptr<ExecObserver> newPart() const override { return std::make_unique<CtaOrderObserver>(); }
  void addPart(const ExecObserver& part) override {
    const auto& p = static_cast<const CtaOrderObserver&>(part);
    ctas.insert(ctas.end(), p.ctas.begin(), p.ctas.end());
    records += p.records;
  }
  std::vector<uint32_t> ctas;
  uint64_t records = 0;
};

TEST(ParallelCtas, AnObserverGetsItsPartsInCtaOrder) {
  const auto setup = [](KernelRunner& r) { return std::vector<KernelRunner::Arg>{zeroWords(r, 2), zeroWords(r, 60)}; };
  CtaOrderObserver one, three;
  const LaunchRun serial = launchWithThreads("tickets", 1, 60, 64, [&](KernelRunner& r) {
    r.options.observer = &one;
    return setup(r);
  });
  const LaunchRun parallel = launchWithThreads("tickets", 3, 60, 64, [&](KernelRunner& r) {
    r.options.observer = &three;
    return setup(r);
  });
  expectSameRuns(serial, parallel);
  std::vector<uint32_t> inOrder(60);
  std::iota(inOrder.begin(), inOrder.end(), 0u);
  EXPECT_EQ(one.ctas, inOrder);
  EXPECT_EQ(three.ctas, inOrder);
  EXPECT_EQ(three.records, one.records);
  EXPECT_EQ(one.records, serial.result.warpInstructions);
}

// A kernel whose CTAs depended on each other runs in order for its next launches, then tries
// again; other kernels are not affected.
TEST(ParallelCtas, DependentKernelsRunInOrderForTheirNextLaunches) {
  CtaDependence dependence;
  const auto setup = [](KernelRunner& r) { return std::vector<KernelRunner::Arg>{zeroWords(r, 2), zeroWords(r, 60)}; };
  const LaunchRun first = launchWithThreads("tickets", 2, 60, 64, [&](KernelRunner& r) {
    r.options.ctaDependence = &dependence;
    return setup(r);
  });
  ASSERT_TRUE(first.result.ok);
  const Program* program = &first.runner->program();
  const auto kernel = static_cast<uint32_t>(program->findKernel("tickets"));
  for (uint32_t i = 0; i < CtaDependence::kRetryAfter; ++i) EXPECT_TRUE(dependence.runInOrder(program, kernel)) << i;
  EXPECT_FALSE(dependence.runInOrder(program, kernel));
  EXPECT_FALSE(dependence.runInOrder(program, kernel + 1));
  dependence.noteDependent(program, kernel);
  EXPECT_TRUE(dependence.runInOrder(program, kernel));
}

TEST(ParallelCtas, WhoCanRunInParallel) {
  KernelRunner r(kParallelKernels);
  LaunchConfig config;
  config.grid = {4, 1, 1};
  config.block = {32, 1, 1};
  r.options.threads = 2;
  GridContext grid;
  grid.config = &config;
  grid.options = &r.options;
  grid.memory = &r.memory;
  EXPECT_TRUE(canRunCtasInParallel(grid));
  r.options.threads = 1;
  EXPECT_FALSE(canRunCtasInParallel(grid));
  r.options.threads = 2;
  config.grid = {1, 1, 1};
  EXPECT_FALSE(canRunCtasInParallel(grid));
  config.grid = {4, 1, 1};
  config.cooperative = true;
  EXPECT_FALSE(canRunCtasInParallel(grid));
  config.cooperative = false;
  r.options.initcheck = true;
  EXPECT_FALSE(canRunCtasInParallel(grid));
  r.options.initcheck = false;
  struct InOrderObserver final : ExecObserver {
    void onExec(const ExecRecord&) override {}
  } inOrder;
  r.options.observer = &inOrder;
  EXPECT_FALSE(canRunCtasInParallel(grid));
}

}  // namespace
}  // namespace warpsim::func
