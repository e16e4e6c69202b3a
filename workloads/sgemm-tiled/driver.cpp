// sgemm-tiled: C = alpha * A * B + beta * C with 16 x 16 shared-memory tiles.
#include "check.h"
#include "sgemm_reference.h"
#include "workload.h"

namespace warpsim::workloads {

namespace {

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
  launch(ctx, mod.kernel("sgemm_tiled"), {tiles, tiles}, {16, 16}, 0, n, alpha, dA, dB, beta, dC);

  std::string bad = exactMismatch("C", gpu.download<float>(dC, elems), expect);
  if (!bad.empty()) return fail(bad);
  return {true, fmt::format("{0} x {0} matrices, exact", n)};
}

}  // namespace

Workload sgemmTiledWorkload() {
  return {"sgemm-tiled", "dense", "single-precision GEMM with 16x16 shared-memory tiles",
          "matrix edge", 128,     256,
          512,           4096,    run};
}

}  // namespace warpsim::workloads
