// A dense matrix shaped like sampled physical data, for the linear-algebra workloads (atax,
// mvt): a smooth field over the (row, column) plane plus measurement noise.
#pragma once
#include <cmath>
#include <cstdint>
#include <vector>

#include "check.h"
#include "input.h"

namespace warpsim::workloads {

// A row-major rows x cols matrix: three plane waves cos(2 pi (fr r / rows + fc c / cols) + p)
// with 1 to 4 cycles along each axis (either sign along the columns), random phases and
// amplitudes 0.2 to 0.6, plus uniform noise in [-0.25, 0.25). Entries are below 2.05 in
// magnitude, of both signs, neighbours alike but not equal (no trivially compressible
// patterns). Each wave is separated into row and column factors, cos(x + y) = cos x cos y -
// sin x sin y, so the cost is one multiply-add pair per wave and entry.
inline std::vector<float> smoothMatrix(InputGenerator& gen, int rows, int cols) {
  constexpr int kWaves = 3;
  const double twoPi = 2 * 3.14159265358979323846;
  std::vector<double> rowCos(static_cast<size_t>(kWaves) * rows),
      rowSin(static_cast<size_t>(kWaves) * rows), colCos(static_cast<size_t>(kWaves) * cols),
      colSin(static_cast<size_t>(kWaves) * cols), amplitude(kWaves);
  for (int w = 0; w < kWaves; ++w) {
    double fr = static_cast<double>(gen.uniform(1, 4));
    double fc = static_cast<double>(gen.uniform(1, 4)) * (gen.uniform(0, 1) ? 1 : -1);
    double phase = uniformReal(gen, 0.0, twoPi);
    amplitude[w] = uniformReal(gen, 0.2, 0.6);
    for (int r = 0; r < rows; ++r) {
      double x = twoPi * fr * r / rows + phase;
      rowCos[static_cast<size_t>(w) * rows + r] = std::cos(x);
      rowSin[static_cast<size_t>(w) * rows + r] = std::sin(x);
    }
    for (int c = 0; c < cols; ++c) {
      double y = twoPi * fc * c / cols;
      colCos[static_cast<size_t>(w) * cols + c] = std::cos(y);
      colSin[static_cast<size_t>(w) * cols + c] = std::sin(y);
    }
  }
  std::vector<float> a(static_cast<size_t>(rows) * cols);
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      double v = uniformReal(gen, -0.25, 0.25);
      for (int w = 0; w < kWaves; ++w) {
        size_t wr = static_cast<size_t>(w) * rows + r, wc = static_cast<size_t>(w) * cols + c;
        v += amplitude[w] * (rowCos[wr] * colCos[wc] - rowSin[wr] * colSin[wc]);
      }
      a[static_cast<size_t>(r) * cols + c] = static_cast<float>(v);
    }
  }
  return a;
}

// A vector of n values uniform in [-1, 1).
inline std::vector<float> uniformVector(InputGenerator& gen, int n) {
  std::vector<float> v(n);
  for (float& x : v) x = static_cast<float>(uniformReal(gen, -1.0, 1.0));
  return v;
}

}  // namespace warpsim::workloads
