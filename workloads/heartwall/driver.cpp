// heartwall: points of a beating heart's inner and outer walls tracked through synthetic
// ultrasound frames by template matching (NCC over a search window), one CTA per point, one
// launch per frame; positions and scores checked exactly, frame by frame.
#include <algorithm>
#include <cmath>
#include <numbers>

#include "check.h"
#include "workload.h"

namespace warpsim::workloads {

namespace heartwall {

// heartwall.cu's geometry.
constexpr int kTs = 9, kHalf = 4, kWindowCols = 32, kWindowRows = 8, kThreads = 64;
constexpr int kMarginY = kWindowRows / 2 + kHalf, kMarginX = kWindowCols / 2 + kHalf;
// The frames and the tracked points: 12 on the inner wall, 20 on the outer wall.
constexpr int kWidth = 128, kHeight = 128, kInnerPoints = 12, kOuterPoints = 20;
constexpr int kPoints = kInnerPoints + kOuterPoints;
constexpr double kTwoPi = 2 * std::numbers::pi;

// ---- Synthetic ultrasound frames -------------------------------------------------------------

// The heart at frame f: a ring (the wall) between two radii around a slowly drifting centre.
// It beats with a period of 12 frames: the inner radius moves by 3 pixels and the wall thickens
// as it contracts. Between two frames no wall point moves by more than about 2 pixels, within
// the search window (dy in [-4, 3], dx in [-16, 15]).
struct Heart {
  double cx, cy, inner, outer;
};

Heart heartAt(int f) {
  double beat = std::sin(kTwoPi * f / 12.0);
  double inner = 26.0 + 3.0 * beat;
  return {64.0 + 1.5 * std::sin(kTwoPi * f / 30.0), 64.0 + std::cos(kTwoPi * f / 25.0), inner,
          inner + 13.0 - 2.0 * beat};
}

// Frame f: blood and surroundings dark (35), the wall bright (160), with soft edges; times a
// speckle texture that moves with the tissue (a random lattice in polar coordinates relative
// to the wall, interpolated bilinearly), plus independent noise; rounded to 8-bit intensities.
std::vector<float> makeFrame(int f, const std::vector<double>& texture, int texAngles,
                             int texRadii, InputGenerator& gen) {
  const Heart h = heartAt(f);
  const double thickness = h.outer - h.inner;
  auto logistic = [](double x) { return 1.0 / (1.0 + std::exp(-x)); };
  auto tex = [&](int a, int r) {
    return texture[static_cast<size_t>((a % texAngles + texAngles) % texAngles) * texRadii +
                   std::clamp(r, 0, texRadii - 1)];
  };
  std::vector<float> frame(static_cast<size_t>(kWidth) * kHeight);
  for (int y = 0; y < kHeight; ++y) {
    for (int x = 0; x < kWidth; ++x) {
      double dx = x - h.cx, dy = y - h.cy, r = std::hypot(dx, dy);
      double wall = logistic((r - h.inner) / 0.8) * logistic((h.outer - r) / 0.8);
      double base = 35.0 + 125.0 * wall;
      double u = (std::atan2(dy, dx) / kTwoPi + 0.5) * texAngles;
      double v = texRadii / 2.0 + (r - h.inner) / thickness * (texRadii / 4.0);
      int a = static_cast<int>(std::floor(u)), b = static_cast<int>(std::floor(v));
      double fu = u - a, fv = v - b;
      double speckle = (1 - fu) * ((1 - fv) * tex(a, b) + fv * tex(a, b + 1)) +
                       fu * ((1 - fv) * tex(a + 1, b) + fv * tex(a + 1, b + 1));
      double value = base * (0.5 + speckle) + uniformReal(gen, -6.0, 6.0);
      frame[static_cast<size_t>(y) * kWidth + x] =
          static_cast<float>(std::clamp(std::round(value), 0.0, 255.0));
    }
  }
  return frame;
}

// Initial positions (y, x): evenly spaced around each wall of the first frame.
std::vector<int> initialPositions() {
  const Heart h = heartAt(0);
  std::vector<int> pos;
  for (int k = 0; k < kPoints; ++k) {
    bool inner = k < kInnerPoints;
    double angle = inner ? kTwoPi * k / kInnerPoints : kTwoPi * (k - kInnerPoints) / kOuterPoints;
    double r = inner ? h.inner : h.outer;
    pos.push_back(static_cast<int>(std::lround(h.cy + r * std::sin(angle))));
    pos.push_back(static_cast<int>(std::lround(h.cx + r * std::cos(angle))));
  }
  return pos;
}

// ---- The CPU reference -----------------------------------------------------------------------

// Exact: the template, window and cross sums are sums of integers below 2^24 (at most
// 81 * 255^2), which float adds exactly in any order, so the GPU's sums equal these 64-bit
// ones; the NCC is then the same 64-bit integer expressions and the same correctly rounded
// float operations (int64 -> float conversion, product, square root, division) on both sides,
// so the scores agree bit for bit and so does their arg-max, ties going to the lowest candidate
// index (row-major over the window) on both sides.
float ncc(int64_t varT, int64_t num, int64_t varI) {
  float denom = static_cast<float>(varT) * static_cast<float>(varI);
  return denom > 0.0f ? static_cast<float>(num) / std::sqrt(denom) : -2.0f;
}

// One frame of tracking for every point: moves `pos` and writes the best scores.
void trackFrame(const std::vector<float>& frame, const std::vector<float>& templates,
                std::vector<int>& pos, std::vector<float>& scores) {
  const int64_t n = kTs * kTs;
  for (int p = 0; p < kPoints; ++p) {
    const float* t = &templates[static_cast<size_t>(p) * n];
    int64_t sT = 0, sTT = 0;
    for (int e = 0; e < n; ++e) {
      int64_t v = static_cast<int64_t>(t[e]);
      sT += v;
      sTT += v * v;
    }
    const int64_t varT = n * sTT - sT * sT;
    const int py = pos[2 * p], px = pos[2 * p + 1];
    const int top = py - kMarginY, left = px - kMarginX;
    float best = -3.0f;
    int bestAt = 0;
    for (int row = 0; row < kWindowRows; ++row) {
      for (int col = 0; col < kWindowCols; ++col) {
        int64_t sI = 0, sII = 0, sTI = 0;
        for (int i = 0; i < kTs; ++i) {
          const float* a = &frame[static_cast<size_t>(top + row + i) * kWidth + left + col];
          for (int j = 0; j < kTs; ++j) {
            int64_t v = static_cast<int64_t>(a[j]);
            sI += v;
            sII += v * v;
            sTI += static_cast<int64_t>(t[i * kTs + j]) * v;
          }
        }
        float score = ncc(varT, n * sTI - sT * sI, n * sII - sI * sI);
        if (score > best) {
          best = score;
          bestAt = row * kWindowCols + col;
        }
      }
    }
    int dy = bestAt / kWindowCols - kWindowRows / 2, dx = bestAt % kWindowCols - kWindowCols / 2;
    pos[2 * p] = std::clamp(py + dy, kMarginY, kHeight - kMarginY);
    pos[2 * p + 1] = std::clamp(px + dx, kMarginX, kWidth - kMarginX);
    scores[p] = best;
  }
}

Outcome run(WorkloadContext& ctx) {
  const int frames = static_cast<int>(ctx.size);
  if (frames < 2) {
    throw runtime::Error(fmt::format("heartwall: at least 2 frames are needed, not {}", frames));
  }
  InputGenerator gen(ctx.seed);
  constexpr int kTexAngles = 256, kTexRadii = 64;
  std::vector<double> texture(static_cast<size_t>(kTexAngles) * kTexRadii);
  for (double& v : texture) v = uniformReal(gen, 0.0, 1.0);
  const size_t pixels = static_cast<size_t>(kWidth) * kHeight;
  std::vector<float> video;
  for (int f = 0; f < frames; ++f) {
    std::vector<float> frame = makeFrame(f, texture, kTexAngles, kTexRadii, gen);
    video.insert(video.end(), frame.begin(), frame.end());
  }
  std::vector<int> pos = initialPositions();

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("heartwall"), "heartwall.ptx");
  runtime::Kernel extract = mod.kernel("heartwall_templates");
  runtime::Kernel track = mod.kernel("heartwall_track");
  uint64_t dVideo = gpu.upload(video), dPos = gpu.upload(pos);
  uint64_t dTemplates = gpu.malloc(static_cast<size_t>(kPoints) * kTs * kTs * sizeof(float));
  uint64_t dScores = gpu.malloc(kPoints * sizeof(float));

  // The templates: copies out of the first frame (exact).
  launch(ctx, extract, {kPoints}, {kThreads}, 0, dVideo, kWidth, dPos, dTemplates);
  std::vector<float> templates;
  for (int p = 0; p < kPoints; ++p) {
    for (int e = 0; e < kTs * kTs; ++e) {
      int y = pos[2 * p] - kHalf + e / kTs, x = pos[2 * p + 1] - kHalf + e % kTs;
      templates.push_back(video[static_cast<size_t>(y) * kWidth + x]);
    }
  }
  std::string bad =
      exactMismatch("template", gpu.download<float>(dTemplates, templates.size()), templates);
  if (!bad.empty()) return fail(bad);

  std::vector<float> scores(kPoints);
  double scoreSum = 0;
  for (int f = 1; f < frames; ++f) {
    launch(ctx, track, {kPoints}, {kThreads}, 0, dVideo + f * pixels * sizeof(float), kWidth,
           kHeight, dTemplates, dPos, dScores);
    trackFrame(std::vector<float>(video.begin() + f * pixels, video.begin() + (f + 1) * pixels),
               templates, pos, scores);
    bad = exactMismatch("position", gpu.download<int>(dPos, pos.size()), pos);
    if (bad.empty()) bad = exactMismatch("score", gpu.download<float>(dScores, kPoints), scores);
    if (!bad.empty()) return fail(fmt::format("frame {}: {}", f, bad));
    for (float s : scores) scoreSum += s;
  }
  return {true, fmt::format("{} points tracked through {} frames, positions and scores exact; mean "
                            "best NCC {:.3f}",
                            kPoints, frames, scoreSum / (kPoints * (frames - 1.0)))};
}

}  // namespace heartwall

Workload heartwallWorkload() {
  return {"heartwall",
          "private",
          "wall points tracked by template matching (NCC); private offset tables in local memory",
          "frames",
          4,
          32,
          104,
          1024,
          heartwall::run};
}

}  // namespace warpsim::workloads
