// jpeg-decode: the dequantisation, fixed-point inverse DCT, level shift and clamp of a baseline
// JPEG decoder, a CTA per four 8x8 blocks (see jpeg-decode.cu), on the quantised coefficients of
// a photograph-like image encoded on the host at quality 75.
#include <algorithm>
#include <cmath>

#include "check.h"
#include "workload.h"

namespace warpsim::workloads {

namespace jpeg_decode {

constexpr uint32_t kThreads = 256;  // BLOCKS_PER_CTA blocks of 64
constexpr int kBlocksPerCta = 4;
constexpr int kQuality = 75;
constexpr double kPi = 3.14159265358979323846;

// The example luminance quantisation table of the JPEG standard (ITU-T T.81, Annex K, table
// K.1), natural order.
// clang-format off
constexpr int kLuminanceTable[64] = {
    16, 11, 10, 16,  24,  40,  51,  61,
    12, 12, 14, 19,  26,  58,  60,  55,
    14, 13, 16, 24,  40,  57,  69,  56,
    14, 17, 22, 29,  51,  87,  80,  62,
    18, 22, 37, 56,  68, 109, 103,  77,
    24, 35, 55, 64,  81, 104, 113,  92,
    49, 64, 78, 87, 103, 121, 120, 101,
    72, 92, 95, 98, 112, 100, 103,  99};
// clang-format on

// zigzag[k]: the natural position (row * 8 + column) of the k-th coefficient in zigzag order,
// by walking the anti-diagonals in alternating directions.
std::vector<int> zigzagOrder() {
  std::vector<int> order;
  for (int d = 0; d < 15; ++d) {
    for (int i = 0; i <= d; ++i) {
      int row = d % 2 == 0 ? d - i : i, col = d - row;  // even diagonals go up and right
      if (row < 8 && col < 8) order.push_back(row * 8 + col);
    }
  }
  return order;
}

// A photograph-like 8-bit grey image: a sky brightening towards the top with soft clouds, a
// horizon at 40% of the height, buildings standing on it (flat walls with a shading gradient and
// rows of dark windows), round tree crowns with a leafy texture, a textured ground darkening
// towards the bottom, and sensor noise of about two grey levels.
std::vector<int> makePhoto(InputGenerator& gen, int w, int h) {
  std::vector<double> img(static_cast<size_t>(w) * h);
  const int horizon = h * 2 / 5;
  const double cloudPhase = uniformReal(gen, 0.0, 2 * kPi);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      double fx = static_cast<double>(x) / w, fy = static_cast<double>(y) / h;
      double v;
      if (y < horizon) {
        double clouds = std::sin(2 * kPi * (2.1 * fx + 0.7 * fy) + cloudPhase) *
                        std::sin(2 * kPi * (1.3 * fx - 2.9 * fy));
        v = 215 - 60 * fy + 18 * std::max(0.0, clouds);
      } else {
        double grass = 6 * std::sin(2 * kPi * x / 5.3) * std::sin(2 * kPi * y / 3.7);
        v = 110 - 50 * (fy - 0.4) + grass;
      }
      img[static_cast<size_t>(y) * w + x] = v;
    }
  }
  const int buildings = std::max(3, w / 48);
  for (int b = 0; b < buildings; ++b) {
    int bw = static_cast<int>(gen.uniform(w / 16, w / 6)),
        bh = static_cast<int>(gen.uniform(h / 10, h / 3));
    int x0 = static_cast<int>(gen.uniform(0, w - bw)), y0 = std::max(0, horizon + 4 - bh);
    double wall = uniformReal(gen, 60, 190), slope = uniformReal(gen, -30, 30);
    int pitch = static_cast<int>(gen.uniform(6, 12));
    for (int y = y0; y < horizon + 4 && y < h; ++y) {
      for (int x = x0; x < x0 + bw; ++x) {
        bool window = (x - x0) % pitch >= 2 && (x - x0) % pitch < pitch - 2 &&
                      (y - y0) % pitch >= 2 && (y - y0) % pitch < pitch - 3;
        img[static_cast<size_t>(y) * w + x] = window ? 35 : wall + slope * (x - x0) / bw;
      }
    }
  }
  const int trees = std::max(4, w / 32);
  for (int t = 0; t < trees; ++t) {
    double cx = uniformReal(gen, 0, w), r = uniformReal(gen, h / 40.0, h / 14.0);
    double cy = horizon + uniformReal(gen, -r, 2 * r), tone = uniformReal(gen, 50, 90);
    for (int y = std::max(0, static_cast<int>(cy - r));
         y < std::min(h, static_cast<int>(cy + r) + 1); ++y) {
      for (int x = std::max(0, static_cast<int>(cx - r));
           x < std::min(w, static_cast<int>(cx + r) + 1); ++x) {
        double dx = x - cx, dy = y - cy;
        if (dx * dx + dy * dy > r * r) continue;
        img[static_cast<size_t>(y) * w + x] = tone - 20 * dy / r + uniformReal(gen, -14, 14);
      }
    }
  }
  std::vector<int> out(img.size());
  for (size_t i = 0; i < img.size(); ++i) {
    double noise = uniformReal(gen, -2, 2) + uniformReal(gen, -2, 2);
    out[i] = static_cast<int>(std::clamp(std::round(img[i] + noise), 0.0, 255.0));
  }
  return out;
}

Outcome run(WorkloadContext& ctx) {
  const int n = static_cast<int>(ctx.size);
  if (n < 8 || n % 8 != 0) {
    throw runtime::Error(
        fmt::format("jpeg-decode: the image edge must be a positive multiple of 8, not {}", n));
  }
  const int across = n / 8, blocks = across * across;
  InputGenerator gen(ctx.seed);
  const std::vector<int> photo = makePhoto(gen, n, n);
  const std::vector<int> zigzag = zigzagOrder();

  // Quality 75 scaling of the table (the usual convention: percentage 200 - 2 * quality, rounded,
  // limited to 1..255), then stored in zigzag order as in a DQT segment.
  std::vector<int> quant(64);
  for (int k = 0; k < 64; ++k) {
    quant[k] = std::clamp((kLuminanceTable[zigzag[k]] * (200 - 2 * kQuality) + 50) / 100, 1, 255);
  }
  double basis[8][8];
  std::vector<int> fixedBasis(64);
  for (int u = 0; u < 8; ++u) {
    for (int x = 0; x < 8; ++x) {
      basis[u][x] = (u == 0 ? std::sqrt(0.125) : 0.5) * std::cos((2 * x + 1) * u * kPi / 16);
      fixedBasis[u * 8 + x] = static_cast<int>(std::lround(basis[u][x] * 8192));
    }
  }
  // The encoder: level shift, forward DCT in double, quantisation (rounding to nearest).
  std::vector<int16_t> coeffs(static_cast<size_t>(blocks) * 64);
  for (int b = 0; b < blocks; ++b) {
    const int bx = b % across, by = b / across;
    for (int k = 0; k < 64; ++k) {
      const int v = zigzag[k] / 8, u = zigzag[k] % 8;
      double f = 0;
      for (int y = 0; y < 8; ++y) {
        for (int x = 0; x < 8; ++x) {
          f += basis[v][y] * basis[u][x] *
               (photo[static_cast<size_t>(by * 8 + y) * n + bx * 8 + x] - 128);
        }
      }
      coeffs[static_cast<size_t>(b) * 64 + k] = static_cast<int16_t>(std::lround(f / quant[k]));
    }
  }

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("jpeg-decode"), "jpeg-decode.ptx");
  uint64_t dCoeffs = gpu.upload(coeffs), dQuant = gpu.upload(quant), dZigzag = gpu.upload(zigzag);
  uint64_t dBasis = gpu.upload(fixedBasis), dImage = gpu.malloc(static_cast<size_t>(n) * n);
  launch(ctx, mod.kernel("jpeg_idct"), {ceilDiv(blocks, kBlocksPerCta)}, {kThreads}, 0, dCoeffs,
         dQuant, dZigzag, dBasis, across, blocks, dImage);
  const std::vector<uint8_t> image = gpu.download<uint8_t>(dImage, static_cast<size_t>(n) * n);

  // Two checks. (1) Exact: the CPU repeats the kernel's integer arithmetic. (2) Accuracy of that
  // arithmetic against the ideal inverse DCT (double) of the same dequantised coefficients F.
  // With basis entries within 1/2 of C * 2^13, the row results R (3 fraction bits) are within
  // sum_u |F[v][u]| / 2^14 + 1/16 (of a pixel unit) of 8 times the exact row transform, and the
  // column pass adds sum_v |R[v][x]| / 2^17 and its final rounding (1/2). So a pixel is within
  // sum_v |C[v][y]| (sum_u |F[v][u]| / 2^14 + 1/16) + sum_v |R[v][x]| / 2^17 + 1/2 of the ideal
  // one; clamping both to 0..255 does not increase the distance.
  std::vector<uint8_t> expect(image.size());
  double worstRatio = 0, sqError = 0;
  int zeros = 0;
  for (int16_t c : coeffs) zeros += c == 0;
  for (int b = 0; b < blocks; ++b) {
    const int bx = b % across, by = b / across;
    int64_t f[64];
    for (int k = 0; k < 64; ++k)
      f[zigzag[k]] = int64_t{coeffs[static_cast<size_t>(b) * 64 + k]} * quant[k];
    int64_t rows[64];
    for (int y = 0; y < 8; ++y) {
      for (int x = 0; x < 8; ++x) {
        int64_t sum = 0;
        for (int u = 0; u < 8; ++u) sum += fixedBasis[u * 8 + x] * f[y * 8 + u];
        rows[y * 8 + x] = (sum + 512) >> 10;
      }
    }
    for (int y = 0; y < 8; ++y) {
      for (int x = 0; x < 8; ++x) {
        int64_t sum = 0;
        double ideal = 128, bound = 0.5;
        for (int v = 0; v < 8; ++v) {
          sum += fixedBasis[v * 8 + y] * rows[v * 8 + x];
          double rowMagnitude = 0;
          for (int u = 0; u < 8; ++u) {
            ideal += basis[v][y] * basis[u][x] * static_cast<double>(f[v * 8 + u]);
            rowMagnitude += std::fabs(static_cast<double>(f[v * 8 + u]));
          }
          bound += std::fabs(basis[v][y]) * (rowMagnitude / 16384 + 1.0 / 16) +
                   std::fabs(static_cast<double>(rows[v * 8 + x])) / 131072;
        }
        const size_t at = static_cast<size_t>(by * 8 + y) * n + bx * 8 + x;
        expect[at] = static_cast<uint8_t>(std::clamp<int64_t>(((sum + 32768) >> 16) + 128, 0, 255));
        const double error = std::fabs(expect[at] - std::clamp(ideal, 0.0, 255.0));
        if (!(error <= bound)) {
          return fail(
              fmt::format("reference: pixel ({}, {}) = {} is {:.3g} from the ideal {:.3f}, "
                          "more than the fixed-point bound {:.3g}",
                          bx * 8 + x, by * 8 + y, expect[at], error, ideal, bound));
        }
        worstRatio = std::max(worstRatio, error / bound);
        sqError += std::pow(expect[at] - photo[at], 2);
      }
    }
  }
  std::string bad = exactMismatch("pixel", image, expect);
  if (!bad.empty()) return fail(bad);
  const double psnr = 10 * std::log10(255.0 * 255.0 / (sqError / image.size()));
  return {true,
          fmt::format("{0} x {0} image, {1} blocks, {2:.0f}% of the coefficients zero; exact, "
                      "within {3:.2g} of the fixed-point bound from the ideal inverse DCT; "
                      "PSNR {4:.1f} dB against the original",
                      n, blocks, 100.0 * zeros / coeffs.size(), worstRatio, psnr)};
}

}  // namespace jpeg_decode

Workload jpegDecodeWorkload() {
  return {"jpeg-decode",
          "dense",
          "JPEG decode after entropy decoding: dequantise, fixed-point 8x8 IDCT, clamp to bytes",
          "image edge (multiple of 8)",
          192,
          768,
          2048,
          8192,
          jpeg_decode::run};
}

}  // namespace warpsim::workloads
