// hotspot: transient chip-temperature simulation with the HotSpot thermal model, several time
// steps per launch in shared-memory ghost-zone tiles (see hotspot.cu). XMem atoms written by
// hand describe every device structure (xmem_atoms.h).
#include <cmath>

#include "check.h"
#include "workload.h"
#include "xmem_atoms.h"

namespace warpsim::workloads {

namespace hotspot {

constexpr int kSteps = 8;   // time steps in all
constexpr int kBorder = 3;  // ghost cells per side: at most 3 steps per launch (3 + 3 + 2)
constexpr int kBlock = 16;  // the CTA edge of hotspot.cu

// The chip and silicon constants of the HotSpot model: a 16 mm x 16 mm die, 0.5 mm thick.
constexpr double kChipHeight = 0.016, kChipWidth = 0.016, kChipThickness = 0.0005;  // m
constexpr double kSiliconConductivity = 100.0;                                      // W/(m K)
constexpr double kSiliconSpecificHeat = 1.75e6;                                     // J/(m^3 K)
constexpr double kCapacitanceFactor = 0.5;  // fitting factor of the chip's capacitance
constexpr double kMaxPowerDensity = 3.0e6;  // W/m^2: sets the step, see below
constexpr double kPrecision = 0.001;        // K: the most a cell may move per step
constexpr double kAmbient = 80.0;           // ambient temperature of the Rodinia benchmark

// What the kernel gets: step / C and the reciprocal thermal resistances 1 / R (W/K).
struct Chip {
  float stepDivCap, rx1, ry1, rz1, ambient;
};

// The cell's resistances and capacitance follow from its size; the time step is the one at
// which the fastest-heating cell (maximum power density) moves by kPrecision.
Chip chipConstants(int rows, int cols) {
  double gridHeight = kChipHeight / rows, gridWidth = kChipWidth / cols;
  double cap = kCapacitanceFactor * kSiliconSpecificHeat * kChipThickness * gridWidth * gridHeight;
  double rx = gridWidth / (2.0 * kSiliconConductivity * kChipThickness * gridHeight);
  double ry = gridHeight / (2.0 * kSiliconConductivity * kChipThickness * gridWidth);
  double rz = kChipThickness / (kSiliconConductivity * gridHeight * gridWidth);
  double maxSlope = kMaxPowerDensity / (kCapacitanceFactor * kChipThickness * kSiliconSpecificHeat);
  double step = kPrecision / maxSlope;
  return {static_cast<float>(step / cap), static_cast<float>(1.0 / rx),
          static_cast<float>(1.0 / ry), static_cast<float>(1.0 / rz), static_cast<float>(kAmbient)};
}

// Temperatures of 320-340 K varying smoothly over the die, and a power map of a leakage floor
// (1e-6..1e-5 W per cell) with a few hot functional blocks (1e-4..1e-3 W per cell).
void makeInput(InputGenerator& gen, int n, std::vector<float>& temp, std::vector<float>& power) {
  const double pi = 3.14159265358979323846;
  double phaseR = uniformReal(gen, 0.0, 2 * pi), phaseC = uniformReal(gen, 0.0, 2 * pi);
  for (int r = 0; r < n; ++r) {
    for (int c = 0; c < n; ++c) {
      double wave =
          std::sin(2 * pi * 1.3 * r / n + phaseR) * std::cos(2 * pi * 0.9 * c / n + phaseC);
      temp[static_cast<size_t>(r) * n + c] =
          static_cast<float>(330.0 + 8.0 * wave + uniformReal(gen, -0.5, 0.5));
      power[static_cast<size_t>(r) * n + c] = static_cast<float>(uniformReal(gen, 1e-6, 1e-5));
    }
  }
  for (int b = 0; b < 6; ++b) {
    int h = static_cast<int>(gen.uniform(n / 16 + 1, n / 4 + 1));
    int w = static_cast<int>(gen.uniform(n / 16 + 1, n / 4 + 1));
    int r0 = static_cast<int>(gen.uniform(0, n - h)), c0 = static_cast<int>(gen.uniform(0, n - w));
    double level = uniformReal(gen, 1e-4, 1e-3);
    for (int r = r0; r < r0 + h; ++r) {
      for (int c = c0; c < c0 + w; ++c) {
        power[static_cast<size_t>(r) * n + c] =
            static_cast<float>(level * uniformReal(gen, 0.9, 1.1));
      }
    }
  }
}

// The reference: kSteps steps in double with the kernel's (float) constants, and beside it a
// bound on the float error of each cell.
//
// Tolerance: a step is a positive combination of the cell and its neighbours, with weights
// 1 - c (2/Rx + 2/Ry + 1/Rz) for the cell (c = step/C; the driver requires it to be >= 0),
// c/Rx, c/Ry for the neighbours, summing to 1 - c/Rz < 1. So errors carried in are not
// amplified: the bound after a step is the same combination of the bounds before it, plus the
// step's own roundings. Those are one u = 2^-24 of every intermediate of the kernel's
// expression evaluated as written (an FMA rounds less): the neighbour sums and differences,
// the three products with 1/R, the three partial sums with the power, the product with c and
// the final sum. This first-order bound, with the reference's magnitudes, gets a factor 2.
struct Reference {
  std::vector<double> temp, bound;
};

Reference reference(const std::vector<float>& temp0, const std::vector<float>& power, int n,
                    const Chip& k) {
  const double c = k.stepDivCap, rx1 = k.rx1, ry1 = k.ry1, rz1 = k.rz1, amb = k.ambient;
  const double u = kFloatUnit;
  const size_t cells = static_cast<size_t>(n) * n;
  Reference ref{std::vector<double>(temp0.begin(), temp0.end()), std::vector<double>(cells, 0.0)};
  std::vector<double> t2(cells), b2(cells);
  auto at = [n](int r, int col) { return static_cast<size_t>(r) * n + col; };
  for (int step = 0; step < kSteps; ++step) {
    for (int r = 0; r < n; ++r) {
      for (int col = 0; col < n; ++col) {
        size_t self = at(r, col), no = at(std::max(r - 1, 0), col);
        size_t so = at(std::min(r + 1, n - 1), col), we = at(r, std::max(col - 1, 0));
        size_t ea = at(r, std::min(col + 1, n - 1));
        const std::vector<double>& T = ref.temp;
        const std::vector<double>& B = ref.bound;
        double t = T[self];
        double sn = T[so] + T[no], ew = T[ea] + T[we];
        double y1 = (sn - 2 * t) * ry1, y2 = (ew - 2 * t) * rx1, y3 = (amb - t) * rz1;
        double s1 = power[self] + y1, s2 = s1 + y2, d = s2 + y3;
        t2[self] = t + c * d;
        double local = c * (ry1 * (std::fabs(sn) + std::fabs(sn - 2 * t)) +
                            rx1 * (std::fabs(ew) + std::fabs(ew - 2 * t)) +
                            rz1 * std::fabs(amb - t) + std::fabs(y1) + std::fabs(y2) +
                            std::fabs(y3) + std::fabs(s1) + std::fabs(s2) + std::fabs(d)) +
                       std::fabs(c * d) + std::fabs(t2[self]);
        double carried = B[self] + c * ((B[so] + B[no] - 2 * B[self]) * ry1 +
                                        (B[ea] + B[we] - 2 * B[self]) * rx1 - B[self] * rz1);
        b2[self] = carried + 2 * u * local;
      }
    }
    ref.temp.swap(t2);
    ref.bound.swap(b2);
  }
  return ref;
}

Outcome run(WorkloadContext& ctx) {
  const int n = static_cast<int>(ctx.size);
  if (n < 2) {
    throw runtime::Error(fmt::format("hotspot: the grid edge must be at least 2, not {}", n));
  }
  const Chip k = chipConstants(n, n);
  // The explicit step is stable, and errors do not grow, while the cell keeps a non-negative
  // weight: up to about 1400 cells per edge for this chip.
  double selfWeight = 1.0 - static_cast<double>(k.stepDivCap) * (2.0 * k.rx1 + 2.0 * k.ry1 + k.rz1);
  if (selfWeight < 0) {
    throw runtime::Error(fmt::format("hotspot: a {0} x {0} grid makes the time step unstable", n));
  }
  const size_t cells = static_cast<size_t>(n) * n;
  InputGenerator gen(ctx.seed);
  std::vector<float> temp(cells), power(cells);
  makeInput(gen, n, temp, power);
  Reference ref = reference(temp, power, n, k);

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("hotspot"), "hotspot.ptx");
  runtime::Kernel pyramid = mod.kernel("hotspot_pyramid");
  uint64_t dPower = gpu.upload(power), dIn = gpu.upload(temp);
  uint64_t dOut = gpu.malloc(cells * sizeof(float));
  // XMem atoms (xmem_atoms.h), one per structure, before the first launch. A launch reads its
  // 16 x 16 tiles of power and temperature (each owning 10 x 10 cells: 2.56 reads per cell, a
  // warp 2 rows of 16) and writes the owned cells; over the 3 launches, in cells: power 7.7, the
  // first temperature grid 6.1 (input of launches 1 and 3, output of 2), the other 4.6.
  const uint64_t gridBytes = cells * sizeof(float);
  // power: read by every launch, each cell by up to 4 overlapping tiles; the hottest.
  describeStructure(gpu, "hotspot:power", dPower, gridBytes, WARPSIM_ATOM_FLOAT32, regularAccess(4, 255), 7,
                    WARPSIM_ATOM_READ_ONLY);
  // temperature A (the initial grid): read 2.56 times per cell in launches 1 and 3, written in 2.
  describeStructure(gpu, "hotspot:temperature A", dIn, gridBytes, WARPSIM_ATOM_FLOAT32, regularAccess(4, 203), 4,
                    WARPSIM_ATOM_READ_WRITE);
  // temperature B: written in launches 1 and 3, read 2.56 times per cell in 2.
  describeStructure(gpu, "hotspot:temperature B", dOut, gridBytes, WARPSIM_ATOM_FLOAT32, regularAccess(4, 151), 2,
                    WARPSIM_ATOM_READ_WRITE);
  const uint32_t tiles = ceilDiv(n, kBlock - 2 * kBorder);
  for (int done = 0; done < kSteps; done += kBorder) {
    int steps = std::min(kBorder, kSteps - done);
    launch(ctx, pyramid, {tiles, tiles}, {kBlock, kBlock}, 0, dPower, dIn, dOut, n, n, kBorder,
           steps, k.stepDivCap, k.rx1, k.ry1, k.rz1, k.ambient);
    std::swap(dIn, dOut);
  }

  double worst = 0;
  std::string bad =
      boundedMismatch("temperature", gpu.download<float>(dIn, cells), ref.temp, ref.bound, &worst);
  if (!bad.empty()) return fail(bad);
  return {true, fmt::format("{0} x {0} grid, {1} steps, {2} per launch, worst error {3:.2g} of "
                            "the bound",
                            n, kSteps, kBorder, worst)};
}

}  // namespace hotspot

Workload hotspotWorkload() {
  return {"hotspot",
          "stencil",
          "HotSpot chip temperature steps, 16x16 ghost-zone tiles running 3 steps per launch",
          "grid edge",
          96,
          512,
          1024,
          1024,
          hotspot::run};
}

}  // namespace warpsim::workloads
