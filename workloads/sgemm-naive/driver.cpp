// sgemm-naive: C = alpha * A * B + beta * C, one thread per element, operands from global
// memory only.
#include "check.h"
#include "sgemm_reference.h"
#include "workload.h"

namespace warpsim::workloads {

namespace sgemm_naive {

Outcome run(WorkloadContext& ctx) {
  const int n = static_cast<int>(ctx.size);
  const size_t elems = static_cast<size_t>(n) * n;
  const float alpha = 1.5f, beta = 0.25f;
  const SgemmInputs in = sgemmInputs(ctx.seed, n);
  const std::vector<float> expect = sgemmReference(in, n, alpha, beta);

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("sgemm-naive"), "sgemm-naive.ptx");
  uint64_t dA = gpu.upload(in.a), dB = gpu.upload(in.b), dC = gpu.upload(in.c);
  launch(ctx, mod.kernel("sgemm_naive"), {ceilDiv(n, 16), ceilDiv(n, 16)}, {16, 16}, 0, n, alpha,
         dA, dB, beta, dC);

  std::string bad = exactMismatch("C", gpu.download<float>(dC, elems), expect);
  if (!bad.empty()) return fail(bad);
  return {true, fmt::format("{0} x {0} matrices, exact", n)};
}

}  // namespace sgemm_naive

Workload sgemmNaiveWorkload() {
  return {"sgemm-naive", "dense", "single-precision GEMM, one thread per element, no data reuse",
          "matrix edge", 128,     256,
          512,           4096,    sgemm_naive::run};
}

}  // namespace warpsim::workloads
