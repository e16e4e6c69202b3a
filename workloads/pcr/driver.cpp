// pcr: many independent tridiagonal systems solved by parallel cyclic reduction, a few systems
// per CTA in shared memory (see pcr.cu). The systems are the line solves of one ADI half-step of
// heat diffusion on a circuit-board-like plate; the reference is the Thomas algorithm in double.
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>

#include "check.h"
#include "workload.h"

namespace warpsim::workloads {

namespace pcr {

constexpr int kEquations = 256;  // n: equations per system, the plate's width in cells
constexpr int kLog2Equations = 8;
static_assert(1 << kLog2Equations == kEquations);
// Shared memory per equation: two buffers (pcr.cu ping-pongs) of a, b, c, d floats.
constexpr uint32_t kSharedPerEquation = 2 * 4 * sizeof(float);
constexpr uint32_t kSharedPerSystem = kSharedPerEquation * kEquations;  // 8 KiB

// The resource specifications. Shared bytes per CTA pick the systems per CTA (8 KiB each: 1, 2
// or 4); threads per CTA share the CTA's equations (thread t owns t, t + threads, ...). Asked
// alone, each follows the other: shared bytes give a thread per equation, threads give
// max(1, threads / n) systems. Together, threads may not exceed the CTA's equations.
constexpr std::array<uint32_t, 6> kThreadChoices = {32, 64, 128, 256, 512, 1024};
constexpr std::array<uint32_t, 3> kSharedChoices = {kSharedPerSystem, 2 * kSharedPerSystem,
                                                    4 * kSharedPerSystem};

// The plate (one ADI x-sweep of u_t = div(k grad u) + q on a kEquations x rows grid of unit
// cells): the half-step diffusion numbers r = (dt / 2) k / (rho c h^2) of every cell, the
// temperature field u at the start of the step (degrees C), the heat the components put in
// during the half-step q (degrees C), and the fixed temperatures of the coolant rails along the
// left and right edges. The top and bottom edges are insulated.
struct Plate {
  int width = kEquations, rows = 0;
  std::vector<double> r, u, q;
  double leftRail = 0, rightRail = 0;
  double& at(std::vector<double>& f, int x, int y) { return f[static_cast<size_t>(y) * width + x]; }
  double get(const std::vector<double>& f, int x, int y) const {
    return f[static_cast<size_t>(y) * width + x];
  }
};

// A board: an FR-4-like substrate whose diffusion number varies smoothly by +-15% (fibre weave,
// temperature), copper pads and heat spreaders (rectangles 10 to 25 times as conductive), and
// components: Gaussian hot spots in the temperature field (10 to 60 C over a 25-35 C board
// with gentle gradients) with their heat sources beneath. One pad and one component per
// 64 x 64 cells, at least two of each. The half-step is long (r of the substrate 0.5 to 2, of
// copper up to 50), as ADI's unconditional stability allows.
Plate makePlate(InputGenerator& gen, int rows) {
  Plate p;
  p.rows = rows;
  const size_t cells = static_cast<size_t>(p.width) * rows;
  p.r.assign(cells, 0.0);
  p.u.assign(cells, 0.0);
  p.q.assign(cells, 0.0);
  const double rSubstrate = uniformReal(gen, 0.5, 2.0);
  const double weaveX = uniformReal(gen, 0.02, 0.08), weaveY = uniformReal(gen, 0.02, 0.08);
  const double ambient = uniformReal(gen, 25.0, 35.0);
  const double slopeX = uniformReal(gen, -0.02, 0.02);  // C per cell across the board
  const double swellY = uniformReal(gen, 1.0, 3.0), periodY = uniformReal(gen, 300.0, 1000.0);
  for (int y = 0; y < rows; ++y) {
    for (int x = 0; x < p.width; ++x) {
      p.at(p.r, x, y) = rSubstrate * (1.0 + 0.15 * std::sin(weaveX * x) * std::cos(weaveY * y));
      p.at(p.u, x, y) =
          ambient + slopeX * (x - p.width / 2) + swellY * std::sin(6.283 * y / periodY);
    }
  }
  const int features = std::max(2, static_cast<int>(cells / 4096));
  for (int f = 0; f < features; ++f) {
    // A copper rectangle.
    const int w = static_cast<int>(gen.uniform(8, 48)), h = static_cast<int>(gen.uniform(4, 32));
    const int x0 = static_cast<int>(gen.uniform(0, p.width - 1));
    const int y0 = static_cast<int>(gen.uniform(0, rows - 1));
    const double rCopper = rSubstrate * uniformReal(gen, 10.0, 25.0);
    for (int y = y0; y < std::min(rows, y0 + h); ++y) {
      for (int x = x0; x < std::min(p.width, x0 + w); ++x) p.at(p.r, x, y) = rCopper;
    }
    // A component: a hot spot and the heat it dissipates.
    const double cx = uniformReal(gen, 0.0, p.width), cy = uniformReal(gen, 0.0, rows);
    const double sigma = uniformReal(gen, 6.0, 30.0), rise = uniformReal(gen, 10.0, 60.0);
    const double power = uniformReal(gen, 0.5, 3.0);
    const int reach = static_cast<int>(3 * sigma) + 1;
    for (int y = std::max(0, static_cast<int>(cy) - reach);
         y < std::min(rows, static_cast<int>(cy) + reach); ++y) {
      for (int x = std::max(0, static_cast<int>(cx) - reach);
           x < std::min(p.width, static_cast<int>(cx) + reach); ++x) {
        const double g = std::exp(-((x - cx) * (x - cx) + (y - cy) * (y - cy)) /
                                  (2 * sigma * sigma));
        p.at(p.u, x, y) += rise * g;
        p.at(p.q, x, y) += power * g;
      }
    }
  }
  p.leftRail = ambient - uniformReal(gen, 0.0, 10.0);
  p.rightRail = ambient - uniformReal(gen, 0.0, 10.0);
  return p;
}

// The diffusion number of the face between two cells (harmonic mean: conductances in series).
double face(double r1, double r2) { return 2.0 * r1 * r2 / (r1 + r2); }

// The implicit x half-step of Peaceman-Rachford ADI, one system per plate row y:
//   (1 + rw + re) u*[x] - rw u*[x-1] - re u*[x+1] = u + rn (u[y+1] - u) - rs (u - u[y-1]) + q,
// rw, re, rn, rs the diffusion numbers of the cell's west, east, north and south faces (0 across
// an insulated edge); at the left and right edges the rail's temperature is known, its term
// moves to the right-hand side. Strictly diagonally dominant: b - |a| - |c| >= 1.
struct Systems {
  std::vector<float> a, b, c, d;
};

Systems makeSystems(const Plate& p) {
  const size_t cells = static_cast<size_t>(p.width) * p.rows;
  Systems s{std::vector<float>(cells), std::vector<float>(cells), std::vector<float>(cells),
            std::vector<float>(cells)};
  for (int y = 0; y < p.rows; ++y) {
    for (int x = 0; x < p.width; ++x) {
      const double r = p.get(p.r, x, y), u = p.get(p.u, x, y);
      const double rw = x > 0 ? face(p.get(p.r, x - 1, y), r) : r;
      const double re = x + 1 < p.width ? face(r, p.get(p.r, x + 1, y)) : r;
      double rhs = u + p.get(p.q, x, y);
      if (y + 1 < p.rows) rhs += face(r, p.get(p.r, x, y + 1)) * (p.get(p.u, x, y + 1) - u);
      if (y > 0) rhs -= face(p.get(p.r, x, y - 1), r) * (u - p.get(p.u, x, y - 1));
      if (x == 0) rhs += rw * p.leftRail;
      if (x + 1 == p.width) rhs += re * p.rightRail;
      const size_t i = static_cast<size_t>(y) * p.width + x;
      s.a[i] = x > 0 ? static_cast<float>(-rw) : 0.0f;
      s.b[i] = static_cast<float>(1.0 + rw + re);
      s.c[i] = x + 1 < p.width ? static_cast<float>(-re) : 0.0f;
      s.d[i] = static_cast<float>(rhs);
    }
  }
  return s;
}

// The Thomas algorithm (Gaussian elimination without pivoting, stable for diagonally dominant
// systems) in double, on the float coefficients the GPU gets: equations [first, first + n).
void thomas(const Systems& s, size_t first, int n, double* x) {
  std::vector<double> cPrime(n), dPrime(n);
  double b0 = s.b[first];
  cPrime[0] = s.c[first] / b0;
  dPrime[0] = s.d[first] / b0;
  for (int i = 1; i < n; ++i) {
    const size_t e = first + i;
    const double denom = static_cast<double>(s.b[e]) - s.a[e] * cPrime[i - 1];
    cPrime[i] = s.c[e] / denom;
    dPrime[i] = (s.d[e] - s.a[e] * dPrime[i - 1]) / denom;
  }
  x[n - 1] = dPrime[n - 1];
  for (int i = n - 2; i >= 0; --i) x[i] = dPrime[i] - cPrime[i] * x[i + 1];
}

// The launch layout of a specification: systems per CTA and threads per CTA.
struct Layout {
  uint32_t systemsPerCta, threads;
};

Layout layoutFor(const WorkloadContext& ctx) {
  auto accepted = [](const auto& list, uint32_t v) {
    return std::find(list.begin(), list.end(), v) != list.end();
  };
  if (ctx.threadsPerBlock != 0 && !accepted(kThreadChoices, ctx.threadsPerBlock)) {
    throw runtime::Error(fmt::format("pcr: {} threads per block is not one of {}",
                                     ctx.threadsPerBlock, fmt::join(kThreadChoices, ", ")));
  }
  if (ctx.sharedBytesPerBlock != 0 && !accepted(kSharedChoices, ctx.sharedBytesPerBlock)) {
    throw runtime::Error(fmt::format("pcr: {} shared bytes per block is not one of {}",
                                     ctx.sharedBytesPerBlock, fmt::join(kSharedChoices, ", ")));
  }
  Layout l{1, kEquations};
  if (ctx.sharedBytesPerBlock != 0) {
    l.systemsPerCta = ctx.sharedBytesPerBlock / kSharedPerSystem;
    l.threads = l.systemsPerCta * kEquations;
  }
  if (ctx.threadsPerBlock != 0) {
    l.threads = ctx.threadsPerBlock;
    if (ctx.sharedBytesPerBlock == 0) l.systemsPerCta = std::max(1u, l.threads / kEquations);
  }
  if (l.threads > l.systemsPerCta * kEquations) {
    throw runtime::Error(fmt::format(
        "pcr: {} threads per block exceed the {} equations of {} shared bytes per block ({} "
        "system(s) of {}); ask for at least {} shared bytes",
        l.threads, l.systemsPerCta * kEquations, l.systemsPerCta * kSharedPerSystem,
        l.systemsPerCta, kEquations, l.threads * kSharedPerEquation));
  }
  return l;
}

Outcome run(WorkloadContext& ctx) {
  if (ctx.size < 1 || ctx.size > (1u << 15)) {
    throw runtime::Error(fmt::format("pcr: 1 to 32768 systems, not {}", ctx.size));
  }
  const int systems = static_cast<int>(ctx.size);
  const Layout layout = layoutFor(ctx);
  const int total = systems * kEquations;

  InputGenerator gen(ctx.seed);
  const Systems s = makeSystems(makePlate(gen, systems));

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("pcr"), "pcr.ptx");
  const uint64_t dA = gpu.upload(s.a), dB = gpu.upload(s.b), dC = gpu.upload(s.c),
                 dD = gpu.upload(s.d);
  const uint64_t dX = gpu.malloc(static_cast<size_t>(total) * sizeof(float));
  const uint32_t eqs = layout.systemsPerCta * kEquations;
  launch(ctx, mod.kernel("pcr_solve"), {ceilDiv(systems, layout.systemsPerCta)},
         {layout.threads}, eqs * kSharedPerEquation, dA, dB, dC, dD, dX, total, kEquations,
         static_cast<int>(eqs));
  const std::vector<float> got = gpu.download<float>(dX, total);

  // Tolerance (u = 2^-24), per system, from a first-order error analysis of PCR in float on a
  // strictly diagonally dominant system. Let kappa = ||A||_inf / delta, delta = min_i (|b_i| -
  // |a_i| - |c_i|) > 0, so that ||A^-1||_inf <= 1 / delta (Varah) and kappa bounds the condition
  // number. A PCR step forms row i's new coefficients from rows i, i-s and i+s with
  // |k1| |b_{i-s}| = |a_i|, |k2| |b_{i+s}| = |c_i|, so:
  //  * the reduced system is diagonally dominant with a margin at least delta and row sums at
  //    most ||A||_inf (|b'| >= |b| - |k1||c_m| - |k2||a_p| and |a'| + |c'| = |k1||a_m| +
  //    |k2||c_p|, with |a_m| + |c_m| <= |b_m| - delta): every level's kappa is at most kappa;
  //  * every term of the new row is at most the old row's a_i or c_i, or, for d, 2 |a_i| ||x|| or
  //    2 |c_i| ||x|| (|d_m| <= 2 |b_m| ||x||), and each new coefficient is a division, products
  //    and two subtractions: at most 4 u of its terms' magnitudes (2 u for a' and c'). The
  //    computed level is the exact reduction of the computed previous level perturbed by
  //    ||dA|| <= 6 u ||A|| and ||dd|| <= 12 u ||A|| ||x||, which moves its solution by at most
  //    ||A'^-1|| (||dA|| ||x|| + ||dd||) <= 18 u kappa ||x||;
  //  * the reduction itself keeps the solution, and the final x = d / b rounds once.
  // Over log2(n) levels: |x_gpu - x| <= (18 log2(n) + 1) u kappa max|x|; the tolerance is twice
  // that. The reference's own error (double) is about 2^-29 of it.
  std::vector<double> expect(total), bound(total);
  double worstKappa = 0;
  for (int sys = 0; sys < systems; ++sys) {
    const size_t first = static_cast<size_t>(sys) * kEquations;
    thomas(s, first, kEquations, &expect[first]);
    double rowSum = 0, margin = INFINITY, xMax = 0;
    for (int i = 0; i < kEquations; ++i) {
      const double ai = std::fabs(s.a[first + i]), bi = std::fabs(s.b[first + i]),
                   ci = std::fabs(s.c[first + i]);
      rowSum = std::max(rowSum, ai + bi + ci);
      margin = std::min(margin, bi - ai - ci);
      xMax = std::max(xMax, std::fabs(expect[first + i]));
    }
    if (!(margin > 0)) {
      return fail(fmt::format("input: system {} is not diagonally dominant (margin {})", sys,
                              margin));
    }
    const double kappa = rowSum / margin;
    worstKappa = std::max(worstKappa, kappa);
    const double tolerance = 2 * (18 * kLog2Equations + 1) * kFloatUnit * kappa * xMax;
    std::fill(bound.begin() + first, bound.begin() + first + kEquations, tolerance);
  }
  double worst = 0;
  if (std::string bad = boundedMismatch("x", got, expect, bound, &worst); !bad.empty()) {
    return fail(bad);
  }
  // The layout is left out of the message, and the solution's bits are in it (FNV-1a): it is
  // the same for every specification (each equation's arithmetic does not depend on it).
  uint32_t checksum = 2166136261u;
  for (float v : got) checksum = (checksum ^ std::bit_cast<uint32_t>(v)) * 16777619u;
  return {true, fmt::format("{} systems of {} equations (ADI heat-diffusion line solves, "
                            "kappa <= {:.0f}) within tolerance, worst error {:.3g} of it; "
                            "solution checksum {:08x}",
                            systems, kEquations, worstKappa, worst, checksum)};
}

}  // namespace pcr

Workload pcrWorkload() {
  return {"pcr",
          "science",
          "tridiagonal systems by parallel cyclic reduction (ADI heat-diffusion line solves), "
          "a CTA per system, log2(n) barrier steps in shared memory",
          "systems (of 256 equations)",
          64,
          512,
          8192,
          1u << 15,
          pcr::run,
          {{pcr::kThreadChoices.begin(), pcr::kThreadChoices.end()},
           {pcr::kSharedChoices.begin(), pcr::kSharedChoices.end()},
           "shared bytes per CTA: systems per CTA (8 KiB each, two buffers of a, b, c, d); "
           "threads per CTA: a thread per equation or several (threads <= equations)"}};
}

}  // namespace warpsim::workloads
