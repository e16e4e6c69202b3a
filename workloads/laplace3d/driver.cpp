// laplace3d: Jacobi iterations for the 3-D Laplace equation with smooth fixed boundary values, a
// launch per iteration, threads marching along z (see laplace3d.cu). XMem atoms written by hand
// describe both grids (xmem_atoms.h).
#include <cmath>

#include "check.h"
#include "locality_hints.h"
#include "workload.h"
#include "xmem_atoms.h"

namespace warpsim::workloads {

namespace laplace3d {

constexpr int kIterations = 5;
constexpr uint32_t kBlockX = 32, kBlockY = 4;
constexpr double kPi = 3.14159265358979323846;

// Steady-state temperature (degrees C) in a block whose faces are held at
//   g = 20 + 15 exp(-sqrt(2) pi x) cos(pi y) cos(pi z)
//          + 4 sin(pi x) sin(2 pi y) sinh(sqrt(5) pi z) / sinh(sqrt(5) pi)
// (x, y, z in [0, 1]; each term is harmonic, so g is also the exact continuous solution): a
// warm and a cold corner on the x = 0 face and a wavy top face, 5 to 35 degrees. The interior
// starts from the usual zero initial guess (as the CUDA SDK's sample does), so after a few
// iterations the solution has spread a few cells in from the faces and the core is still zero.
std::vector<float> initialGrid(int n) {
  auto g = [](double x, double y, double z) {
    return 20 + 15 * std::exp(-std::sqrt(2.0) * kPi * x) * std::cos(kPi * y) * std::cos(kPi * z) +
           4 * std::sin(kPi * x) * std::sin(2 * kPi * y) * std::sinh(std::sqrt(5.0) * kPi * z) /
               std::sinh(std::sqrt(5.0) * kPi);
  };
  std::vector<float> u(static_cast<size_t>(n) * n * n);
  const double h = 1.0 / (n - 1);
  for (int k = 0; k < n; ++k) {
    for (int j = 0; j < n; ++j) {
      for (int i = 0; i < n; ++i) {
        const bool boundary = i == 0 || i == n - 1 || j == 0 || j == n - 1 || k == 0 || k == n - 1;
        const double x = i * h, y = j * h, z = k * h;
        u[(static_cast<size_t>(k) * n + j) * n + i] =
            boundary ? static_cast<float>(g(x, y, z)) : 0.0f;
      }
    }
  }
  return u;
}

Outcome run(WorkloadContext& ctx) {
  const int n = static_cast<int>(ctx.size);
  if (n < 3)
    throw runtime::Error(fmt::format("laplace3d: the grid edge must be at least 3, not {}", n));
  const size_t points = static_cast<size_t>(n) * n * n;
  const std::vector<float> initial = initialGrid(n);

  // Reference in double. Tolerance (u = 2^-24): an iteration adds the six neighbours (five
  // roundings, each within u of its partial sum, so within 5 u of their sum of magnitudes) and
  // multiplies by fl(1/6) (within u/6 of 1/6) with one more rounding: 7 u times the mean
  // neighbour magnitude, at most 7 u M with M the largest |value| (a mean never leaves the range
  // of the values, so M is that of the initial grid). The weights are positive and sum to 1, so
  // errors already present do not grow: after k iterations the error is at most 7 k u M; the
  // check allows twice that.
  std::vector<double> ref(initial.begin(), initial.end()), nextRef(points);
  double maxMagnitude = 0;
  for (float v : initial) maxMagnitude = std::max(maxMagnitude, std::fabs(static_cast<double>(v)));
  const size_t plane = static_cast<size_t>(n) * n;
  for (int it = 0; it < kIterations; ++it) {
    for (int k = 0; k < n; ++k) {
      for (int j = 0; j < n; ++j) {
        for (int i = 0; i < n; ++i) {
          const size_t at = k * plane + static_cast<size_t>(j) * n + i;
          const bool boundary =
              i == 0 || i == n - 1 || j == 0 || j == n - 1 || k == 0 || k == n - 1;
          nextRef[at] = boundary ? ref[at]
                                 : (ref[at - 1] + ref[at + 1] + ref[at - n] + ref[at + n] +
                                    ref[at - plane] + ref[at + plane]) /
                                       6;
        }
      }
    }
    ref.swap(nextRef);
  }
  const std::vector<double> bound(points, 2 * 7 * kIterations * kFloatUnit * maxMagnitude);

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("laplace3d"), "laplace3d.ptx");
  runtime::Kernel jacobi = mod.kernel("laplace3d_jacobi");
  uint64_t grids[2] = {gpu.upload(initial), gpu.malloc(points * sizeof(float))};
  const func::Dim3 grid{ceilDiv(n, kBlockX), ceilDiv(n, kBlockY)};
  // XMem atoms (xmem_atoms.h), one per grid, before the first launch. A launch makes 5 warp
  // requests per point of its input (the point above, then its 4 in-plane neighbours, mostly L1
  // hits; a warp a row of 32 points, stride 4) and 1 of its output; the grids swap, so over the
  // 5 iterations the initial grid gets 3 x 5 + 2 = 17 requests per point, the other 2 x 5 + 3 = 13.
  const uint64_t gridBytes = points * sizeof(float);
  // grid A (the initial one): input of iterations 1, 3 and 5, output of 2 and 4; the hottest.
  describeStructure(gpu, "laplace3d:grid A", grids[0], gridBytes, WARPSIM_ATOM_FLOAT32, regularAccess(4, 255), 14,
                    WARPSIM_ATOM_READ_WRITE);
  // grid B: output of iterations 1, 3 and 5, input of 2 and 4.
  describeStructure(gpu, "laplace3d:grid B", grids[1], gridBytes, WARPSIM_ATOM_FLOAT32, regularAccess(4, 195), 9,
                    WARPSIM_ATOM_READ_WRITE);
  // Locality descriptors (the thesis's Table 4 gives the Laplace solver NO_REUSE and
  // INTRA_THREAD), given for each launch (the two grids swap roles):
  // - u, read: each CTA's threads march up their own 32 x 4 columns of points, and the lines a
  //   warp loads for plane k + 1 ("above") it reads again at the next step for the in-plane
  //   neighbours (the same threads and their lanes next door): INTRA_THREAD, the D-Tile of a CTA
  //   its 32 x 4 columns over all n planes, a thread's successive points a plane apart.
  // - next, written once: NO_REUSE, the same tiles.
  const uint32_t un = static_cast<uint32_t>(n);
  const Tiling columns{{kBlockX, kBlockY, un}, {1, 1, 1}, {1, 2, 0}};
  const uint64_t planeStride = uint64_t{un} * un;
  for (int it = 0; it < kIterations; ++it) {
    const Structure u{grids[it % 2], {un, un, un}, 4}, next{grids[(it + 1) % 2], {un, un, un}, 4};
    gpu.addLocalityDescriptor(localityDescriptor(u, WARPSIM_INTRA_THREAD, columns, WARPSIM_COACCESSED,
                                                 WARPSIM_REGULAR, planeStride, 1));
    gpu.addLocalityDescriptor(noReuse(next, columns));
    launch(ctx, jacobi, grid, {kBlockX, kBlockY}, 0, grids[it % 2], grids[(it + 1) % 2], n, n, n);
  }
  double worst = 0;
  std::string bad =
      boundedMismatch("u", gpu.download<float>(grids[kIterations % 2], points), ref, bound, &worst);
  if (!bad.empty()) return fail(bad);
  return {true, fmt::format("{0}^3 grid, {1} Jacobi iterations, worst error {2:.2g} of the bound",
                            n, kIterations, worst)};
}

}  // namespace laplace3d

Workload laplace3dWorkload() {
  return {"laplace3d",
          "stencil",
          "Jacobi iterations of the 3-D Laplace equation, threads marching in z, global loads",
          "grid edge (edge^3 points)",
          32,
          80,
          192,
          512,
          laplace3d::run};
}

}  // namespace warpsim::workloads
