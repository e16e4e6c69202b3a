// pathfinder: cheapest top-to-bottom path costs, several rows per launch in shared memory. XMem
// atoms written by hand describe every device structure (xmem_atoms.h).
#include "check.h"
#include "locality_hints.h"
#include "workload.h"
#include "xmem_atoms.h"

namespace warpsim::workloads {

namespace pathfinder {

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
  // XMem atoms (xmem_atoms.h), one per structure, before the first launch. A launch reads its 16
  // wall rows and the previous costs (each 1.14 times: the CTAs' windows overlap by 32 of 256
  // columns) and writes a cost row; over the 6 launches, in rows: wall 108, each cost row 6.4.
  const uint64_t rowBytes = static_cast<uint64_t>(cols) * sizeof(int);
  // wall: streamed once, its rows in order (a lane per column); the hottest.
  describeStructure(gpu, "pathfinder:wall", dWall, wall.size() * sizeof(int), WARPSIM_ATOM_INT32,
                    regularAccess(4, 255), 0, WARPSIM_ATOM_READ_ONLY);
  // costs A: the previous row of launches 1, 3 and 5, the result of 2, 4 and 6 (read once after each write).
  describeStructure(gpu, "pathfinder:costs A", dPrevious, rowBytes, WARPSIM_ATOM_INT32, regularAccess(4, 15), 1,
                    WARPSIM_ATOM_READ_WRITE);
  // costs B: the other way round.
  describeStructure(gpu, "pathfinder:costs B", dResult, rowBytes, WARPSIM_ATOM_INT32, regularAccess(4, 15), 1,
                    WARPSIM_ATOM_READ_WRITE);
  for (int first = 1; first < kRows; first += kRowsPerLaunch) {
    int steps = std::min(kRowsPerLaunch, kRows - first);
    // Locality descriptors (the thesis's Table 4 gives pathfinder NO_REUSE), for this launch
    // (the rows and the two cost rows move): each CTA reads its window of `steps` wall rows and
    // of the previous costs once, and writes its outputs once. The D-Tile of a CTA is its
    // BLOCK - 2 steps outputs wide (the windows overlap by the 2 steps ghost columns, which tiles
    // cannot say).
    const uint32_t outputs = static_cast<uint32_t>(kBlock - 2 * steps);
    const Tiling band{{outputs, static_cast<uint32_t>(steps), 1}, {1, 1, 1}, {1, 0, 0}};
    const Tiling strip{{outputs, 1, 1}, {1, 1, 1}, {1, 0, 0}};
    gpu.addLocalityDescriptor(noReuse(
        {dWall + static_cast<uint64_t>(first) * cols * sizeof(int), {uint32_t(cols), uint32_t(steps), 1}, 4}, band));
    gpu.addLocalityDescriptor(noReuse({dPrevious, {uint32_t(cols), 1, 1}, 4}, strip));
    gpu.addLocalityDescriptor(noReuse({dResult, {uint32_t(cols), 1, 1}, 4}, strip));
    launch(ctx, rows, {ceilDiv(cols, kBlock - 2 * steps)}, {kBlock}, 0, dWall, dPrevious, dResult,
           cols, first, steps);
    std::swap(dPrevious, dResult);
  }

  std::string bad = exactMismatch("cost", gpu.download<int>(dPrevious, cols), expect);
  if (!bad.empty()) return fail(bad);
  return {true, fmt::format("{} rows x {} columns, {} rows per launch, exact", kRows, cols,
                            kRowsPerLaunch)};
}

}  // namespace pathfinder

Workload pathfinderWorkload() {
  return {"pathfinder",
          "dp",
          "grid dynamic programming, 16 rows per launch in shared memory (ghost zones)",
          "columns",
          1u << 12,
          1u << 15,
          1u << 17,
          1u << 22,
          pathfinder::run};
}

}  // namespace warpsim::workloads
