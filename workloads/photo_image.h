// A photograph-like grey image for the image-processing workloads (conv2d, dwt2d).
#pragma once
#include <algorithm>
#include <cmath>
#include <vector>

#include "check.h"
#include "input.h"

namespace warpsim::workloads {

inline constexpr double kPhotoPi = 3.14159265358979323846;

// A grey photograph-like image, rows x cols row-major 8-bit intensities held as floats: a lit background (a linear shading plus a slow wave), ten objects of their own
// brightness with sharp edges (ellipses and rectangles, each with a shading across it), a
// patch of fine oblique texture and sensor noise of +-3 levels; rounded and clamped to 0..255.
inline std::vector<float> photoImage(InputGenerator& gen, int rows, int cols) {
  std::vector<double> img(static_cast<size_t>(rows) * cols);
  const double level = uniformReal(gen, 80, 140), slopeX = uniformReal(gen, -50, 50),
               slopeY = uniformReal(gen, 30, 90), wave = uniformReal(gen, 5, 15);
  for (int y = 0; y < rows; ++y) {
    for (int x = 0; x < cols; ++x) {
      double fx = static_cast<double>(x) / cols, fy = static_cast<double>(y) / rows;
      img[static_cast<size_t>(y) * cols + x] = level + slopeX * (fx - 0.5) + slopeY * (0.5 - fy) +
                                               wave * std::sin(2 * kPhotoPi * (1.3 * fx + 0.7 * fy));
    }
  }
  for (int o = 0; o < 10; ++o) {
    const double cx = uniformReal(gen, 0, cols), cy = uniformReal(gen, 0, rows);
    const double rx = uniformReal(gen, 0.04, 0.2) * cols, ry = uniformReal(gen, 0.04, 0.2) * rows;
    const double brightness = uniformReal(gen, 15, 240), shade = uniformReal(gen, -0.25, 0.25);
    const bool ellipse = gen.uniform(0, 1) == 0;
    const int y0 = std::max(0, static_cast<int>(cy - ry)), y1 = std::min(rows - 1, static_cast<int>(cy + ry));
    const int x0 = std::max(0, static_cast<int>(cx - rx)), x1 = std::min(cols - 1, static_cast<int>(cx + rx));
    for (int y = y0; y <= y1; ++y) {
      for (int x = x0; x <= x1; ++x) {
        const double dx = (x - cx) / rx, dy = (y - cy) / ry;
        if (ellipse && dx * dx + dy * dy > 1) continue;
        img[static_cast<size_t>(y) * cols + x] = brightness * (1 + shade * dx);
      }
    }
  }
  const int tw = std::max(8, cols / 6), th = std::max(8, rows / 6);
  const int tx = static_cast<int>(gen.uniform(0, cols - tw)), ty = static_cast<int>(gen.uniform(0, rows - th));
  const double period = uniformReal(gen, 2.5, 5.0), angle = uniformReal(gen, 0, kPhotoPi);
  for (int y = ty; y < ty + th; ++y) {
    for (int x = tx; x < tx + tw; ++x) {
      img[static_cast<size_t>(y) * cols + x] +=
          35 * std::sin(2 * kPhotoPi * (x * std::cos(angle) + y * std::sin(angle)) / period);
    }
  }
  std::vector<float> out(img.size());
  for (size_t k = 0; k < img.size(); ++k) {
    out[k] = static_cast<float>(std::clamp(std::round(img[k] + uniformReal(gen, -3, 3)), 0.0, 255.0));
  }
  return out;
}

}  // namespace warpsim::workloads
