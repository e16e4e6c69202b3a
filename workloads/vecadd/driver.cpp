// vecadd: c = a + b over float vectors, one thread per element.
#include "check.h"
#include "workload.h"

namespace warpsim::workloads {

namespace vecadd {

Outcome run(WorkloadContext& ctx) {
  const int n = static_cast<int>(ctx.size);
  InputGenerator gen(ctx.seed);
  std::vector<float> a(n), b(n), expect(n);
  for (int i = 0; i < n; ++i) {
    a[i] = gen.dyadic(-1 << 20, 1 << 20, 8);
    b[i] = gen.dyadic(-1 << 20, 1 << 20, 8);
    // Verification is exact: the inputs are multiples of 2^-8 below 2^12, so every sum fits
    // in a float's 24-bit significand and add.f32 gives the same bits as the CPU.
    expect[i] = a[i] + b[i];
  }

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("vecadd"), "vecadd.ptx");
  uint64_t dA = gpu.upload(a), dB = gpu.upload(b), dC = gpu.malloc(n * sizeof(float));
  launch(ctx, mod.kernel("vecadd"), {ceilDiv(n, 256)}, {256}, 0, dA, dB, dC, n);

  std::string bad = exactMismatch("c", gpu.download<float>(dC, n), expect);
  if (!bad.empty()) return fail(bad);
  return {true, fmt::format("{} elements, c = a + b exact", n)};
}

}  // namespace vecadd

Workload vecaddWorkload() {
  return {"vecadd",   "streaming", "c = a + b on float vectors, one element per thread",
          "elements", 1u << 18,    1u << 22,
          1u << 24,   1u << 26,    vecadd::run};
}

}  // namespace warpsim::workloads
