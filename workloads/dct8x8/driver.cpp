// dct8x8: forward and inverse 2-D DCT of the 8 x 8 blocks of a grayscale image, row and column
// passes through shared memory (see dct8x8.cu).
#include <algorithm>
#include <cmath>

#include "check.h"
#include "func/program.h"
#include "workload.h"

namespace warpsim::workloads {

namespace dct8x8 {

constexpr int kBlock = 8;
constexpr uint32_t kTileWidth = 32;  // TILE_W of the default kernels of dct8x8.cu
constexpr double kPi = 3.14159265358979323846;

// The resource specifications. A CTA is (tile width) x 8 threads, one pixel each, so the
// threads per block pick the tile width and the kernels dct8x8.cu compiles for it (their shared
// tiles take 256 + 8 bytes per thread). Shared memory per block is the CTA's total: the tiles
// plus dynamic shared memory that nothing accesses. Every accepted total holds the largest
// tiles (8448 bytes) and fits the smallest bundled SM (32 KB), so any pair of the two lists runs.
struct Variant {
  uint32_t threads;
  const char* suffix;  // of the kernel names
};
constexpr Variant kVariants[] = {
    {64, "_t64"}, {128, "_t128"}, {256, ""}, {512, "_t512"}, {1024, "_t1024"}};
const std::vector<uint32_t> kSharedTotals = {9216, 12288, 16384, 24576, 32768};

const Variant& variantFor(uint32_t threads) {
  for (const Variant& v : kVariants) {
    if (v.threads == threads) return v;
  }
  throw runtime::Error(fmt::format("dct8x8: no kernels for {} threads per block", threads));
}

std::vector<uint32_t> variantThreads() {
  std::vector<uint32_t> threads;
  for (const Variant& v : kVariants) threads.push_back(v.threads);
  return threads;
}

// The dynamic shared bytes that bring `kernel`'s CTAs to `total` bytes (0: no padding).
uint32_t padding(const runtime::Kernel& kernel, uint32_t total) {
  if (total == 0) return 0;
  // The tiles, aligned as the engine places dynamic shared memory after them.
  const uint32_t tiles = kernel.program().dynamicSharedBase(kernel.index());
  if (total < tiles) {
    throw runtime::Error(
        fmt::format("dct8x8: {} bytes of shared memory per block is less than "
                    "the {} bytes of {}'s tiles",
                    total, tiles, kernel.name()));
  }
  return total - tiles;
}

// An 8-bit photograph-like image: a smooth vertical and horizontal shading (sky, lighting), a
// few flat objects with sharp edges (disks and rectangles of their own brightness, partly
// shaded), a patch of fine stripes (fabric, foliage) and sensor noise; rounded to integers and
// clamped to 0..255.
std::vector<float> makeImage(InputGenerator& gen, int n) {
  std::vector<double> img(static_cast<size_t>(n) * n);
  double tiltX = uniformReal(gen, -60.0, 60.0), tiltY = uniformReal(gen, 40.0, 100.0);
  double base = uniformReal(gen, 70.0, 130.0);
  for (int y = 0; y < n; ++y) {
    for (int x = 0; x < n; ++x) {
      double fx = static_cast<double>(x) / n, fy = static_cast<double>(y) / n;
      img[static_cast<size_t>(y) * n + x] =
          base + tiltX * (fx - 0.5) + tiltY * (0.5 - fy) + 12.0 * std::sin(2 * kPi * 1.5 * fx * fy);
    }
  }
  for (int s = 0; s < 12; ++s) {
    double cx = uniformReal(gen, 0.0, n), cy = uniformReal(gen, 0.0, n);
    double r = uniformReal(gen, 0.03, 0.15) * n, level = uniformReal(gen, 10.0, 245.0);
    bool disk = gen.uniform(0, 1) == 0;
    double shade = uniformReal(gen, -0.3, 0.3);  // brightness change across the object
    int y0 = std::max(0, static_cast<int>(cy - r)), y1 = std::min(n - 1, static_cast<int>(cy + r));
    int x0 = std::max(0, static_cast<int>(cx - r)), x1 = std::min(n - 1, static_cast<int>(cx + r));
    for (int y = y0; y <= y1; ++y) {
      for (int x = x0; x <= x1; ++x) {
        double dx = x - cx, dy = y - cy;
        if (disk && dx * dx + dy * dy > r * r) continue;
        img[static_cast<size_t>(y) * n + x] = level * (1.0 + shade * dx / r);
      }
    }
  }
  {
    int size = std::max(8, n / 5);
    int x0 = static_cast<int>(gen.uniform(0, n - size)),
        y0 = static_cast<int>(gen.uniform(0, n - size));
    double period = uniformReal(gen, 2.5, 6.0), angle = uniformReal(gen, 0.0, kPi);
    for (int y = y0; y < y0 + size; ++y) {
      for (int x = x0; x < x0 + size; ++x) {
        double t = (x * std::cos(angle) + y * std::sin(angle)) / period;
        img[static_cast<size_t>(y) * n + x] += 40.0 * std::sin(2 * kPi * t);
      }
    }
  }
  std::vector<float> out(img.size());
  for (size_t i = 0; i < img.size(); ++i) {
    // Noise of about 2 grey levels (a sum of three uniforms is close to Gaussian).
    double noise = 0;
    for (int k = 0; k < 3; ++k) noise += uniformReal(gen, -2.0, 2.0);
    out[i] = static_cast<float>(std::clamp(std::round(img[i] + noise), 0.0, 255.0));
  }
  return out;
}

// One separable pass over every 8 x 8 block in double, with the float basis the GPU uses:
// out[row][col] = sum_k M(col, k) in[row][k] along rows, or sum_k M(row, k) in[k][col] along
// columns, where M(i, k) = basis[i][k] (forward) or basis[k][i] (inverse). Besides the value,
// it carries an error bound: the input's bound through the weights, plus the pass's own
// roundings, a chain of 8 FMAs each rounding once (8 u sum_k |M x|, first order).
struct Field {
  std::vector<double> value, bound;
};

Field pass(const Field& in, const std::vector<float>& basis, int n, bool alongRows, bool inverse) {
  Field out{std::vector<double>(in.value.size()), std::vector<double>(in.value.size())};
  auto m = [&](int i, int k) {
    return static_cast<double>(inverse ? basis[k * kBlock + i] : basis[i * kBlock + k]);
  };
  for (int y = 0; y < n; ++y) {
    for (int x = 0; x < n; ++x) {
      const int bx = x & ~(kBlock - 1), by = y & ~(kBlock - 1);
      const int i = alongRows ? x - bx : y - by;
      double sum = 0, magnitude = 0, carried = 0;
      for (int k = 0; k < kBlock; ++k) {
        size_t at =
            alongRows ? static_cast<size_t>(y) * n + bx + k : static_cast<size_t>(by + k) * n + x;
        double w = m(i, k);
        sum += w * in.value[at];
        magnitude += std::fabs(w * in.value[at]);
        carried += std::fabs(w) * in.bound[at];
      }
      out.value[static_cast<size_t>(y) * n + x] = sum;
      out.bound[static_cast<size_t>(y) * n + x] = carried + kBlock * kFloatUnit * magnitude;
    }
  }
  return out;
}

Outcome run(WorkloadContext& ctx) {
  const int n = static_cast<int>(ctx.size);
  if (n < kBlock || n % kBlock != 0) {
    throw runtime::Error(
        fmt::format("dct8x8: the image edge must be a positive multiple of 8, not {}", n));
  }
  const size_t pixels = static_cast<size_t>(n) * n;
  InputGenerator gen(ctx.seed);
  std::vector<float> image = makeImage(gen, n);
  std::vector<float> basis(kBlock * kBlock);
  for (int u = 0; u < kBlock; ++u) {
    double scale = std::sqrt((u == 0 ? 1.0 : 2.0) / kBlock);
    for (int x = 0; x < kBlock; ++x) {
      basis[u * kBlock + x] = static_cast<float>(scale * std::cos((2 * x + 1) * u * kPi / 16));
    }
  }

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("dct8x8"), "dct8x8.ptx");
  gpu.memcpyHtoD(mod.symbolAddress("c_basis"), basis.data(), basis.size() * sizeof(float));
  uint64_t dImage = gpu.upload(image), dCoeffs = gpu.malloc(pixels * sizeof(float));
  uint64_t dBack = gpu.malloc(pixels * sizeof(float));
  const Variant& variant =
      variantFor(ctx.threadsPerBlock == 0 ? kTileWidth * kBlock : ctx.threadsPerBlock);
  const uint32_t tileWidth = variant.threads / kBlock;
  runtime::Kernel forwardKernel = mod.kernel(std::string("dct8x8_forward") + variant.suffix);
  runtime::Kernel inverseKernel = mod.kernel(std::string("dct8x8_inverse") + variant.suffix);
  const func::Dim3 grid{ceilDiv(n, tileWidth), static_cast<uint32_t>(n / kBlock)};
  const func::Dim3 block{tileWidth, kBlock};
  launch(ctx, forwardKernel, grid, block, padding(forwardKernel, ctx.sharedBytesPerBlock), dImage,
         dCoeffs, n);
  launch(ctx, inverseKernel, grid, block, padding(inverseKernel, ctx.sharedBytesPerBlock), dCoeffs,
         dBack, n);
  std::vector<float> coeffs = gpu.download<float>(dCoeffs, pixels);
  std::vector<float> back = gpu.download<float>(dBack, pixels);

  // Tolerances (u = 2^-24), twice the first-order bounds that pass() carries:
  //  * forward: the level shift p - 128 is exact (integers), the row pass adds 8 u of its sum
  //    of |products|, the column pass passes that on through |C| and adds its own 8 u;
  //  * inverse, checked on the coefficients the GPU produced (so that a wrong inverse is not
  //    blamed on the forward transform): the same two passes, then the + 128 rounds once.
  Field shifted{std::vector<double>(pixels), std::vector<double>(pixels, 0.0)};
  for (size_t i = 0; i < pixels; ++i) shifted.value[i] = image[i] - 128.0;
  Field forward = pass(pass(shifted, basis, n, true, false), basis, n, false, false);
  Field gpuCoeffs{std::vector<double>(coeffs.begin(), coeffs.end()),
                  std::vector<double>(pixels, 0.0)};
  Field inverse = pass(pass(gpuCoeffs, basis, n, true, true), basis, n, false, true);
  for (size_t i = 0; i < pixels; ++i) {
    forward.bound[i] *= 2;
    inverse.value[i] += 128.0;
    inverse.bound[i] = 2 * (inverse.bound[i] + kFloatUnit * std::fabs(inverse.value[i]));
  }
  double worstForward = 0, worstInverse = 0;
  std::string bad =
      boundedMismatch("coefficient", coeffs, forward.value, forward.bound, &worstForward);
  if (bad.empty()) {
    bad = boundedMismatch("inverse", back, inverse.value, inverse.bound, &worstInverse);
  }
  if (!bad.empty()) return fail(bad);

  // The round trip: its distance from the image is the two transforms' errors (bounded above,
  // thousandths of a grey level at most) plus the effect of rounding the basis to float (each
  // entry within u of the orthonormal one, so C^T C is within about 16 u of the identity per
  // entry: below 1e-3 grey levels for pixels up to 128 away from the shift). Both are far below
  // half a grey level, so rounding the reconstruction must give back every 8-bit pixel.
  std::vector<float> rounded(pixels);
  double worstRoundTrip = 0;
  for (size_t i = 0; i < pixels; ++i) {
    rounded[i] = std::round(back[i]);
    worstRoundTrip = std::max(worstRoundTrip, std::fabs(static_cast<double>(back[i]) - image[i]));
  }
  bad = exactMismatch("rounded round trip", rounded, image);
  if (!bad.empty()) return fail(bad);
  return {true,
          fmt::format("{0} x {0} image, {1} blocks; worst error {2:.2g} (forward), "
                      "{3:.2g} (inverse) of the bound; round trip within {4:.2g} grey levels",
                      n, pixels / (kBlock * kBlock), worstForward, worstInverse, worstRoundTrip)};
}

}  // namespace dct8x8

Workload dct8x8Workload() {
  return {"dct8x8",
          "dense",
          "forward and inverse 2-D DCT of 8x8 image blocks, row and column passes in shared memory",
          "image edge (multiple of 8)",
          192,
          1024,
          2048,
          8192,
          dct8x8::run,
          {dct8x8::variantThreads(), dct8x8::kSharedTotals,
           "threads: 8-row tiles of threads/8 pixels (threads/64 DCT blocks per CTA), kernels "
           "compiled per tile width, 256 + 8 B of shared tiles per thread; shared: the CTA's "
           "total, unused dynamic shared memory on top of the tiles"}};
}

}  // namespace warpsim::workloads
