// dgemm-tiled: C = alpha * A * B + beta * C in double precision with 16 x 16 shared-memory
// tiles, two outputs per thread (or, by resource specification, the register-blocked variant:
// 64 x 64 tiles, 4 x 4 outputs per thread).
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "check.h"
#include "func/program.h"
#include "workload.h"

namespace warpsim::workloads {

namespace dgemm_tiled {

// The resource specification: the threads per CTA pick the kernel (as in nw and dct8x8). 128,
// the default, is dgemm_tiled: CTAs of 16 x 8 threads on 16 x 16 tiles of C, two outputs per
// thread, two 16 x 16 tiles of doubles in shared memory, any n. 256 is dgemm_blocked_t256, the
// register-blocked kernel of the unified-storage study's DGEMM (Gebhart, ch. 7: 64 registers
// per thread without spills, two shared tiles, more than 16 KB of shared memory per CTA): CTAs of
// 16 x 16 threads on 64 x 64 tiles of C, 4 x 4 outputs per thread in registers, slices of 16 k
// of A and B in two padded 16 x 65 tiles of doubles (16640 bytes; four such CTAs, 1,024 threads,
// hold 66,560 bytes, which is likely the study's 66.5 KB peak). Like MAGMA's kernels it has no
// bounds checks: the driver pads the matrices with zeros to a multiple of 64 (the small size,
// 96, runs as 128; the others are multiples). The shared memory follows the kernel and is not a
// second choice.
struct Variant {
  uint32_t threads;  // per CTA
  const char* kernel;
  uint32_t blockX, blockY;
  uint32_t tile;         // edge of the CTA's tile of C
  uint32_t sharedBytes;  // static shared memory (checked against the PTX's)
  bool padsToTile;       // the matrices are padded to a multiple of the tile
};
constexpr Variant kVariants[] = {
    {128, "dgemm_tiled", 16, 8, 16, 2 * 16 * 16 * 8, false},
    {256, "dgemm_blocked_t256", 16, 16, 64, 2 * 16 * 65 * 8, true}};
constexpr uint32_t kDefaultThreads = 128;

// The n x n row-major matrix m as the top-left corner of an edge x edge one, zeros elsewhere.
std::vector<double> padded(const std::vector<double>& m, int n, int edge) {
  std::vector<double> out(static_cast<size_t>(edge) * edge, 0.0);
  for (int i = 0; i < n; ++i) {
    std::copy_n(m.begin() + static_cast<ptrdiff_t>(i) * n, n,
                out.begin() + static_cast<ptrdiff_t>(i) * edge);
  }
  return out;
}

std::vector<uint32_t> variantThreads() {
  std::vector<uint32_t> threads;
  for (const Variant& v : kVariants) threads.push_back(v.threads);
  return threads;
}

const Variant& variantFor(uint32_t threads) {
  const uint32_t asked = threads == 0 ? kDefaultThreads : threads;
  for (const Variant& v : kVariants) {
    if (v.threads == asked) return v;
  }
  throw runtime::Error(fmt::format("dgemm-tiled: {} threads per block is not one of {}", threads,
                                   fmt::join(variantThreads(), ", ")));
}

Outcome run(WorkloadContext& ctx) {
  if (ctx.sharedBytesPerBlock != 0) {
    throw runtime::Error(
        "dgemm-tiled: the shared memory per block follows the kernel (--threads-per-block), it "
        "is not chosen");
  }
  const Variant& variant = variantFor(ctx.threadsPerBlock);
  const int n = static_cast<int>(ctx.size);
  const size_t elems = static_cast<size_t>(n) * n;
  InputGenerator gen(ctx.seed);
  std::vector<double> a(elems), b(elems), c(elems);
  for (double& v : a) v = uniformReal(gen, -1.0, 1.0);
  for (double& v : b) v = uniformReal(gen, -1.0, 1.0);
  for (double& v : c) v = uniformReal(gen, -1.0, 1.0);
  const double alpha = 1.25, beta = -0.75;

  // Tolerance: any summation order of n products has error at most about n * u * sum|a*b|
  // (u = 2^-53); the final scaling adds two roundings. The reference is summed in long double,
  // whose own error is negligible next to that, and the bound is doubled for slack:
  //   |got - ref| <= 2 (n + 2) u (|alpha| sum_k |a_ik b_kj| + |beta c_ij|).
  // Both kernels add each output's products in ascending k with FMAs and scale it the same way
  // (the zeros outside the matrices, of the tiles or of the padding, add nothing), so they give
  // the same bits; the bound holds for any order regardless.
  std::vector<double> expect(elems), bound(elems);
  std::vector<long double> sum(n), mag(n);
  for (int i = 0; i < n; ++i) {
    std::fill(sum.begin(), sum.end(), 0.0L);
    std::fill(mag.begin(), mag.end(), 0.0L);
    for (int k = 0; k < n; ++k) {
      long double aik = a[i * n + k];
      for (int j = 0; j < n; ++j) {
        long double p = aik * b[k * n + j];
        sum[j] += p;
        mag[j] += std::fabs(p);
      }
    }
    for (int j = 0; j < n; ++j) {
      double cij = c[i * n + j];
      expect[i * n + j] = static_cast<double>(alpha * sum[j] + beta * cij);
      bound[i * n + j] = 2.0 * (n + 2) * kDoubleUnit *
                         static_cast<double>(std::fabs(alpha) * mag[j] + std::fabs(beta * cij));
    }
  }

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("dgemm-tiled"), "dgemm-tiled.ptx");
  runtime::Kernel kernel = mod.kernel(variant.kernel);
  const uint32_t sharedBytes = kernel.program().staticSharedBytes(kernel.index());
  if (sharedBytes != variant.sharedBytes) {  // dgemm-tiled.ptx and this driver disagree
    throw runtime::Error(fmt::format("dgemm-tiled: {} has {} bytes of shared memory, not {}",
                                     variant.kernel, sharedBytes, variant.sharedBytes));
  }
  const uint32_t tiles = ceilDiv(n, variant.tile);
  const int edge = variant.padsToTile ? static_cast<int>(tiles * variant.tile) : n;
  auto upload = [&](const std::vector<double>& m) {
    return edge == n ? gpu.upload(m) : gpu.upload(padded(m, n, edge));
  };
  uint64_t dA = upload(a), dB = upload(b), dC = upload(c);
  launch(ctx, kernel, {tiles, tiles}, {variant.blockX, variant.blockY}, 0, edge, alpha, dA, dB,
         beta, dC);

  std::vector<double> got = gpu.download<double>(dC, static_cast<size_t>(edge) * edge);
  for (int i = 1; i < n && edge != n; ++i) {  // the n x n corner, rows packed
    std::copy_n(got.begin() + static_cast<ptrdiff_t>(i) * edge, n,
                got.begin() + static_cast<ptrdiff_t>(i) * n);
  }
  got.resize(elems);
  double worst = 0;
  std::string bad = boundedMismatch("C", got, expect, bound, &worst);
  if (!bad.empty()) return fail(bad);
  return {true, fmt::format("{0} x {0} matrices, worst error {1:.2g} of the bound", n, worst)};
}

}  // namespace dgemm_tiled

Workload dgemmTiledWorkload() {
  return {"dgemm-tiled",
          "dense",
          "double-precision GEMM with 16x16 shared-memory tiles",
          "matrix edge",
          96,
          256,
          512,
          4096,
          dgemm_tiled::run,
          {dgemm_tiled::variantThreads(),
           {},
           "threads: the kernel: 128 dgemm_tiled (16x16 tiles of C, 2 outputs per thread, 4096 B "
           "shared), 256 dgemm_blocked_t256 (64x64 tiles, 4x4 outputs per thread in registers, "
           "two 16x65 tiles of doubles: 16640 B shared); shared memory follows"}};
}

}  // namespace warpsim::workloads
