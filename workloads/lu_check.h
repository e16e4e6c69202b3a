// Verification of an in-place LU factorisation (lud, gaussian) by reconstruction.
#pragma once
#include <cmath>
#include <string>
#include <vector>

#include "check.h"

namespace warpsim::workloads {

// `lu` holds, row-major with row length `stride`, the unit lower L (below the diagonal) and U
// (on and above it) of the first n rows of `original`; columns n .. cols - 1, when present,
// are extra right-hand sides transformed like U (c = L^-1 b). Checks L U = original column by
// column. LU factorisation computes each entry as one inner product a_ij - sum l_im u_mj (and
// one division), in whatever order, so the computed factors satisfy
//   |L U - A| <= gamma_n |L| |U|,   gamma_n = n u / (1 - n u),  u = 2^-24
// (backward error of Gaussian elimination, Higham, "Accuracy and Stability of Numerical
// Algorithms", Theorem 9.3). The check uses 2 (n + 2) u |L| |U| per entry; since unit-lower
// times upper factors are unique, it accepts exactly the factorisations a float computation
// can produce. `worst` receives the largest error / bound.
inline std::string luReconstructionMismatch(const std::vector<float>& original,
                                            const std::vector<float>& lu, int n, int stride,
                                            int cols, double* worst) {
  std::vector<double> product, expect, bound;
  product.reserve(static_cast<size_t>(n) * cols);
  expect.reserve(product.capacity());
  bound.reserve(product.capacity());
  std::vector<double> sum(cols), mag(cols);
  for (int i = 0; i < n; ++i) {
    std::fill(sum.begin(), sum.end(), 0.0);
    std::fill(mag.begin(), mag.end(), 0.0);
    // Row i of L U = sum over m <= i of l_im * (row m of U), with l_ii = 1; row m of U starts
    // at column m.
    for (int m = 0; m <= i; ++m) {
      double l = m == i ? 1.0 : lu[static_cast<size_t>(i) * stride + m];
      for (int j = m; j < cols; ++j) {
        double p = l * lu[static_cast<size_t>(m) * stride + j];
        sum[j] += p;
        mag[j] += std::fabs(p);
      }
    }
    for (int j = 0; j < cols; ++j) {
      product.push_back(sum[j]);
      expect.push_back(original[static_cast<size_t>(i) * stride + j]);
      bound.push_back(2.0 * (n + 2) * kFloatUnit * mag[j]);
    }
  }
  // Indices are row * cols + column.
  return boundedMismatch("L U", product, expect, bound, worst);
}

}  // namespace warpsim::workloads
