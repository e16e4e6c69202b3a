// reduce-shfl: sum and largest magnitude of a float vector by warp shuffles, two passes.
#include <algorithm>
#include <cmath>

#include "check.h"
#include "workload.h"

namespace warpsim::workloads {

namespace reduce_shfl {

constexpr uint32_t kThreads = 256;

Outcome run(WorkloadContext& ctx) {
  const int n = static_cast<int>(ctx.size);
  InputGenerator gen(ctx.seed);
  std::vector<float> data(n);
  for (float& v : data) v = static_cast<float>(uniformReal(gen, -10.0, 10.0));

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("reduce-shfl"), "reduce-shfl.ptx");
  runtime::Kernel reduce = mod.kernel("reduce_shfl");
  // At least eight elements per thread in the first pass, at most 256 blocks, so that one
  // block of 256 threads finishes in the second.
  uint32_t blocks = std::min(256u, std::max(1u, ceilDiv(n, kThreads * 8)));
  uint64_t dData = gpu.upload(data);
  uint64_t dSums = gpu.malloc(blocks * sizeof(float)), dMaxes = gpu.malloc(blocks * sizeof(float));
  uint64_t dSum = gpu.malloc(sizeof(float)), dMax = gpu.malloc(sizeof(float));
  launch(ctx, reduce, {blocks}, {kThreads}, 0, dData, dData, n, 1, dSums, dMaxes);
  launch(ctx, reduce, {1}, {kThreads}, 0, dSums, dMaxes, static_cast<int>(blocks), 0, dSum, dMax);
  float sum = gpu.download<float>(dSum, 1)[0], biggest = gpu.download<float>(dMax, 1)[0];
  std::vector<float> blockSums = gpu.download<float>(dSums, blocks);
  std::vector<float> blockMaxes = gpu.download<float>(dMaxes, blocks);

  // Maxima are exact. A float sum is a tree whose deepest path has `depth` additions, so it is
  // within depth * u * sum|x| of the exact sum (u = 2^-24); doubled for slack. Each pass is
  // checked on its own inputs, which keeps the bound tight enough to notice one lost element:
  //  * pass 1, block b: depth = elements per thread + 5 (warp) + 3 (8 warps); the reference
  //    is the exact (long double) sum of the elements of b's grid-stride slice;
  //  * pass 2: the same for the block sums the GPU produced.
  const uint32_t stride = blocks * kThreads;
  std::vector<double> exact(blocks), bound(blocks);
  std::vector<float> expectMaxes(blocks, 0.0f);
  {
    std::vector<long double> sumOf(blocks, 0), magOf(blocks, 0);
    for (int i = 0; i < n; ++i) {
      uint32_t b = (static_cast<uint32_t>(i) % stride) / kThreads;
      sumOf[b] += data[i];
      magOf[b] += std::fabs(data[i]);
      expectMaxes[b] = std::max(expectMaxes[b], std::fabs(data[i]));
    }
    double depth = ceilDiv(n, stride) + 8;
    for (uint32_t b = 0; b < blocks; ++b) {
      exact[b] = static_cast<double>(sumOf[b]);
      bound[b] = 2 * depth * kFloatUnit * static_cast<double>(magOf[b]);
    }
  }
  double worstBlock = 0, worst = 0;
  std::string bad = boundedMismatch("block sum", blockSums, exact, bound, &worstBlock);
  if (bad.empty()) bad = exactMismatch("block max", blockMaxes, expectMaxes);
  if (bad.empty()) {
    long double total = 0, magnitude = 0;
    for (float v : blockSums) {
      total += v;
      magnitude += std::fabs(v);
    }
    double depth = ceilDiv(blocks, kThreads) + 8;
    bad = boundedMismatch("sum", std::vector<float>{sum}, {static_cast<double>(total)},
                          {2 * depth * kFloatUnit * static_cast<double>(magnitude)}, &worst);
  }
  float expectMax = *std::max_element(expectMaxes.begin(), expectMaxes.end());
  if (bad.empty() && biggest != expectMax) {
    bad = fmt::format("max |x| = {} expected {}", biggest, expectMax);
  }
  if (!bad.empty()) return fail(bad);
  return {true, fmt::format("{} values: sum {} (error {:.2g} of the bound, block sums {:.2g}), "
                            "max |x| {} exact",
                            n, sum, worst, worstBlock, biggest)};
}

}  // namespace reduce_shfl

Workload reduceShflWorkload() {
  return {"reduce-shfl",
          "reduction",
          "float sum (shfl.down) and max magnitude (shfl.bfly) by warp shuffles, two passes",
          "elements",
          1u << 18,
          1u << 22,
          1u << 24,
          1u << 28,
          reduce_shfl::run};
}

}  // namespace warpsim::workloads
