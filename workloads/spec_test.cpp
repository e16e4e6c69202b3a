// Resource specifications (Workload::spec): every workload that accepts them verifies at the
// smallest and largest accepted values, and its launches have the block size and shared memory
// asked for. Functional mode at the small size: a specification changes the layout, which the
// launch reports show, never the result.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "runtime/device.h"
#include "runtime/error.h"
#include "workloads/workload.h"

namespace warpsim::workloads {
namespace {

const Workload& byName(const std::vector<Workload>& all, const std::string& name) {
  const Workload* w = findWorkload(all, name);
  if (w == nullptr) throw std::runtime_error("no workload " + name);
  return *w;
}

struct SpecRun {
  Outcome outcome;
  std::vector<runtime::LaunchReport> reports;
};

SpecRun runSpec(const Workload& w, uint32_t threads, uint32_t shared) {
  runtime::DeviceOptions options;
  options.mode = "functional";
  options.resources = runtime::DeviceOptions::Resources::Estimate;  // no ptxas per module
  runtime::Device device(options);
  SpecRun run;
  WorkloadContext ctx{device, w.smallSize, 1, run.reports, threads, shared};
  run.outcome = w.run(ctx);
  return run;
}

uint64_t sharedPerCta(const runtime::LaunchReport& r) {
  return uint64_t{r.resources.sharedBytes} + r.dynamicSharedBytes;
}

// The specification-capable workloads, for the parameterised test.
std::vector<std::string> specWorkloads() {
  std::vector<std::string> names;
  for (const Workload& w : allWorkloads()) {
    if (!w.spec.threadsPerBlock.empty() || !w.spec.sharedBytesPerBlock.empty()) {
      names.push_back(w.name);
    }
  }
  return names;
}

std::string testName(const ::testing::TestParamInfo<std::string>& info) {
  std::string id = info.param;
  std::replace(id.begin(), id.end(), '-', '_');
  return id;
}

class WorkloadSpec : public ::testing::TestWithParam<std::string> {};

// The extremes of each accepted list, the smallest values together and the largest together
// (a workload may need more shared memory for more threads): the launches of the main kernels
// take the asked block size and shared bytes, and the result still verifies.
TEST_P(WorkloadSpec, VerifiesAtTheExtremesAndLaunchesAsAsked) {
  const std::vector<Workload> all = allWorkloads();
  const Workload& w = byName(all, GetParam());
  const std::vector<uint32_t>& threads = w.spec.threadsPerBlock;
  const std::vector<uint32_t>& shared = w.spec.sharedBytesPerBlock;
  std::vector<std::pair<uint32_t, uint32_t>> points;
  if (threads.empty()) {
    points = {{0, shared.front()}, {0, shared.back()}};
  } else if (shared.empty()) {
    points = {{threads.front(), 0}, {threads.back(), 0}};
  } else {
    points = {{threads.front(), shared.front()}, {threads.back(), shared.back()}};
  }
  for (auto [t, s] : points) {
    SCOPED_TRACE(::testing::Message() << w.name << " threads " << t << " shared " << s);
    SpecRun run = runSpec(w, t, s);
    EXPECT_TRUE(run.outcome.passed) << run.outcome.detail;
    ASSERT_FALSE(run.reports.empty());
    bool threadsSeen = t == 0, sharedSeen = s == 0;
    for (const runtime::LaunchReport& r : run.reports) {
      threadsSeen = threadsSeen || r.block.count() == t;
      sharedSeen = sharedSeen || sharedPerCta(r) == s;
    }
    EXPECT_TRUE(threadsSeen) << "no launch of " << t << " threads";
    EXPECT_TRUE(sharedSeen) << "no launch with " << s << " bytes of shared memory";
  }
}

INSTANTIATE_TEST_SUITE_P(Suite, WorkloadSpec, ::testing::ValuesIn(specWorkloads()), testName);

// The tiled workloads (SpecSpace::tileBytes): each verifies with its smallest and its largest tile,
// and a different tile lays the work out differently (another launch sequence).
std::vector<std::string> tiledWorkloads() {
  std::vector<std::string> names;
  for (const Workload& w : allWorkloads()) {
    if (!w.spec.tileBytes.empty()) names.push_back(w.name);
  }
  return names;
}

class WorkloadTiles : public ::testing::TestWithParam<std::string> {};

TEST_P(WorkloadTiles, VerifiesWithTheSmallestAndTheLargestTile) {
  const std::vector<Workload> all = allWorkloads();
  const Workload& w = byName(all, GetParam());
  std::vector<size_t> launches;
  for (uint32_t tile : {w.spec.tileBytes.front(), w.spec.tileBytes.back()}) {
    SCOPED_TRACE(::testing::Message() << w.name << " tile " << tile << " bytes");
    runtime::DeviceOptions options;
    options.mode = "functional";
    options.resources = runtime::DeviceOptions::Resources::Estimate;
    runtime::Device device(options);
    std::vector<runtime::LaunchReport> reports;
    WorkloadContext ctx{device, w.smallSize, 1, reports, 0, 0, tile};
    const Outcome outcome = w.run(ctx);
    EXPECT_TRUE(outcome.passed) << outcome.detail;
    launches.push_back(reports.size());
  }
  if (w.spec.tileBytes.size() > 1) {
    EXPECT_NE(launches.front(), launches.back()) << "the tile changed nothing";
  }
}

// Named Suite/...: no workload is tiled until one is registered, and gtest then wants the suite
// allowed to be empty.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(WorkloadTiles);
INSTANTIATE_TEST_SUITE_P(Suite, WorkloadTiles, ::testing::ValuesIn(tiledWorkloads()), testName);

TEST(WorkloadSpecCatalogue, ListsAscendingWithinLimitsAndExplained) {
  for (const Workload& w : allWorkloads()) {
    const SpecSpace& s = w.spec;
    EXPECT_TRUE(std::is_sorted(s.threadsPerBlock.begin(), s.threadsPerBlock.end())) << w.name;
    EXPECT_TRUE(std::is_sorted(s.sharedBytesPerBlock.begin(), s.sharedBytesPerBlock.end()))
        << w.name;
    EXPECT_EQ(std::adjacent_find(s.threadsPerBlock.begin(), s.threadsPerBlock.end()),
              s.threadsPerBlock.end())
        << w.name << ": a thread count listed twice";
    for (uint32_t t : s.threadsPerBlock) {
      EXPECT_TRUE(t >= 1 && t <= 1024) << w.name << ": " << t << " threads per block";
    }
    EXPECT_TRUE(std::is_sorted(s.tileBytes.begin(), s.tileBytes.end())) << w.name;
    for (uint32_t b : s.sharedBytesPerBlock) {
      EXPECT_TRUE(b >= 1 && b <= 48 * 1024) << w.name << ": " << b << " shared bytes per block";
    }
    const bool any = !s.threadsPerBlock.empty() || !s.sharedBytesPerBlock.empty() || !s.tileBytes.empty();
    EXPECT_EQ(any, !s.meaning.empty()) << w.name << ": a meaning goes with the lists";
  }
}

// dct8x8: a block size picks the kernels compiled for its tile width; the asked total of shared
// memory is the tiles plus padding.
TEST(WorkloadSpecDct8x8, KernelsFollowTheBlockAndPaddingTheSharedTotal) {
  const std::vector<Workload> all = allWorkloads();
  const Workload& w = byName(all, "dct8x8");
  SpecRun byDefault = runSpec(w, 0, 0);
  ASSERT_EQ(byDefault.reports.size(), 2u);
  EXPECT_EQ(byDefault.reports[0].kernel, "dct8x8_forward");
  EXPECT_EQ(byDefault.reports[1].kernel, "dct8x8_inverse");
  for (const runtime::LaunchReport& r : byDefault.reports) {
    EXPECT_EQ(r.block.x, 32u);
    EXPECT_EQ(r.block.y, 8u);
    EXPECT_EQ(r.dynamicSharedBytes, 0u);  // the tiles only: 256 + 8 bytes per thread
    EXPECT_EQ(r.resources.sharedBytes, 256u + 8 * 256);
  }

  SpecRun small = runSpec(w, 64, 0);
  EXPECT_TRUE(small.outcome.passed) << small.outcome.detail;
  ASSERT_EQ(small.reports.size(), 2u);
  EXPECT_EQ(small.reports[0].kernel, "dct8x8_forward_t64");
  EXPECT_EQ(small.reports[1].kernel, "dct8x8_inverse_t64");
  for (const runtime::LaunchReport& r : small.reports) {
    EXPECT_EQ(r.block.x, 8u);
    EXPECT_EQ(r.grid.x, w.smallSize / 8);
    EXPECT_EQ(sharedPerCta(r), 256u + 8 * 64);
  }

  // Any pair of the two lists runs: the smallest total holds the largest tiles.
  SpecRun padded = runSpec(w, 1024, 9216);
  EXPECT_TRUE(padded.outcome.passed) << padded.outcome.detail;
  for (const runtime::LaunchReport& r : padded.reports) {
    EXPECT_EQ(r.block.count(), 1024u);
    EXPECT_EQ(r.resources.sharedBytes, 256u + 8 * 1024);
    EXPECT_EQ(r.dynamicSharedBytes, 9216u - (256 + 8 * 1024));
  }
  SpecRun roomy = runSpec(w, 64, 32768);
  EXPECT_TRUE(roomy.outcome.passed) << roomy.outcome.detail;
  for (const runtime::LaunchReport& r : roomy.reports) EXPECT_EQ(sharedPerCta(r), 32768u);
  // Same image, same seed: the results do not depend on the layout (the worst errors in the
  // verdict are the same to the bit).
  EXPECT_EQ(padded.outcome.detail, byDefault.outcome.detail);
  EXPECT_EQ(roomy.outcome.detail, byDefault.outcome.detail);
}

TEST(WorkloadSpecDct8x8, UnknownBlockSizeIsAnError) {
  const std::vector<Workload> all = allWorkloads();
  EXPECT_THROW(runSpec(byName(all, "dct8x8"), 96, 0), runtime::Error);
}

// nw: the block size is the blocking factor B, the edge of the tiles, and picks the kernel
// compiled for it; the shared memory per CTA follows B ((B + 1)^2 + 2 B words), there is one
// launch per tile diagonal, and the alignment score is the same at every B.
TEST(WorkloadSpecNw, BlockSizeIsTheTileEdge) {
  const std::vector<Workload> all = allWorkloads();
  const Workload& w = byName(all, "nw");
  struct Point {
    uint32_t asked, tile;
    const char* kernel;
    uint32_t shared;
  };
  const Point points[] = {{0, 32, "nw_tile_diagonal", 4612},
                          {16, 16, "nw_tile_diagonal_b16", 1284},
                          {32, 32, "nw_tile_diagonal", 4612},
                          {64, 64, "nw_tile_diagonal_b64", 17412}};
  std::string score;
  for (const Point& p : points) {
    SCOPED_TRACE(::testing::Message() << "threads " << p.asked);
    SpecRun run = runSpec(w, p.asked, 0);
    EXPECT_TRUE(run.outcome.passed) << run.outcome.detail;
    EXPECT_EQ(run.reports.size(), 2 * w.smallSize / p.tile - 1);
    for (const runtime::LaunchReport& r : run.reports) {
      EXPECT_EQ(r.kernel, p.kernel);
      EXPECT_EQ(r.block.x, p.tile);
      EXPECT_EQ(r.block.count(), p.tile);
      EXPECT_EQ(r.resources.sharedBytes, p.shared);
      EXPECT_EQ(r.dynamicSharedBytes, 0u);
    }
    // The anti-diagonal of tiles through the middle has them all.
    EXPECT_EQ(run.reports.at(w.smallSize / p.tile - 1).grid.x, w.smallSize / p.tile);
    const std::string detail = run.outcome.detail;
    const std::string thisScore = detail.substr(detail.find("score"));
    if (score.empty()) score = thisScore;
    EXPECT_EQ(thisScore, score);
  }
}

TEST(WorkloadSpecNw, OtherBlockSizesSharedBytesAndUntiledLengthsAreErrors) {
  const std::vector<Workload> all = allWorkloads();
  const Workload& w = byName(all, "nw");
  EXPECT_THROW(runSpec(w, 128, 0), runtime::Error);
  EXPECT_THROW(runSpec(w, 0, 4612), runtime::Error);  // shared memory follows the tile
  runtime::DeviceOptions options;
  options.mode = "functional";
  options.resources = runtime::DeviceOptions::Resources::Estimate;
  runtime::Device device(options);
  std::vector<runtime::LaunchReport> reports;
  WorkloadContext ctx{device, 96, 1, reports, 64, 0};  // 32-wide tiles fit, 64-wide do not
  EXPECT_THROW(w.run(ctx), runtime::Error);
  ctx.threadsPerBlock = 32;
  EXPECT_TRUE(w.run(ctx).passed);
}

// dgemm-tiled: the block size picks the kernel, 128 (the default) dgemm_tiled on 16 x 16 tiles
// of C, 256 the register-blocked dgemm_blocked_t256 on 64 x 64 tiles (the matrices padded to a
// multiple of 64: the small size, 96, runs as 128); the shared memory follows the kernel. Both
// add each output's products in the same order, so the worst error in the verdict is the same.
TEST(WorkloadSpecDgemm, BlockSizePicksTheKernel) {
  const std::vector<Workload> all = allWorkloads();
  const Workload& w = byName(all, "dgemm-tiled");
  ASSERT_EQ(w.smallSize, 96u);
  struct Point {
    uint32_t asked;
    const char* kernel;
    uint32_t blockX, blockY, gridEdge, shared;
  };
  const Point points[] = {{0, "dgemm_tiled", 16, 8, 6, 4096},
                          {128, "dgemm_tiled", 16, 8, 6, 4096},
                          {256, "dgemm_blocked_t256", 16, 16, 2, 16640}};
  std::string detail;
  for (const Point& p : points) {
    SCOPED_TRACE(::testing::Message() << "threads " << p.asked);
    SpecRun run = runSpec(w, p.asked, 0);
    EXPECT_TRUE(run.outcome.passed) << run.outcome.detail;
    ASSERT_EQ(run.reports.size(), 1u);
    const runtime::LaunchReport& r = run.reports[0];
    EXPECT_EQ(r.kernel, p.kernel);
    EXPECT_EQ(r.block.x, p.blockX);
    EXPECT_EQ(r.block.y, p.blockY);
    EXPECT_EQ(r.grid.x, p.gridEdge);
    EXPECT_EQ(r.grid.y, p.gridEdge);
    EXPECT_EQ(r.resources.sharedBytes, p.shared);
    EXPECT_EQ(r.dynamicSharedBytes, 0u);
    if (detail.empty()) detail = run.outcome.detail;
    EXPECT_EQ(run.outcome.detail, detail);
  }
}

// The blocked kernel needs 64 registers per thread without spills (the study's DGEMM): the
// allocator's minimal count on fermi-unified (whose limit is 64), and spill code under a budget
// of 32; the result verifies either way.
TEST(WorkloadSpecDgemm, BlockedKernelNeedsSixtyFourRegisters) {
  const std::vector<Workload> all = allWorkloads();
  const Workload& w = byName(all, "dgemm-tiled");
  for (const char* budget : {"minimal", "32"}) {
    SCOPED_TRACE(budget);
    runtime::DeviceOptions options;
    options.mode = "functional";
    options.resources = runtime::DeviceOptions::Resources::Estimate;
    options.config = "fermi-unified";
    options.sets = {std::string("compiler.registers=\"") + budget + "\""};
    runtime::Device device(options);
    std::vector<runtime::LaunchReport> reports;
    WorkloadContext ctx{device, w.smallSize, 1, reports, 256, 0};
    Outcome outcome = w.run(ctx);
    EXPECT_TRUE(outcome.passed) << outcome.detail;
    ASSERT_EQ(reports.size(), 1u);
    ASSERT_TRUE(reports[0].allocation.has_value());
    const compiler::FunctionAllocation& a = *reports[0].allocation;
    if (std::string(budget) == "minimal") {
      EXPECT_EQ(a.registers, 64u);
      EXPECT_EQ(a.spillStores, 0u);
    } else {
      EXPECT_EQ(a.registers, 32u);
      EXPECT_GT(a.spillStores, 0u);
      EXPECT_GT(a.spillLoads, 0u);
    }
  }
}

// Sizes that are not a multiple of 64 are padded (and verify); other block sizes and a shared
// memory size are errors.
TEST(WorkloadSpecDgemm, PaddingOtherBlockSizesAndSharedBytes) {
  const std::vector<Workload> all = allWorkloads();
  const Workload& w = byName(all, "dgemm-tiled");
  EXPECT_THROW(runSpec(w, 64, 0), runtime::Error);
  EXPECT_THROW(runSpec(w, 512, 0), runtime::Error);
  EXPECT_THROW(runSpec(w, 0, 4096), runtime::Error);  // shared memory follows the kernel
  EXPECT_THROW(runSpec(w, 256, 16640), runtime::Error);
  runtime::DeviceOptions options;
  options.mode = "functional";
  options.resources = runtime::DeviceOptions::Resources::Estimate;
  runtime::Device device(options);
  for (uint64_t n : {1u, 64u, 65u}) {
    SCOPED_TRACE(::testing::Message() << "n " << n);
    std::vector<runtime::LaunchReport> reports;
    WorkloadContext ctx{device, n, 1, reports, 256, 0};
    Outcome outcome = w.run(ctx);
    EXPECT_TRUE(outcome.passed) << outcome.detail;
    ASSERT_EQ(reports.size(), 1u);
    EXPECT_EQ(reports[0].grid.x, (n + 63) / 64);
  }
}

// mst: all four Boruvka kernels take the block size; sssp: relax and scatter do, the one-CTA scan
// keeps its 256 threads. Neither uses the shared option.
TEST(WorkloadSpecGraphs, MainKernelsTakeTheBlockSize) {
  const std::vector<Workload> all = allWorkloads();
  SpecRun mst = runSpec(byName(all, "mst"), 32, 0);
  EXPECT_TRUE(mst.outcome.passed) << mst.outcome.detail;
  for (const runtime::LaunchReport& r : mst.reports) EXPECT_EQ(r.block.x, 32u) << r.kernel;

  SpecRun sssp = runSpec(byName(all, "sssp"), 1024, 0);
  EXPECT_TRUE(sssp.outcome.passed) << sssp.outcome.detail;
  std::set<std::string> kernels;
  for (const runtime::LaunchReport& r : sssp.reports) {
    kernels.insert(r.kernel);
    EXPECT_EQ(r.block.x, r.kernel == "frontier_scan" ? 256u : 1024u) << r.kernel;
  }
  EXPECT_EQ(kernels, (std::set<std::string>{"sssp_relax", "frontier_scan", "frontier_scatter"}));
}

// pcr: shared bytes pick the systems per CTA (8 KiB each), the threads share their equations;
// asked alone, each follows the other. The solution is the same to the bit at every layout (the
// verdict carries a checksum of its bits).
TEST(WorkloadSpecPcr, LayoutFollowsTheSpecificationNeverTheSolution) {
  const std::vector<Workload> all = allWorkloads();
  const Workload& w = byName(all, "pcr");
  struct Point {
    uint32_t threads, shared;    // asked
    uint32_t block, bytes, ctas;  // launched
  };
  const uint32_t systems = static_cast<uint32_t>(w.smallSize);
  const Point points[] = {{0, 0, 256, 8192, systems},
                          {0, 32768, 1024, 32768, systems / 4},
                          {128, 0, 128, 8192, systems},
                          {512, 0, 512, 16384, systems / 2},
                          {32, 32768, 32, 32768, systems / 4},
                          {256, 16384, 256, 16384, systems / 2}};
  std::string detail;
  for (const Point& p : points) {
    SCOPED_TRACE(::testing::Message() << "threads " << p.threads << " shared " << p.shared);
    SpecRun run = runSpec(w, p.threads, p.shared);
    EXPECT_TRUE(run.outcome.passed) << run.outcome.detail;
    ASSERT_EQ(run.reports.size(), 1u);
    const runtime::LaunchReport& r = run.reports[0];
    EXPECT_EQ(r.kernel, "pcr_solve");
    EXPECT_EQ(r.block.count(), p.block);
    EXPECT_EQ(sharedPerCta(r), p.bytes);
    EXPECT_EQ(r.grid.x, p.ctas);
    if (detail.empty()) detail = run.outcome.detail;
    EXPECT_EQ(run.outcome.detail, detail);
  }
}

TEST(WorkloadSpecPcr, MoreThreadsThanEquationsAndUnlistedValuesAreErrors) {
  const std::vector<Workload> all = allWorkloads();
  const Workload& w = byName(all, "pcr");
  EXPECT_THROW(runSpec(w, 512, 8192), runtime::Error);    // 256 equations per CTA
  EXPECT_THROW(runSpec(w, 1024, 16384), runtime::Error);  // 512
  EXPECT_THROW(runSpec(w, 96, 0), runtime::Error);
  EXPECT_THROW(runSpec(w, 0, 12288), runtime::Error);
}

// mummer: a thread per read at every block size, the matches the same (each run is compared
// exactly with the one CPU reference); it has no shared memory to ask for.
TEST(WorkloadSpecMummer, BlockSizeLaysOutTheReadsOnly) {
  const std::vector<Workload> all = allWorkloads();
  const Workload& w = byName(all, "mummer");
  const uint32_t reads = static_cast<uint32_t>(w.smallSize);
  std::string detail;
  for (uint32_t t : {0u, 32u, 192u, 768u, 1024u}) {
    SCOPED_TRACE(::testing::Message() << "threads " << t);
    SpecRun run = runSpec(w, t, 0);
    EXPECT_TRUE(run.outcome.passed) << run.outcome.detail;
    ASSERT_EQ(run.reports.size(), 1u);
    const runtime::LaunchReport& r = run.reports[0];
    const uint32_t block = t == 0 ? 256u : t;
    EXPECT_EQ(r.kernel, "mummer_match");
    EXPECT_EQ(r.block.count(), block);
    EXPECT_EQ(r.grid.x, (reads + block - 1) / block);
    EXPECT_EQ(sharedPerCta(r), 0u);
    if (detail.empty()) detail = run.outcome.detail;
    EXPECT_EQ(run.outcome.detail, detail);
  }
  EXPECT_THROW(runSpec(w, 96, 0), runtime::Error);
  EXPECT_THROW(runSpec(w, 0, 4096), runtime::Error);
}

}  // namespace
}  // namespace warpsim::workloads
