// scalar-prod: dot products of many vector pairs, one CTA per pair: strided FMA partial sums,
// then a shared-memory tree (see scalar-prod.cu).
#include <cmath>

#include "check.h"
#include "locality_hints.h"
#include "workload.h"

namespace warpsim::workloads {

namespace scalar_prod {

constexpr int kLength = 4096;       // elements per vector
constexpr uint32_t kThreads = 256;  // THREADS of scalar-prod.cu
constexpr int kTreeLevels = 8;      // log2(kThreads)

// Each pair is two windows of a sampled signal, as when correlating windows: a few sinusoids of
// the pair's own frequencies and phases plus noise, amplitudes around 1. Some pairs share a
// component (large dot products), some do not (dot products near zero, by cancellation).
void makePair(InputGenerator& gen, float* a, float* b) {
  const double pi = 3.14159265358979323846;
  double fa = uniformReal(gen, 1.0, 40.0), fb = uniformReal(gen, 1.0, 40.0);
  double pa = uniformReal(gen, 0.0, 2 * pi), pb = uniformReal(gen, 0.0, 2 * pi);
  double shared = gen.uniform(0, 1) ? uniformReal(gen, 0.3, 1.0) : 0.0;
  double fs = uniformReal(gen, 1.0, 40.0);
  for (int i = 0; i < kLength; ++i) {
    double t = static_cast<double>(i) / kLength;
    double common = shared * std::sin(2 * pi * fs * t);
    a[i] = static_cast<float>(0.8 * std::sin(2 * pi * fa * t + pa) + common +
                              uniformReal(gen, -0.2, 0.2));
    b[i] = static_cast<float>(0.8 * std::sin(2 * pi * fb * t + pb) + common +
                              uniformReal(gen, -0.2, 0.2));
  }
}

Outcome run(WorkloadContext& ctx) {
  const uint64_t pairs = ctx.size;
  const size_t elements = pairs * kLength;
  InputGenerator gen(ctx.seed);
  std::vector<float> a(elements), b(elements);
  for (uint64_t p = 0; p < pairs; ++p) makePair(gen, &a[p * kLength], &b[p * kLength]);

  // Tolerance (u = 2^-24). A thread's partial sum is a chain of m = kLength / kThreads FMAs,
  // each rounding once, so it is within m u of the sum of its |products|; the tree then passes
  // every partial sum through 8 additions. So a dot product is within (m + 8) u sum_i |a_i b_i|
  // of the exact one (first order), twice that for slack. The reference sums the products in
  // double: they are exact there, and its own rounding is 2^-29 times smaller than the bound.
  std::vector<double> expect(pairs), bound(pairs);
  const double depth = kLength / kThreads + kTreeLevels;
  for (uint64_t p = 0; p < pairs; ++p) {
    double sum = 0, magnitude = 0;
    for (size_t i = p * kLength; i < (p + 1) * kLength; ++i) {
      double product = static_cast<double>(a[i]) * b[i];
      sum += product;
      magnitude += std::fabs(product);
    }
    expect[p] = sum;
    bound[p] = 2 * depth * kFloatUnit * magnitude;
  }

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("scalar-prod"), "scalar-prod.ptx");
  uint64_t dA = gpu.upload(a), dB = gpu.upload(b), dDot = gpu.malloc(pairs * sizeof(float));

  // Locality descriptors (the thesis's Table 4 gives Scalar Product NO_REUSE): each CTA streams
  // its pair of vectors once (kLength floats each, coalesced): NO_REUSE, the D-Tile of a CTA
  // its vector.
  const Tiling vector{{uint32_t(kLength), 1, 1}, {1, 1, 1}, {1, 0, 0}};
  setLocalityDescriptors(ctx, "scalar_prod",
                         {noReuse({dA, {uint32_t(kLength), uint32_t(pairs), 1}, 4}, vector),
                          noReuse({dB, {uint32_t(kLength), uint32_t(pairs), 1}, 4}, vector)});
  launch(ctx, mod.kernel("scalar_prod"), {static_cast<uint32_t>(pairs)}, {kThreads}, 0, dA, dB,
         dDot, kLength);

  double worst = 0;
  std::string bad =
      boundedMismatch("dot product", gpu.download<float>(dDot, pairs), expect, bound, &worst);
  if (!bad.empty()) return fail(bad);
  return {true, fmt::format("{} pairs of {}-element vectors, worst error {:.2g} of the bound",
                            pairs, kLength, worst)};
}

}  // namespace scalar_prod

Workload scalarProdWorkload() {
  return {"scalar-prod",
          "reduction",
          "dot products of vector pairs, one CTA per pair: strided FMA loop, shared-memory tree",
          "vector pairs (4096 elements each)",
          128,
          2048,
          8192,
          16384,
          scalar_prod::run};
}

}  // namespace warpsim::workloads
