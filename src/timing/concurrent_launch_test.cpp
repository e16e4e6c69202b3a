// Gpu::runConcurrent: a batch of one is a lone launch; independent small grids share the GPU;
// `after` orders launches exactly; a big first grid keeps a later one off the SMs until it
// drains (SM-exclusive sharing); launch errors fail one launch, runtime errors stop the batch;
// batches are deterministic. Four SMs at 1 GHz, so one core cycle is exactly one ns.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "func/testing/kernel_runner.h"
#include "timing/gpu.h"
#include "timing/plugin_registry.h"

namespace warpsim::timing {
namespace {

constexpr const char* kConfig = R"(
[clocks]
core = 1000.0
[gpu]
num_sms = 4
)";

// work: every thread runs `iters` rounds of a linear congruential step from its global id and
// stores the result to out[gid]; thread 0 of each CTA first stores %clock64 (the core cycle at
// which the CTA began) to starts[ctaid].
// fault: thread 16 stores past the CTA's 64 bytes of shared memory (line 44).
const char* kPtx = R"(.version 7.0
.target sm_80
.address_size 64
.visible .entry work(.param .u64 out, .param .u64 starts, .param .u32 iters)
{
  .reg .pred %p<3>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [starts];
  ld.param.u32 %r1, [iters];
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mad.lo.s32 %r5, %r2, %r3, %r4;
  setp.ne.u32 %p1, %r4, 0;
  @%p1 bra SKIP;
  mov.u64 %rd3, %clock64;
  cvta.to.global.u64 %rd4, %rd2;
  mul.wide.u32 %rd5, %r2, 8;
  add.s64 %rd4, %rd4, %rd5;
  st.global.u64 [%rd4], %rd3;
SKIP:
  mov.u32 %r6, %r5;
  mov.u32 %r7, 0;
LOOP:
  mad.lo.s32 %r6, %r6, 1664525, 1013904223;
  add.s32 %r7, %r7, 1;
  setp.lt.u32 %p2, %r7, %r1;
  @%p2 bra LOOP;
  cvta.to.global.u64 %rd6, %rd1;
  mul.wide.u32 %rd7, %r5, 4;
  add.s64 %rd6, %rd6, %rd7;
  st.global.u32 [%rd6], %r6;
  ret;
}
.visible .entry fault()
{
  .reg .b32 %r<4>;
  .shared .align 4 .b8 s[64];
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 2;
  st.shared.u32 [s], %r1;
  st.shared.u32 [%r2], %r1;
  ret;
}
)";

// One Gpu on its own device memory with the kernels above loaded.
struct Rig {
  explicit Rig(const std::string& gpuKeys = "")
      : tree(config::Tree::fromString(std::string(kConfig) + gpuKeys)),
        runner(kPtx, "concurrent.ptx") {
    registerBaselines(registry);
    gpu = std::make_unique<Gpu>(tree, registry, runner.memory);
  }

  // A launch of `work` over `ctas` CTAs of 64 threads, with its own output buffers.
  struct Work {
    uint64_t out = 0, starts = 0;
    uint32_t threads = 0, ctas = 0;
  };
  BatchLaunch work(uint32_t ctas, uint32_t iters, Work& w, std::vector<uint32_t> after = {}) {
    w.ctas = ctas;
    w.threads = ctas * 64;
    w.out = runner.upload(std::vector<uint32_t>(w.threads, 0));
    w.starts = runner.upload(std::vector<uint64_t>(ctas, 0));
    BatchLaunch l = launchOf("work", {ctas, 1, 1}, {64, 1, 1}, {w.out, w.starts, uint64_t{iters}});
    l.after = std::move(after);
    return l;
  }
  BatchLaunch launchOf(const std::string& kernel, func::Dim3 grid, func::Dim3 block,
                       const std::vector<uint64_t>& args) {
    const int k = runner.program().findKernel(kernel);
    EXPECT_GE(k, 0);
    const ir::Function& f = runner.module().functions[static_cast<size_t>(k)];
    BatchLaunch l;
    l.program = &runner.program();
    l.function = static_cast<uint32_t>(k);
    l.launch.grid = grid;
    l.launch.block = block;
    l.launch.params.assign(f.kernelParamBytes, 0);
    for (size_t i = 0; i < args.size() && i < f.params.size(); ++i) {
      std::memcpy(l.launch.params.data() + f.params[i].offset, &args[i],
                  std::min<uint32_t>(f.params[i].size, 8));
    }
    l.resources.registersPerThread = 16;
    return l;
  }
  std::vector<uint32_t> outputs(const Work& w) {
    return runner.download<uint32_t>(w.out, w.threads);
  }
  std::vector<uint64_t> starts(const Work& w) {
    return runner.download<uint64_t>(w.starts, w.ctas);
  }

  config::Tree tree;
  PluginRegistry registry;
  func::testing::KernelRunner runner;
  std::unique_ptr<Gpu> gpu;
};

double endNs(const KernelTiming& t) { return t.startNs + t.simulatedNs; }

TEST(ConcurrentLaunch, BatchOfOneIsExactlyRun) {
  Rig lone, batch;
  Rig::Work a, b;
  BatchLaunch la = lone.work(6, 40, a);
  BatchLaunch lb = batch.work(6, 40, b);
  const KernelTiming t =
      lone.gpu->run(*la.program, la.function, la.launch, la.options, la.resources);
  const std::vector<KernelTiming> ts = batch.gpu->runConcurrent({lb});
  ASSERT_TRUE(t.result.ok) << t.result.error;
  ASSERT_EQ(ts.size(), 1u);
  ASSERT_TRUE(ts[0].result.ok) << ts[0].result.error;
  EXPECT_EQ(ts[0].cycles, t.cycles);
  EXPECT_EQ(ts[0].simulatedNs, t.simulatedNs);
  EXPECT_EQ(ts[0].startNs, 0.0);
  EXPECT_EQ(t.startNs, 0.0);
  EXPECT_EQ(ts[0].result.warpInstructions, t.result.warpInstructions);
  EXPECT_EQ(ts[0].result.ctasExecuted, 6u);
  EXPECT_EQ(ts[0].stats, t.stats);  // the whole statistics JSON
  EXPECT_EQ(ts[0].stats["issue_per_sm"].size(), 4u);
  EXPECT_EQ(batch.outputs(b), lone.outputs(a));
  // The next launch on each Gpu starts at the same simulated time.
  EXPECT_EQ(batch.gpu->nowPs(), lone.gpu->nowPs());
}

TEST(ConcurrentLaunch, IndependentSmallGridsRunSideBySide) {
  Rig aloneA, aloneB, both;
  Rig::Work wa, wb, ba, bb;
  BatchLaunch la = aloneA.work(2, 400, wa);
  BatchLaunch lb = aloneB.work(2, 300, wb);
  const KernelTiming ta = aloneA.gpu->runConcurrent({la})[0];
  const KernelTiming tb = aloneB.gpu->runConcurrent({lb})[0];
  const std::vector<KernelTiming> ts =
      both.gpu->runConcurrent({both.work(2, 400, ba), both.work(2, 300, bb)});
  ASSERT_TRUE(ta.result.ok && tb.result.ok);
  ASSERT_TRUE(ts[0].result.ok) << ts[0].result.error;
  ASSERT_TRUE(ts[1].result.ok) << ts[1].result.error;
  EXPECT_EQ(both.outputs(ba), aloneA.outputs(wa));
  EXPECT_EQ(both.outputs(bb), aloneB.outputs(wb));
  EXPECT_EQ(ts[0].startNs, 0.0);
  EXPECT_EQ(ts[1].startNs, 0.0);
  // Both began at once: the second grid's CTAs started in the batch's first cycle on the two SMs
  // the first grid left idle, so they read %clock64 in the same cycles as the first grid's.
  EXPECT_EQ(both.starts(bb), both.starts(ba));
  EXPECT_GT(both.starts(ba)[0], 0u);
  const double span = std::max(endNs(ts[0]), endNs(ts[1]));
  EXPECT_LT(span, ta.simulatedNs + tb.simulatedNs);
  // The batch takes about as long as its longer launch alone.
  EXPECT_LT(span, 1.2 * std::max(ta.simulatedNs, tb.simulatedNs));
  EXPECT_FALSE(ts[0].stats.contains("cta_scheduler"));  // round-robin reports nothing
  EXPECT_EQ(ts[0].stats["resources"]["ctas_admitted"], 2u);
  EXPECT_EQ(ts[1].stats["resources"]["ctas_admitted"], 2u);
  EXPECT_EQ(ts[0].stats["warp_instructions"], ts[0].result.warpInstructions);
  EXPECT_EQ(ts[1].stats["warp_instructions"], tb.result.warpInstructions);
}

TEST(ConcurrentLaunch, AfterStartsExactlyWhenTheEarlierLaunchEnds) {
  Rig rig;
  Rig::Work wa, wb;
  BatchLaunch la = rig.work(3, 100, wa);
  BatchLaunch lb = rig.work(3, 100, wb, {0});
  const std::vector<KernelTiming> ts = rig.gpu->runConcurrent({la, lb});
  ASSERT_TRUE(ts[0].result.ok) << ts[0].result.error;
  ASSERT_TRUE(ts[1].result.ok) << ts[1].result.error;
  EXPECT_EQ(ts[0].startNs, 0.0);
  // start(b) = start(a) + cycles(a) in core cycles; at 1 GHz a cycle is one ns, so exactly:
  EXPECT_EQ(ts[1].startNs, ts[0].startNs + ts[0].simulatedNs);
  EXPECT_EQ(ts[1].startNs, static_cast<double>(ts[0].cycles));
  // %clock64 counts core cycles since the Gpu was built (the batch starts at 0). No CTA of the
  // second grid reads it before the first grid ended, and its first CTA reads it sooner after
  // its start than the first grid's first CTA did (the SMs' instruction caches are warm).
  const std::vector<uint64_t> a = rig.starts(wa), b = rig.starts(wb);
  EXPECT_GT(*std::min_element(b.begin(), b.end()), ts[0].cycles);
  EXPECT_LT(b[0] - ts[0].cycles, a[0]);
}

TEST(ConcurrentLaunch, ALaterLaunchGetsSmsOnlyAsTheBigGridDrains) {
  Rig alone, rig;
  Rig::Work wbAlone, wa, wb;
  const KernelTiming small = alone.gpu->runConcurrent({alone.work(1, 50, wbAlone)})[0];
  // 96 CTAs of 2 warps on 4 SMs of 8 CTA slots: the big grid keeps every SM busy until its last
  // CTAs have started.
  const std::vector<KernelTiming> ts =
      rig.gpu->runConcurrent({rig.work(96, 200, wa), rig.work(1, 50, wb)});
  ASSERT_TRUE(ts[0].result.ok) << ts[0].result.error;
  ASSERT_TRUE(ts[1].result.ok) << ts[1].result.error;
  EXPECT_EQ(ts[1].startNs, 0.0);  // started with the batch, but waited for an SM
  const std::vector<uint64_t> a = rig.starts(wa);
  const uint64_t lastBigStart = *std::max_element(a.begin(), a.end());
  EXPECT_GT(lastBigStart, 0u);
  EXPECT_GT(rig.starts(wb)[0], lastBigStart);
  EXPECT_GT(ts[1].simulatedNs, static_cast<double>(lastBigStart));
  EXPECT_GT(ts[1].simulatedNs, small.simulatedNs);
  EXPECT_EQ(rig.outputs(wb), alone.outputs(wbAlone));
}

TEST(ConcurrentLaunch, ALaunchThatCannotFitFailsAlone) {
  Rig rig, alone;
  Rig::Work wa, wb, wUnused, wAlone;
  BatchLaunch tooBig = rig.work(2, 10, wa);
  alone.work(2, 10, wUnused);  // the same buffer addresses as in the batch
  tooBig.launch.dynamicSharedBytes = 60000;  // the SM has 48 KiB
  tooBig.options.maxSharedBytesPerCta = 64 * 1024;
  const std::vector<KernelTiming> ts = rig.gpu->runConcurrent({tooBig, rig.work(2, 10, wb)});
  const KernelTiming lone = alone.gpu->runConcurrent({alone.work(2, 10, wAlone)})[0];
  EXPECT_FALSE(ts[0].result.ok);
  EXPECT_EQ(ts[0].result.error,
            "kernel 'work' cannot run on " + rig.tree.name() +
                ": a CTA needs 60032 bytes of shared memory, the SM has 49152");
  EXPECT_EQ(ts[0].cycles, 0u);
  EXPECT_TRUE(ts[0].stats.is_null());
  ASSERT_TRUE(ts[1].result.ok) << ts[1].result.error;
  EXPECT_EQ(ts[1].startNs, 0.0);
  EXPECT_EQ(rig.outputs(wb), alone.outputs(wAlone));
  // The failed launch never held an SM: the other one runs as if alone.
  EXPECT_EQ(ts[1].cycles, lone.cycles);
  EXPECT_EQ(ts[1].stats, lone.stats);
}

TEST(ConcurrentLaunch, AFaultStopsTheBatch) {
  Rig rig;
  Rig::Work wa;
  const std::vector<KernelTiming> ts = rig.gpu->runConcurrent(
      {rig.work(2, 100000, wa), rig.launchOf("fault", {1, 1, 1}, {32, 1, 1}, {})});
  ASSERT_EQ(ts.size(), 2u);
  EXPECT_FALSE(ts[1].result.ok);
  EXPECT_EQ(ts[1].result.error,
            "kernel 'fault' CTA (0,0,0) thread (16,0,0) at concurrent.ptx:44: illegal shared "
            "store of 4 bytes at offset 0x40 (out of range: the CTA's shared memory is 64 bytes)");
  EXPECT_FALSE(ts[0].result.ok);
  EXPECT_EQ(ts[0].result.error, "kernel 'work': stopped: kernel 'fault' running beside it failed");
  // Both end in the cycle of the fault, long before the first grid could have finished.
  EXPECT_EQ(ts[0].cycles, ts[1].cycles);
  EXPECT_LT(ts[0].cycles, 1000u);
  EXPECT_LT(ts[0].result.warpInstructions, 10000u);
  // The Gpu runs the next batch on fresh hardware.
  Rig::Work wb;
  const std::vector<KernelTiming> next = rig.gpu->runConcurrent({rig.work(1, 10, wb)});
  EXPECT_TRUE(next[0].result.ok) << next[0].result.error;
}

TEST(ConcurrentLaunch, SameBatchSameCycles) {
  std::vector<std::vector<KernelTiming>> runs;
  for (int i = 0; i < 2; ++i) {
    Rig rig;
    Rig::Work w0, w1, w2, w3;
    runs.push_back(rig.gpu->runConcurrent({rig.work(24, 60, w0), rig.work(3, 90, w1),
                                           rig.work(2, 30, w2, {1}), rig.work(5, 20, w3, {0, 2})}));
  }
  ASSERT_EQ(runs[0].size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
    ASSERT_TRUE(runs[0][i].result.ok) << runs[0][i].result.error;
    EXPECT_GT(runs[0][i].cycles, 0u);
    EXPECT_EQ(runs[0][i].cycles, runs[1][i].cycles) << i;
    EXPECT_EQ(runs[0][i].startNs, runs[1][i].startNs) << i;
    EXPECT_EQ(runs[0][i].stats, runs[1][i].stats) << i;
  }
  // Launch 3 waited for launches 0 and 2: it started when the later of them ended.
  EXPECT_EQ(runs[0][3].startNs, std::max(endNs(runs[0][0]), endNs(runs[0][2])));
  EXPECT_EQ(runs[0][2].startNs, endNs(runs[0][1]));
}

// Idle-cycle skipping only saves host time, in a batch too (SMs rebound, launches ending and
// starting); the time series covers the batch and goes to its first launch.
TEST(ConcurrentLaunch, SkippingIdleCyclesChangesNothing) {
  std::vector<std::vector<KernelTiming>> runs;
  for (const char* skip : {"true", "false"}) {
    Rig rig(std::string("sample_interval = 1000\nskip_idle_cycles = ") + skip + "\n");
    Rig::Work w0, w1, w2;
    runs.push_back(rig.gpu->runConcurrent(
        {rig.work(20, 80, w0), rig.work(2, 300, w1), rig.work(3, 50, w2, {1})}));
  }
  for (size_t i = 0; i < 3; ++i) {
    ASSERT_TRUE(runs[0][i].result.ok) << runs[0][i].result.error;
    EXPECT_EQ(runs[0][i].cycles, runs[1][i].cycles) << i;
    EXPECT_EQ(runs[0][i].startNs, runs[1][i].startNs) << i;
    EXPECT_EQ(runs[0][i].stats, runs[1][i].stats) << i;
  }
  const nlohmann::json& samples = runs[0][0].stats["samples"];
  const double span = std::max({endNs(runs[0][0]), endNs(runs[0][1]), endNs(runs[0][2])});
  // One row at every multiple of 1000 cycles the batch ran past (its last cycle, span - 1, ends
  // it before a row is taken).
  EXPECT_EQ(samples["cycle"].size(), (static_cast<size_t>(span) - 2) / 1000);
  EXPECT_EQ(samples["cycle"][0], 1000u);
  EXPECT_FALSE(runs[0][1].stats.contains("samples"));
  EXPECT_FALSE(runs[0][2].stats.contains("samples"));
}

TEST(ConcurrentLaunch, AfterMustNameAnEarlierLaunch) {
  Rig rig;
  Rig::Work w0, w1, w2;
  const std::vector<KernelTiming> ts = rig.gpu->runConcurrent(
      {rig.work(1, 10, w0, {0}), rig.work(1, 10, w1, {2}), rig.work(1, 10, w2, {0, 1})});
  EXPECT_FALSE(ts[0].result.ok);
  EXPECT_EQ(ts[0].result.error,
            "kernel 'work': launch 0 of the batch waits for launch 0, which is not an earlier "
            "launch of the batch");
  EXPECT_FALSE(ts[1].result.ok);
  EXPECT_EQ(ts[1].result.error,
            "kernel 'work': launch 1 of the batch waits for launch 2, which is not an earlier "
            "launch of the batch");
  EXPECT_EQ(ts[0].cycles, 0u);
  // Failed launches count as ended at the batch start: the one waiting for them runs.
  ASSERT_TRUE(ts[2].result.ok) << ts[2].result.error;
  EXPECT_EQ(ts[2].startNs, 0.0);
  EXPECT_GT(ts[2].cycles, 0u);
}

}  // namespace
}  // namespace warpsim::timing
