// sgemm-tiled: C = alpha * A * B + beta * C with 16 x 16 shared-memory tiles. XMem atoms written
// by hand describe the three matrices (xmem_atoms.h).
#include <algorithm>

#include "check.h"
#include "sgemm_reference.h"
#include "workload.h"
#include "xmem_atoms.h"

namespace warpsim::workloads {

namespace sgemm_tiled {

Outcome run(WorkloadContext& ctx) {
  const int n = static_cast<int>(ctx.size);
  const size_t elems = static_cast<size_t>(n) * n;
  const float alpha = 0.5f, beta = -2.0f;
  const SgemmInputs in = sgemmInputs(ctx.seed, n);
  const std::vector<float> expect = sgemmReference(in, n, alpha, beta);

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("sgemm-tiled"), "sgemm-tiled.ptx");
  uint64_t dA = gpu.upload(in.a), dB = gpu.upload(in.b), dC = gpu.upload(in.c);
  uint32_t tiles = ceilDiv(n, 16);
  // XMem atoms (xmem_atoms.h), one per matrix, before the launch. Each CTA reads its 16 rows of
  // A and 16 columns of B whole, a tile of 16 x 16 per step (a half-warp a row of 16 floats), so
  // A and B are each read n / 16 times (n^3 / 128 sectors each), C read and written once
  // (n^2 / 4 sectors): C's intensity 255 x 32 / n.
  const uint64_t matrixBytes = elems * sizeof(float);
  const uint8_t reuse = static_cast<uint8_t>(std::clamp<int>(n / 16 - 1, 0, 255));
  // A: a CTA walks along its rows of A (stride 4); as hot as B.
  describeStructure(gpu, "sgemm-tiled:A", dA, matrixBytes, WARPSIM_ATOM_FLOAT32, regularAccess(4, 255), reuse,
                    WARPSIM_ATOM_READ_ONLY);
  // B: a CTA walks down its 16-column strip of B (the row pitch).
  describeStructure(gpu, "sgemm-tiled:B", dB, matrixBytes, WARPSIM_ATOM_FLOAT32,
                    regularAccess(static_cast<int64_t>(n) * 4, 255), reuse, WARPSIM_ATOM_READ_ONLY);
  // C: read once (beta C) and written once, a half-warp a row of 16.
  describeStructure(gpu, "sgemm-tiled:C", dC, matrixBytes, WARPSIM_ATOM_FLOAT32,
                    regularAccess(4, static_cast<uint8_t>(std::clamp(255 * 32 / n, 1, 255))), 0,
                    WARPSIM_ATOM_READ_WRITE);
  launch(ctx, mod.kernel("sgemm_tiled"), {tiles, tiles}, {16, 16}, 0, n, alpha, dA, dB, beta, dC);

  std::string bad = exactMismatch("C", gpu.download<float>(dC, elems), expect);
  if (!bad.empty()) return fail(bad);
  return {true, fmt::format("{0} x {0} matrices, exact", n)};
}

}  // namespace sgemm_tiled

Workload sgemmTiledWorkload() {
  return {"sgemm-tiled", "dense", "single-precision GEMM with 16x16 shared-memory tiles",
          "matrix edge", 128,     256,
          512,           4096,    sgemm_tiled::run};
}

}  // namespace warpsim::workloads
