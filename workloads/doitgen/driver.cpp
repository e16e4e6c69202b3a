// doitgen: PolyBench's multi-resolution analysis kernel, A[r][q][:] = A[r][q][:] C4 for every
// (r, q), a launch pair per r (see doitgen.cu), checked against a double-precision reference
// within a derived bound.
#include <cmath>

#include "check.h"
#include "locality_hints.h"
#include "workload.h"

namespace warpsim::workloads {

namespace doitgen {

constexpr uint32_t kBlockX = 32, kBlockY = 8;  // a warp is 32 neighbouring p of one q
constexpr double kPi = 3.14159265358979323846;

// A holds the coefficients of a smooth function on an nr x nq x np grid, as the tensors MADNESS
// transforms do: four Gaussian bumps (centres in the unit cube, widths 0.15 to 0.4, amplitudes
// -1 to 1) sampled at the grid points, plus uniform noise in [-1e-3, 1e-3) (truncation error).
std::vector<float> smoothTensor(InputGenerator& gen, int nr, int nq, int np) {
  struct Bump {
    double x, y, z, width, amplitude;
  };
  Bump bumps[4];
  for (Bump& b : bumps) {
    b = {uniformReal(gen, 0, 1), uniformReal(gen, 0, 1), uniformReal(gen, 0, 1),
         uniformReal(gen, 0.15, 0.4), uniformReal(gen, -1, 1)};
  }
  std::vector<float> a(static_cast<size_t>(nr) * nq * np);
  size_t at = 0;
  for (int r = 0; r < nr; ++r) {
    for (int q = 0; q < nq; ++q) {
      for (int p = 0; p < np; ++p) {
        double x = (r + 0.5) / nr, y = (q + 0.5) / nq, z = (p + 0.5) / np, v = 0;
        for (const Bump& b : bumps) {
          double d2 = (x - b.x) * (x - b.x) + (y - b.y) * (y - b.y) + (z - b.z) * (z - b.z);
          v += b.amplitude * std::exp(-d2 / (b.width * b.width));
        }
        a[at++] = static_cast<float>(v + uniformReal(gen, -1e-3, 1e-3));
      }
    }
  }
  return a;
}

// C4 is a change of basis along the last index, as the filters of a multiwavelet transform are:
// the orthonormal DCT-II matrix, C4[s][p] = w_p cos(pi (s + 1/2) p / np), w_0 = sqrt(1 / np),
// w_p = sqrt(2 / np) otherwise.
std::vector<float> cosineBasis(int np) {
  std::vector<float> c4(static_cast<size_t>(np) * np);
  for (int s = 0; s < np; ++s) {
    for (int p = 0; p < np; ++p) {
      double w = std::sqrt((p == 0 ? 1.0 : 2.0) / np);
      c4[static_cast<size_t>(s) * np + p] = static_cast<float>(w * std::cos(kPi * (s + 0.5) * p / np));
    }
  }
  return c4;
}

Outcome run(WorkloadContext& ctx) {
  const int n = static_cast<int>(ctx.size), nr = n, nq = n, np = n;  // cubic, as in PolyBench/GPU
  const size_t elems = static_cast<size_t>(nr) * nq * np;
  InputGenerator gen(ctx.seed);
  const std::vector<float> a = smoothTensor(gen, nr, nq, np);
  const std::vector<float> c4 = cosineBasis(np);

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("doitgen"), "doitgen.ptx");
  uint64_t dA = gpu.upload(a), dC4 = gpu.upload(c4);
  uint64_t dSum = gpu.malloc(elems * sizeof(float));
  const func::Dim3 grid{ceilDiv(np, kBlockX), ceilDiv(nq, kBlockY)}, block{kBlockX, kBlockY};
  const size_t slice = static_cast<size_t>(nq) * np;

  // Locality descriptors (the thesis's Table 4 gives doitgen INTER_THREAD (COACCESSED, REGULAR)
  // and NO_REUSE), for the launches of r:
  // - C4, np x np: the CTAs of a grid column (p fixed, every q) all read the same 32 columns
  //   of every row of C4, walking down them (np elements per step): D-Tile 32 x np, C-Tile the
  //   whole grid column, traversed along x. The kernel's main reuse between CTAs: priority 2.
  // - A[r], the slice of launch r (nq x np): the CTAs of a grid row (q fixed) all read the same 8
  //   rows along s (stride 1): D-Tile np x 8, C-Tile the grid row, traversed along y. Given for
  //   the next launch only, as the slice moves with r.
  // - sum[r]: each CTA writes its 32 x 8 tile once (NO_REUSE, a tile per CTA); doitgen_copy
  //   streams sum[r] into A[r] once (both NO_REUSE, the same tiles). The slices move with r, so
  //   these are given for the next launch only.
  const Structure c4s{dC4, {uint32_t(np), uint32_t(np), 1}, 4};
  const Tiling perCta{{kBlockX, kBlockY, 1}, {1, 1, 1}, {1, 2, 0}};
  setLocalityDescriptors(ctx, "doitgen_sum",
                         {interThread(c4s, {{kBlockX, uint32_t(np), 1}, {1, grid.y, 1}, {1, 0, 0}},
                                      WARPSIM_COACCESSED, WARPSIM_REGULAR, np, 2)});
  for (int r = 0; r < nr; ++r) {
    const Structure sumSlice{dSum + r * slice * sizeof(float), {uint32_t(np), uint32_t(nq), 1}, 4};
    const Structure aSlice{dA + r * slice * sizeof(float), {uint32_t(np), uint32_t(nq), 1}, 4};
    gpu.addLocalityDescriptor(interThread(aSlice, {{uint32_t(np), kBlockY, 1}, {grid.x, 1, 1}, {0, 1, 0}},
                                          WARPSIM_COACCESSED, WARPSIM_REGULAR, 1));
    gpu.addLocalityDescriptor(noReuse(sumSlice, perCta));
    launch(ctx, mod.kernel("doitgen_sum"), grid, block, 0, nq, np, r, dA, dC4, dSum);
    gpu.addLocalityDescriptor(noReuse(sumSlice, perCta));
    gpu.addLocalityDescriptor(noReuse(aSlice, perCta));
    launch(ctx, mod.kernel("doitgen_copy"), grid, block, 0, nq, np, r, dSum, dA);
  }
  const std::vector<float> outA = gpu.download<float>(dA, elems);
  const std::vector<float> outSum = gpu.download<float>(dSum, elems);

  // Tolerance (u = 2^-24). Each sum is a chain of np FMAs from zero, each rounding once, so it is
  // within np u sum_s |a_s c_sp| of the exact sum (first order), doubled for slack and
  // second-order terms. The reference's products are exact in double and its own rounding is
  // about 2^-29 times the bound. Launch r reads only the slice A[r], which no earlier launch
  // wrote, so the reference transforms the input. The copy is exact: A must equal sum bit for bit.
  std::vector<double> expect(elems), bound(elems);
  for (size_t row = 0; row < static_cast<size_t>(nr) * nq; ++row) {
    const float* in = &a[row * np];
    for (int p = 0; p < np; ++p) {
      double s = 0, magnitude = 0;
      for (int k = 0; k < np; ++k) {
        double term = static_cast<double>(in[k]) * c4[static_cast<size_t>(k) * np + p];
        s += term;
        magnitude += std::fabs(term);
      }
      expect[row * np + p] = s;
      bound[row * np + p] = 2 * np * kFloatUnit * magnitude;
    }
  }
  double worst = 0;
  std::string bad = boundedMismatch("sum", outSum, expect, bound, &worst);
  if (bad.empty()) bad = exactMismatch("A (a copy of sum)", outA, outSum);
  if (!bad.empty()) return fail(bad);
  return {true, fmt::format("A {0} x {0} x {0}, C4 {0} x {0}, worst error {1:.2g} of the bound", n,
                            worst)};
}

}  // namespace doitgen

// PolyBench/GPU's edge, 128, is the large size.
Workload doitgenWorkload() {
  return {"doitgen",
          "dense",
          "multi-resolution analysis: A[r][q][:] = A[r][q][:] C4 (as PolyBench's doitgen), two "
          "launches per r",
          "tensor edge (nr = nq = np)",
          32,
          64,
          128,
          512,
          doitgen::run};
}

}  // namespace warpsim::workloads
