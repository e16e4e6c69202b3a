// stencil2d: explicit heat-equation steps on an n x n grid (shared-memory tiles with halo),
// ping-ponging two grids.
#include <cmath>

#include "check.h"
#include "workload.h"

namespace warpsim::workloads {

namespace stencil2d {

constexpr int kSteps = 8;

struct HeatParams {  // the kernel's struct, passed by value
  float cap, rx, ry, rz, ambient;
};

Outcome run(WorkloadContext& ctx) {
  const int n = static_cast<int>(ctx.size);
  const size_t cells = static_cast<size_t>(n) * n;
  const HeatParams p{0.5f, 0.1f, 0.1f, 0.05f, 80.0f};
  InputGenerator gen(ctx.seed);
  std::vector<float> temp(cells), power(cells);
  for (float& t : temp) t = static_cast<float>(uniformReal(gen, 320.0, 340.0));
  for (float& w : power) w = static_cast<float>(uniformReal(gen, 0.0, 0.5));

  // Reference in double. Tolerance: a step keeps 1 - cap (2 rx + 2 ry + rz) = 0.775 of the cell
  // and positive shares of the neighbours, so it does not amplify earlier errors (their sum
  // of weights is below 1); each step adds the roundings of a dozen float operations on values
  // below max|t|. After k steps the error is below 32 k u max|t| (u = 2^-24, 32 for slack).
  std::vector<double> ref(temp.begin(), temp.end()), nextRef(cells);
  for (int s = 0; s < kSteps; ++s) {
    for (int r = 0; r < n; ++r) {
      for (int c = 0; c < n; ++c) {
        double t = ref[r * n + c];
        double north = ref[std::max(r - 1, 0) * n + c], south = ref[std::min(r + 1, n - 1) * n + c];
        double west = ref[r * n + std::max(c - 1, 0)], east = ref[r * n + std::min(c + 1, n - 1)];
        nextRef[r * n + c] = t + p.cap * (power[r * n + c] + (north + south - 2 * t) * p.ry +
                                          (east + west - 2 * t) * p.rx + (p.ambient - t) * p.rz);
      }
    }
    ref.swap(nextRef);
  }
  double maxAbs = 0;
  for (double v : ref) maxAbs = std::max(maxAbs, std::fabs(v));

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("stencil2d"), "stencil2d.ptx");
  runtime::Kernel step = mod.kernel("heat_step");
  uint64_t dTemp = gpu.upload(temp), dPower = gpu.upload(power);
  uint64_t dNext = gpu.malloc(cells * sizeof(float));
  uint32_t tiles = ceilDiv(n, 16);
  for (int s = 0; s < kSteps; ++s) {
    launch(ctx, step, {tiles, tiles}, {16, 16}, 0, dTemp, dPower, dNext, n, p);
    std::swap(dTemp, dNext);
  }

  double worst = 0;
  std::string bad = closeMismatch("temperature", gpu.download<float>(dTemp, cells), ref, 0.0,
                                  32.0 * kSteps * kFloatUnit * maxAbs, &worst);
  if (!bad.empty()) return fail(bad);
  return {true, fmt::format("{0} x {0} grid, {1} steps, worst error {2:.2g} of the bound", n,
                            kSteps, worst)};
}

}  // namespace stencil2d

Workload stencil2dWorkload() {
  return {"stencil2d",
          "stencil",
          "heat-equation steps with a power map, shared tiles with halo, ping-pong grids",
          "grid edge",
          128,
          512,
          1024,
          8192,
          stencil2d::run};
}

}  // namespace warpsim::workloads
