// srad: speckle-reducing anisotropic diffusion, two kernels per iteration; every kernel is
// checked on the inputs the GPU gave it. XMem atoms written by hand describe every device
// structure (xmem_atoms.h).
#include <cmath>

#include "check.h"
#include "workload.h"
#include "xmem_atoms.h"

namespace warpsim::workloads {

namespace srad {

constexpr int kIterations = 4;
constexpr float kLambda = 0.5f;

struct Coefficients {
  std::vector<float> north, south, west, east, c;
};

// Checks srad_coefficient's outputs against double arithmetic on the same image `j`.
// Tolerances: the differences are single float subtractions, so they must equal the rounded
// exact difference. The coefficient c = clamp(1 / (1 + x)) is a chain of divisions and
// cancellations; its bound is propagated through the chain by first-order error analysis,
// each float operation contributing one rounding (u = 2^-24) of its result, times 4 for slack.
// Near the pole 1 + x = 0, c is ill-conditioned and the bound exceeds 1 (any clamped value
// is then as good as another); elsewhere it is a few ulp.
std::string checkCoefficients(const std::vector<float>& j, int rows, int cols, float q0sqr,
                              const Coefficients& got, double* worst) {
  const double u = kFloatUnit;
  size_t pixels = j.size();
  std::vector<float> dn(pixels), ds(pixels), dw(pixels), de(pixels);
  std::vector<double> cRef(pixels), cBound(pixels);
  const double q0 = q0sqr, k = q0 * (1 + q0);
  for (int r = 0; r < rows; ++r) {
    for (int col = 0; col < cols; ++col) {
      size_t at = static_cast<size_t>(r) * cols + col;
      double jc = j[at];
      double n = j[static_cast<size_t>(std::max(r - 1, 0)) * cols + col] - jc;
      double s = j[static_cast<size_t>(std::min(r + 1, rows - 1)) * cols + col] - jc;
      double w = j[static_cast<size_t>(r) * cols + std::max(col - 1, 0)] - jc;
      double e = j[static_cast<size_t>(r) * cols + std::min(col + 1, cols - 1)] - jc;
      dn[at] = static_cast<float>(n);
      ds[at] = static_cast<float>(s);
      dw[at] = static_cast<float>(w);
      de[at] = static_cast<float>(e);
      double g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
      double lap = (n + s + w + e) / jc;
      double num = 0.5 * g2 - 0.0625 * lap * lap;
      double den = 1 + 0.25 * lap;
      double q = num / (den * den);
      double x = (q - q0) / k;
      double c = 1 / (1 + x);
      double eG2 = 8 * u * g2;
      double eLap = 6 * u * (std::fabs(n) + std::fabs(s) + std::fabs(w) + std::fabs(e)) / jc;
      double eNum =
          0.5 * eG2 + 0.125 * std::fabs(lap) * eLap + 2 * u * (0.5 * g2 + 0.0625 * lap * lap);
      double eDen = 0.25 * eLap + u * std::fabs(den);
      double eQ =
          (eNum + 2 * std::fabs(q) * std::fabs(den) * eDen) / (den * den) + 2 * u * std::fabs(q);
      double eX = (eQ + u * std::fabs(q - q0)) / k + 2 * u * std::fabs(x);
      double eC = c * c * eX + 2 * u * std::fabs(c);
      cRef[at] = std::clamp(c, 0.0, 1.0);
      cBound[at] = std::min(4 * eC, 1.0);
    }
  }
  std::string bad = exactMismatch("north difference", got.north, dn);
  if (bad.empty()) bad = exactMismatch("south difference", got.south, ds);
  if (bad.empty()) bad = exactMismatch("west difference", got.west, dw);
  if (bad.empty()) bad = exactMismatch("east difference", got.east, de);
  if (bad.empty()) bad = boundedMismatch("coefficient", got.c, cRef, cBound, worst);
  return bad;
}

// Checks srad_update's image against double arithmetic on the GPU's coefficients: five float
// operations on terms below |J| + sum|c d|, so 4 u (|J'| + sum|c d|) bounds the error.
std::string checkUpdate(const std::vector<float>& before, const std::vector<float>& after, int rows,
                        int cols, const Coefficients& k, double* worst) {
  size_t pixels = before.size();
  std::vector<double> ref(pixels), bound(pixels);
  for (int r = 0; r < rows; ++r) {
    for (int col = 0; col < cols; ++col) {
      size_t at = static_cast<size_t>(r) * cols + col;
      double cHere = k.c[at];
      double cSouth = k.c[static_cast<size_t>(std::min(r + 1, rows - 1)) * cols + col];
      double cEast = k.c[static_cast<size_t>(r) * cols + std::min(col + 1, cols - 1)];
      double terms[4] = {cHere * k.north[at], cSouth * k.south[at], cHere * k.west[at],
                         cEast * k.east[at]};
      double div = terms[0] + terms[1] + terms[2] + terms[3];
      double mag =
          std::fabs(terms[0]) + std::fabs(terms[1]) + std::fabs(terms[2]) + std::fabs(terms[3]);
      ref[at] = before[at] + 0.25 * kLambda * div;
      bound[at] = 4 * kFloatUnit * (std::fabs(ref[at]) + mag);
    }
  }
  return boundedMismatch("image", after, ref, bound, worst);
}

Outcome run(WorkloadContext& ctx) {
  const int rows = static_cast<int>(ctx.size), cols = rows;
  // The speckle scale q0 is the image's coefficient of variation: a single pixel has none.
  if (rows < 4) {
    throw runtime::Error(fmt::format("srad: the image edge must be at least 4, not {}", rows));
  }
  const size_t pixels = static_cast<size_t>(rows) * cols;
  InputGenerator gen(ctx.seed);
  // A smooth pattern times multiplicative speckle.
  std::vector<float> image(pixels);
  double sum = 0, sum2 = 0;
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      double base = 1.0 + 0.5 * std::sin(r / 7.0) * std::cos(c / 5.0);
      double v = base * uniformReal(gen, 0.5, 1.5);
      image[static_cast<size_t>(r) * cols + c] = static_cast<float>(v);
      sum += v;
      sum2 += v * v;
    }
  }
  double mean = sum / pixels;
  double q0sqr0 = (sum2 / pixels - mean * mean) / (mean * mean);

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("srad"), "srad.ptx");
  runtime::Kernel coefficient = mod.kernel("srad_coefficient"), update = mod.kernel("srad_update");
  uint64_t dImage = gpu.upload(image);
  uint64_t dN = gpu.malloc(pixels * 4), dS = gpu.malloc(pixels * 4), dW = gpu.malloc(pixels * 4);
  uint64_t dE = gpu.malloc(pixels * 4), dC = gpu.malloc(pixels * 4);
  func::Dim3 grid{ceilDiv(cols, 16), ceilDiv(rows, 16)}, block{16, 16};
  // XMem atoms (xmem_atoms.h), one per structure, before the first launch. Warp requests per
  // pixel and iteration (a warp covers 2 rows of 16 pixels, stride 4): the image 7 (the pixel and
  // its 4 neighbours, then read and written by the update), the coefficient 4 (written, then read
  // at the pixel, its south and east neighbours), each directional difference 2 (written, read).
  const uint64_t imageBytes = static_cast<uint64_t>(pixels) * 4;
  // image: 6 reads per pixel per iteration (4 iterations); the hottest.
  describeStructure(gpu, "srad:image", dImage, imageBytes, WARPSIM_ATOM_FLOAT32, regularAccess(4, 255), 23,
                    WARPSIM_ATOM_READ_WRITE);
  // coefficient: written by the first kernel, read 3 times per pixel by the second.
  describeStructure(gpu, "srad:coefficient", dC, imageBytes, WARPSIM_ATOM_FLOAT32, regularAccess(4, 146), 3,
                    WARPSIM_ATOM_READ_WRITE);
  // north, south, west, east differences: each written by the first kernel, read once by the second.
  describeStructure(gpu, "srad:north", dN, imageBytes, WARPSIM_ATOM_FLOAT32, regularAccess(4, 73), 1,
                    WARPSIM_ATOM_READ_WRITE);
  describeStructure(gpu, "srad:south", dS, imageBytes, WARPSIM_ATOM_FLOAT32, regularAccess(4, 73), 1,
                    WARPSIM_ATOM_READ_WRITE);
  describeStructure(gpu, "srad:west", dW, imageBytes, WARPSIM_ATOM_FLOAT32, regularAccess(4, 73), 1,
                    WARPSIM_ATOM_READ_WRITE);
  describeStructure(gpu, "srad:east", dE, imageBytes, WARPSIM_ATOM_FLOAT32, regularAccess(4, 73), 1,
                    WARPSIM_ATOM_READ_WRITE);
  double worstC = 0, worstJ = 0;
  std::vector<float> current = image;
  for (int it = 0; it < kIterations; ++it) {
    // The speckle scale decays with diffusion time: q0(t)^2 = q0(0)^2 exp(-t / 2) at t = it / 2.
    float q0sqr = static_cast<float>(q0sqr0 * std::exp(-0.25 * it));
    launch(ctx, coefficient, grid, block, 0, dImage, rows, cols, q0sqr, dN, dS, dW, dE, dC);
    launch(ctx, update, grid, block, 0, dImage, rows, cols, kLambda, dN, dS, dW, dE, dC);
    Coefficients k{gpu.download<float>(dN, pixels), gpu.download<float>(dS, pixels),
                   gpu.download<float>(dW, pixels), gpu.download<float>(dE, pixels),
                   gpu.download<float>(dC, pixels)};
    std::vector<float> next = gpu.download<float>(dImage, pixels);
    double wc = 0, wj = 0;
    std::string bad = checkCoefficients(current, rows, cols, q0sqr, k, &wc);
    if (bad.empty()) bad = checkUpdate(current, next, rows, cols, k, &wj);
    if (!bad.empty()) return fail(fmt::format("iteration {}: {}", it, bad));
    worstC = std::max(worstC, wc);
    worstJ = std::max(worstJ, wj);
    current.swap(next);
  }
  return {true, fmt::format("{0} x {0} image, {1} iterations, worst error {2:.2g} (coefficients) "
                            "and {3:.2g} (image) of the bound",
                            rows, kIterations, worstC, worstJ)};
}

}  // namespace srad

Workload sradWorkload() {
  return {"srad",
          "stencil",
          "speckle-reducing anisotropic diffusion, coefficient and update kernels per iteration",
          "image edge",
          128,
          512,
          1024,
          4096,
          srad::run};
}

}  // namespace warpsim::workloads
