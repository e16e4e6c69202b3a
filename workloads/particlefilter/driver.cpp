// particlefilter: a particle filter tracking a bright disk through noisy synthetic video frames
// (see particlefilter.cu), four kernels per frame. Resampling is discrete, so the check follows
// the GPU frame by frame: each frame's reference starts from the particles the GPU resampled in
// the frame before, and every resampling choice and estimate is checked against it within a
// bound (see the tolerance comment in run()).
#include <algorithm>
#include <cmath>

#include "check.h"
#include "locality_hints.h"
#include "workload.h"

namespace warpsim::workloads {

namespace particlefilter {

constexpr uint32_t kThreads = 256;  // a particle per thread; pf_sum and pf_find_index handle
constexpr uint32_t kMaxBlocks = 256;  // at most kThreads blocks (so at most 65536 particles)
constexpr int kWidth = 128, kHeight = 128, kFrames = 10;  // Rodinia's default video
constexpr int kRadius = 5;  // the object's and the template's radius, in pixels
constexpr int kTemplatePixels = 81;  // pixels with dx^2 + dy^2 <= 25
constexpr int kBackground = 100, kObject = 228;  // the likelihood model's two intensities
constexpr double kPixelNoise = 10;  // the frames' Gaussian noise (standard deviation)
// The object moves at a constant velocity from (kStartX, kStartY); the motion model's drift is
// that velocity and its noise kModelNoise pixels per coordinate and frame.
constexpr double kStartX = 30, kStartY = 40, kVelocityX = 4.5, kVelocityY = 3.25;
constexpr double kModelNoise = 2;
// The likelihood's noise variance, 2 sigma^2 = 400: broader than the frames' noise (a
// tempered likelihood) so that the log-likelihood ratio stays within +-41 and the weights within
// float range.
constexpr double kTwoSigma2 = 400;
// The estimate must stay within this many pixels of the object's true centre.
constexpr double kTrackBound = 2.0;

double gaussian(InputGenerator& gen) {  // Box-Muller, one normal per call
  const double u1 = uniformReal(gen, 0, 1), u2 = uniformReal(gen, 0, 1);
  return std::sqrt(-2 * std::log(1 - u1)) * std::cos(2 * M_PI * u2);
}

double trueX(int f) { return kStartX + kVelocityX * f; }
double trueY(int f) { return kStartY + kVelocityY * f; }

// Frames of a grey background with a bright disk at the object's (rounded) position, plus
// Gaussian pixel noise, clamped to bytes.
std::vector<uint8_t> makeVideo(InputGenerator& gen) {
  std::vector<uint8_t> video(static_cast<size_t>(kFrames) * kWidth * kHeight);
  for (int f = 0; f < kFrames; ++f) {
    const int ox = static_cast<int>(std::lround(trueX(f))), oy = static_cast<int>(std::lround(trueY(f)));
    for (int r = 0; r < kHeight; ++r) {
      for (int c = 0; c < kWidth; ++c) {
        const bool inside = (c - ox) * (c - ox) + (r - oy) * (r - oy) <= kRadius * kRadius;
        const double v = (inside ? kObject : kBackground) + kPixelNoise * gaussian(gen);
        video[(static_cast<size_t>(f) * kHeight + r) * kWidth + c] =
            static_cast<uint8_t>(std::clamp(std::lround(v), 0L, 255L));
      }
    }
  }
  return video;
}

Outcome run(WorkloadContext& ctx) {
  const int n = static_cast<int>(ctx.size);
  if (n < 1 || n > static_cast<int>(kThreads * kMaxBlocks)) return fail("particles: 1 to 65536");
  const uint32_t blocks = ceilDiv(n, kThreads);
  InputGenerator gen(ctx.seed);
  const std::vector<uint8_t> video = makeVideo(gen);
  // The motion model's noise for every frame after the first (the host draws it, as the filter's
  // randomness; the kernels only add it), and the resampling offsets u1 in [0, 1/n).
  const int rounds = kFrames - 1;
  std::vector<float> noiseX(static_cast<size_t>(rounds) * n), noiseY(noiseX.size());
  for (size_t k = 0; k < noiseX.size(); ++k) {
    noiseX[k] = static_cast<float>(kModelNoise * gaussian(gen));
    noiseY[k] = static_cast<float>(kModelNoise * gaussian(gen));
  }
  std::vector<float> u1(rounds);
  for (float& u : u1) u = std::min(static_cast<float>(uniformReal(gen, 0, 1)) / n, std::nextafter(1.0f / n, 0.0f));
  const float driftX = static_cast<float>(kVelocityX), driftY = static_cast<float>(kVelocityY);
  const float scale = static_cast<float>(1 / (kTwoSigma2 * kTemplatePixels));
  const float initialWeight = 1.0f / static_cast<float>(n);

  // Every particle starts at the object's position in the first frame.
  std::vector<float> xs(n, static_cast<float>(trueX(0))), ys(n, static_cast<float>(trueY(0)));

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("particlefilter"), "particlefilter.ptx");
  runtime::Kernel likelihood = mod.kernel("pf_likelihood"), sum = mod.kernel("pf_sum");
  runtime::Kernel normalise = mod.kernel("pf_normalise"), find = mod.kernel("pf_find_index");
  const uint64_t dVideo = gpu.upload(video), dNoiseX = gpu.upload(noiseX), dNoiseY = gpu.upload(noiseY);
  uint64_t dX = gpu.upload(xs), dY = gpu.upload(ys);
  uint64_t dNewX = gpu.malloc(n * sizeof(float)), dNewY = gpu.malloc(n * sizeof(float));
  const uint64_t dWeights = gpu.upload(std::vector<float>(n, initialWeight));
  const uint64_t dPartial = gpu.malloc(blocks * sizeof(float)), dTotal = gpu.malloc(sizeof(float));
  const uint64_t dCdf = gpu.malloc(n * sizeof(float)), dBlockTotals = gpu.malloc(blocks * sizeof(float));
  const uint64_t dEstX = gpu.malloc(blocks * sizeof(float)), dEstY = gpu.malloc(blocks * sizeof(float));

  // Tolerance of the resampling (u = 2^-24), first order. A weight is w expf(L) with L exactly
  // the kernel's (the integer sum and one float product, repeated here in float): expf is within
  // 2 ulp (CUDA's documented bound), 4 u relative, and the product rounds once: 5 u. The total
  // is two shared trees of 8 levels over positive terms: 16 u. A normalised weight is then
  // within 22 u (the division adds u). Its CDF value is an in-block scan (8 levels: 8 u of the
  // value), a serial prefix over at most `blocks` block totals (blocks u) and one more addition:
  // |cdf - exact| <= (31 + blocks) u, as the CDF is at most 1; doubled for slack, this is `tol`.
  // Particle j then must copy one of the particles whose exact CDF crosses u_j - tol .. u_j +
  // tol (the first with cdf >= u_j - tol up to the first with cdf >= u_j + tol): exactly one
  // particle away from the rare u_j within tol of a CDF step. The estimate sum(w x) is within
  // (22 + 1 + 8) u of sum(w |x|) (the weight, the product, the CTA's tree; the host adds the
  // CTAs' sums in double), doubled.
  const double tol = 2 * (31.0 + blocks) * kFloatUnit;
  int ambiguous = 0;
  double worstTrack = 0, worstEstimate = 0;
  for (int r = 0; r < rounds; ++r) {
    const int frame = r + 1;
    const uint64_t frameBase = dVideo + static_cast<uint64_t>(frame) * kWidth * kHeight;
    const uint64_t nx = dNoiseX + static_cast<uint64_t>(r) * n * sizeof(float);
    const uint64_t ny = dNoiseY + static_cast<uint64_t>(r) * n * sizeof(float);
    // Locality descriptors (the thesis's Table 4 gives particlefilter NO_REUSE), for this
    // frame's launches (the noise slice and the position buffers move): every per-particle
    // array is touched once per kernel, a thread its own element, so each CTA's D-Tile is its
    // kThreads particles (C-Tile: the CTA) and the arrays are streamed (bypassing the L1 loses
    // nothing). pf_likelihood: the positions (read, then rewritten in place), the weights and
    // the frame's noise; pf_normalise: the weights (rewritten) and the CDF (written once);
    // pf_find_index: the resampled positions and reset weights (written once). Not described:
    // the frame (the particles crowd around the object, so their disks overlap: reuse between
    // threads that bypassing would lose), and in pf_find_index the CDF and old positions (a
    // binary search: its first probes are the same few elements for every thread) and the
    // small per-CTA arrays.
    const uint32_t tile = std::min<uint32_t>(kThreads, n);  // a CTA's particles (all, when fewer)
    const Tiling strip{{tile, 1, 1}, {1, 1, 1}, {1, 0, 0}};
    const warpsimDim3 dims{uint32_t(n), 1, 1};
    setLocalityDescriptors(ctx, "pf_likelihood",
                           {noReuse({dX, dims, 4}, strip), noReuse({dY, dims, 4}, strip),
                            noReuse({dWeights, dims, 4}, strip), noReuse({nx, dims, 4}, strip),
                            noReuse({ny, dims, 4}, strip)});
    setLocalityDescriptors(ctx, "pf_normalise",
                           {noReuse({dWeights, dims, 4}, strip), noReuse({dCdf, dims, 4}, strip)});
    setLocalityDescriptors(ctx, "pf_find_index",
                           {noReuse({dNewX, dims, 4}, strip), noReuse({dNewY, dims, 4}, strip),
                            noReuse({dWeights, dims, 4}, strip)});
    launch(ctx, likelihood, {blocks}, {kThreads}, 0, n, kWidth, kHeight, frameBase, nx, ny, driftX,
           driftY, scale, dX, dY, dWeights, dPartial);
    launch(ctx, sum, {1}, {kThreads}, 0, static_cast<int>(blocks), dPartial, dTotal);
    launch(ctx, normalise, {blocks}, {kThreads}, 0, n, dTotal, dX, dY, dWeights, dCdf, dBlockTotals,
           dEstX, dEstY);
    launch(ctx, find, {blocks}, {kThreads}, 0, n, static_cast<int>(blocks), u1[r], dCdf, dBlockTotals,
           dX, dY, dNewX, dNewY, dWeights);
    const std::vector<float> newX = gpu.download<float>(dNewX, n), newY = gpu.download<float>(dNewY, n);
    const std::vector<float> estX = gpu.download<float>(dEstX, blocks), estY = gpu.download<float>(dEstY, blocks);

    // The reference of this frame, from the particles the GPU resampled in the frame before.
    const uint8_t* img = &video[static_cast<size_t>(frame) * kWidth * kHeight];
    std::vector<float> xm(n), ym(n);
    std::vector<double> w(n);
    double total = 0;
    for (int i = 0; i < n; ++i) {
      xm[i] = (xs[i] + driftX) + noiseX[static_cast<size_t>(r) * n + i];
      ym[i] = (ys[i] + driftY) + noiseY[static_cast<size_t>(r) * n + i];
      const int cx = static_cast<int>(std::nearbyint(xm[i])), cy = static_cast<int>(std::nearbyint(ym[i]));
      int s = 0;
      for (int dy = -kRadius; dy <= kRadius; ++dy) {
        const int row = std::clamp(cy + dy, 0, kHeight - 1);
        for (int dx = -kRadius; dx <= kRadius; ++dx) {
          if (dx * dx + dy * dy > kRadius * kRadius) continue;
          const int v = img[row * kWidth + std::clamp(cx + dx, 0, kWidth - 1)];
          s += (v - kBackground) * (v - kBackground) - (v - kObject) * (v - kObject);
        }
      }
      const float l = static_cast<float>(s) * scale;
      w[i] = static_cast<double>(initialWeight) * std::exp(static_cast<double>(l));
      total += w[i];
    }
    std::vector<double> cdf(n);
    double run = 0, ex = 0, ey = 0, magX = 0, magY = 0;
    for (int i = 0; i < n; ++i) {
      w[i] /= total;
      run += w[i];
      cdf[i] = run;
      ex += w[i] * xm[i];
      ey += w[i] * ym[i];
      magX += w[i] * std::fabs(xm[i]);
      magY += w[i] * std::fabs(ym[i]);
    }
    for (int j = 0; j < n; ++j) {
      const float uj = u1[r] + static_cast<float>(j) / static_cast<float>(n);
      const int lo = std::min<int>(std::lower_bound(cdf.begin(), cdf.end(), uj - tol) - cdf.begin(), n - 1);
      const int hi = std::min<int>(std::lower_bound(cdf.begin(), cdf.end(), uj + tol) - cdf.begin(), n - 1);
      bool found = false;
      for (int i = lo; i <= hi && !found; ++i) found = newX[j] == xm[i] && newY[j] == ym[i];
      if (!found) {
        return fail(fmt::format("frame {}: particle {} resampled to ({}, {}), expected particle {} "
                                "({}, {}) (u = {})", frame, j, newX[j], newY[j], lo, xm[lo], ym[lo], uj));
      }
      if (hi > lo) ++ambiguous;
    }
    double gotX = 0, gotY = 0;
    for (uint32_t b = 0; b < blocks; ++b) {
      gotX += estX[b];
      gotY += estY[b];
    }
    const double boundX = 2 * 31 * kFloatUnit * magX, boundY = 2 * 31 * kFloatUnit * magY;
    if (!(std::fabs(gotX - ex) <= boundX) || !(std::fabs(gotY - ey) <= boundY)) {
      return fail(fmt::format("frame {}: estimate ({}, {}) expected ({}, {})", frame, gotX, gotY, ex, ey));
    }
    worstEstimate = std::max({worstEstimate, std::fabs(gotX - ex) / boundX, std::fabs(gotY - ey) / boundY});
    const double track = std::hypot(gotX - trueX(frame), gotY - trueY(frame));
    if (!(track <= kTrackBound)) {
      return fail(fmt::format("frame {}: estimate ({:.2f}, {:.2f}) is {:.2f} px from the object at "
                              "({:.2f}, {:.2f}) (bound {})", frame, gotX, gotY, track, trueX(frame),
                              trueY(frame), kTrackBound));
    }
    worstTrack = std::max(worstTrack, track);
    xs = newX;
    ys = newY;
    std::swap(dX, dNewX);
    std::swap(dY, dNewY);
  }
  return {true, fmt::format("{} particles over {} frames, {} resampling choices within the "
                            "tolerance of a CDF step, estimates within {:.2g} of their bound, "
                            "track within {:.2f} px", n, kFrames, ambiguous, worstEstimate, worstTrack)};
}

}  // namespace particlefilter

Workload particlefilterWorkload() {
  return {"particlefilter",
          "science",
          "particle filter tracking a disk in noisy video frames: motion, template likelihood, "
          "normalisation, systematic resampling, a thread per particle",
          "particles (10 frames of 128 x 128)",
          1024,
          8192,
          65536,
          65536,
          particlefilter::run};
}

}  // namespace warpsim::workloads
