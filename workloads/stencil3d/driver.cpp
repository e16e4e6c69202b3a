// stencil3d: 7-point Jacobi sweeps over an n^3 grid (x-y tiles in shared memory marching along
// z), ping-ponging two grids. XMem atoms written by hand describe both grids (xmem_atoms.h).
#include <cmath>

#include "check.h"
#include "workload.h"
#include "xmem_atoms.h"

namespace warpsim::workloads {

namespace stencil3d {

constexpr int kSweeps = 4;

Outcome run(WorkloadContext& ctx) {
  const int n = static_cast<int>(ctx.size);
  const size_t cells = static_cast<size_t>(n) * n * n;
  const float c0 = 0.4f, c1 = 0.1f;
  InputGenerator gen(ctx.seed);
  std::vector<float> grid(cells);
  for (float& v : grid) v = static_cast<float>(uniformReal(gen, 0.0, 1.0));

  // Reference in double. Tolerance: the weights c0 + 6 c1 = 1 are positive, so a sweep does
  // not amplify earlier errors; each adds the roundings of 8 float operations on values below
  // max|v|. After k sweeps the error is below 16 k u max|v| (u = 2^-24, 16 for slack).
  std::vector<double> ref(grid.begin(), grid.end()), nextRef(cells);
  auto at = [n](int x, int y, int z) { return (static_cast<size_t>(z) * n + y) * n + x; };
  for (int s = 0; s < kSweeps; ++s) {
    for (int z = 0; z < n; ++z) {
      for (int y = 0; y < n; ++y) {
        for (int x = 0; x < n; ++x) {
          bool interior = x > 0 && x < n - 1 && y > 0 && y < n - 1 && z > 0 && z < n - 1;
          double v = ref[at(x, y, z)];
          if (interior) {
            v = static_cast<double>(c0) * v +
                static_cast<double>(c1) *
                    (ref[at(x - 1, y, z)] + ref[at(x + 1, y, z)] + ref[at(x, y - 1, z)] +
                     ref[at(x, y + 1, z)] + ref[at(x, y, z - 1)] + ref[at(x, y, z + 1)]);
          }
          nextRef[at(x, y, z)] = v;
        }
      }
    }
    ref.swap(nextRef);
  }
  double maxAbs = 0;
  for (double v : ref) maxAbs = std::max(maxAbs, std::fabs(v));

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("stencil3d"), "stencil3d.ptx");
  runtime::Kernel sweep = mod.kernel("stencil7_sweep");
  uint64_t dIn = gpu.upload(grid), dOut = gpu.malloc(cells * sizeof(float));
  // XMem atoms (xmem_atoms.h), one per grid, before the first launch. A sweep reads its input
  // once (a warp a row of 32 cells, stride 4, plus the tile's halo: a row above and below, a cell
  // beside each row, mostly cache hits) and writes its output once; the grids swap, so over the 4
  // sweeps each is read twice and written twice: equally hot.
  const uint64_t gridBytes = cells * sizeof(float);
  // grid A (the initial one): input of sweeps 1 and 3, output of 2 and 4.
  describeStructure(gpu, "stencil3d:grid A", dIn, gridBytes, WARPSIM_ATOM_FLOAT32, regularAccess(4, 255), 2,
                    WARPSIM_ATOM_READ_WRITE);
  // grid B: output of sweeps 1 and 3, input of 2 and 4.
  describeStructure(gpu, "stencil3d:grid B", dOut, gridBytes, WARPSIM_ATOM_FLOAT32, regularAccess(4, 255), 2,
                    WARPSIM_ATOM_READ_WRITE);
  for (int s = 0; s < kSweeps; ++s) {
    launch(ctx, sweep, {ceilDiv(n, 32), ceilDiv(n, 8)}, {32, 8}, 0, dIn, dOut, n, n, n, c0, c1);
    std::swap(dIn, dOut);
  }

  double worst = 0;
  std::string bad = closeMismatch("grid", gpu.download<float>(dIn, cells), ref, 0.0,
                                  16.0 * kSweeps * kFloatUnit * maxAbs, &worst);
  if (!bad.empty()) return fail(bad);
  return {true, fmt::format("{0}^3 grid, {1} sweeps, worst error {2:.2g} of the bound", n, kSweeps,
                            worst)};
}

}  // namespace stencil3d

Workload stencil3dWorkload() {
  return {"stencil3d",
          "stencil",
          "7-point Jacobi sweeps, x-y shared tiles marching in z with a register queue",
          "grid edge",
          32,
          96,
          160,
          512,
          stencil3d::run};
}

}  // namespace warpsim::workloads
