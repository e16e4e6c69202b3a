// lud: blocked LU decomposition (diagonal, perimeter and internal kernels per block step). An
// XMem atom written by hand describes the matrix (xmem_atoms.h).
#include <algorithm>

#include "check.h"
#include "lu_check.h"
#include "workload.h"
#include "xmem_atoms.h"

namespace warpsim::workloads {

namespace lud {

constexpr int kBlock = 16;

Outcome run(WorkloadContext& ctx) {
  const int n = static_cast<int>(ctx.size);
  if (n % kBlock != 0) {
    throw runtime::Error(
        fmt::format("lud: the matrix edge must be a multiple of {}, not {}", kBlock, n));
  }
  const size_t elems = static_cast<size_t>(n) * n;
  InputGenerator gen(ctx.seed);
  // Diagonally dominant, so that LU without pivoting is stable.
  std::vector<float> a(elems);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      double v = uniformReal(gen, -1.0, 1.0);
      a[static_cast<size_t>(i) * n + j] = static_cast<float>(i == j ? v + n : v);
    }
  }

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("lud"), "lud.ptx");
  runtime::Kernel diagonal = mod.kernel("lud_diagonal");
  runtime::Kernel perimeter = mod.kernel("lud_perimeter");
  runtime::Kernel internal = mod.kernel("lud_internal");
  uint64_t dA = gpu.upload(a);
  const int blocks = n / kBlock;
  // XMem atom (xmem_atoms.h), before the first launch: the matrix is the only structure (the
  // hottest). Every kernel moves 16 x 16 tiles, a warp 2 rows of 16 floats (stride 4); step k
  // reads the trailing matrix again (the internal kernel each left and up tile once per trailing
  // block), so an element is read about n / 16 times.
  describeStructure(gpu, "lud:A", dA, elems * sizeof(float), WARPSIM_ATOM_FLOAT32, regularAccess(4, 255),
                    static_cast<uint8_t>(std::min(255, blocks)), WARPSIM_ATOM_READ_WRITE);
  for (int k = 0; k < blocks; ++k) {
    launch(ctx, diagonal, {1}, {kBlock, kBlock}, 0, dA, n, k);
    uint32_t trailing = static_cast<uint32_t>(blocks - k - 1);
    if (trailing == 0) break;
    launch(ctx, perimeter, {2 * trailing}, {kBlock, kBlock}, 0, dA, n, k);
    launch(ctx, internal, {trailing, trailing}, {kBlock, kBlock}, 0, dA, n, k);
  }

  double worst = 0;
  std::string bad = luReconstructionMismatch(a, gpu.download<float>(dA, elems), n, n, n, &worst);
  if (!bad.empty()) return fail(bad);
  return {true, fmt::format("{0} x {0} matrix, L U = A within {1:.2g} of the backward-error bound",
                            n, worst)};
}

}  // namespace lud

Workload ludWorkload() {
  return {"lud",
          "science",
          "blocked LU decomposition: diagonal, perimeter and internal kernels per step",
          "matrix edge (multiple of 16)",
          128,
          256,
          512,
          4096,
          lud::run};
}

}  // namespace warpsim::workloads
