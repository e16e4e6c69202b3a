// pathfinder: cheapest top-to-bottom path costs, several rows per launch in shared memory.
#include "check.h"
#include "workload.h"

namespace warpsim::workloads {

namespace {

constexpr int kRows = 96, kRowsPerLaunch = 16, kBlock = 256;

Outcome run(WorkloadContext& ctx) {
  const int cols = static_cast<int>(ctx.size);
  InputGenerator gen(ctx.seed);
  std::vector<int> wall(static_cast<size_t>(kRows) * cols);
  for (int& w : wall) w = static_cast<int>(gen.uniform(0, 9));
  // Verification is exact: integer costs.
  std::vector<int> expect(wall.begin(), wall.begin() + cols), next(cols);
  for (int r = 1; r < kRows; ++r) {
    for (int c = 0; c < cols; ++c) {
      int best = expect[c];
      if (c > 0) best = std::min(best, expect[c - 1]);
      if (c < cols - 1) best = std::min(best, expect[c + 1]);
      next[c] = best + wall[static_cast<size_t>(r) * cols + c];
    }
    expect.swap(next);
  }

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("pathfinder"), "pathfinder.ptx");
  runtime::Kernel rows = mod.kernel("pathfinder_rows");
  uint64_t dWall = gpu.upload(wall);
  uint64_t dPrevious = gpu.malloc(cols * sizeof(int)), dResult = gpu.malloc(cols * sizeof(int));
  gpu.memcpyDtoD(dPrevious, dWall, cols * sizeof(int));  // costs of the first row
  for (int first = 1; first < kRows; first += kRowsPerLaunch) {
    int steps = std::min(kRowsPerLaunch, kRows - first);
    launch(ctx, rows, {ceilDiv(cols, kBlock - 2 * steps)}, {kBlock}, 0, dWall, dPrevious, dResult,
           cols, first, steps);
    std::swap(dPrevious, dResult);
  }

  std::string bad = exactMismatch("cost", gpu.download<int>(dPrevious, cols), expect);
  if (!bad.empty()) return fail(bad);
  return {true, fmt::format("{} rows x {} columns, {} rows per launch, exact", kRows, cols,
                            kRowsPerLaunch)};
}

}  // namespace

Workload pathfinderWorkload() {
  return {"pathfinder",
          "dp",
          "grid dynamic programming, 16 rows per launch in shared memory (ghost zones)",
          "columns",
          1u << 12,
          1u << 15,
          1u << 17,
          1u << 22,
          run};
}

}  // namespace warpsim::workloads
