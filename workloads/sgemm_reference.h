// Shared by the sgemm workloads: exactly representable inputs and the CPU reference for
// C = alpha * A * B + beta * C (row-major, n x n).
#pragma once
#include <algorithm>
#include <vector>

#include "workload.h"

namespace warpsim::workloads {

struct SgemmInputs {
  std::vector<float> a, b, c;
};

// Entries are multiples of 2^-4 with |x| <= 1, so for n <= 2^13 every partial dot product is a
// multiple of 2^-8 below 2^13 and alpha * sum + beta * c (alpha, beta multiples of 2^-2 with
// |.| <= 2) a multiple of 2^-9 below 2^14: at most 23 significant bits, so no operation rounds,
// whatever the summation order or fma contraction, and verification can be exact.
inline SgemmInputs sgemmInputs(uint64_t seed, int n) {
  const size_t elems = static_cast<size_t>(n) * n;
  InputGenerator gen(seed);
  SgemmInputs in{std::vector<float>(elems), std::vector<float>(elems), std::vector<float>(elems)};
  for (float& v : in.a) v = gen.dyadic(-16, 16, 4);
  for (float& v : in.b) v = gen.dyadic(-16, 16, 4);
  for (float& v : in.c) v = gen.dyadic(-16, 16, 4);
  return in;
}

inline std::vector<float> sgemmReference(const SgemmInputs& in, int n, float alpha, float beta) {
  std::vector<float> expect(static_cast<size_t>(n) * n);
  std::vector<float> row(n);
  for (int i = 0; i < n; ++i) {
    std::fill(row.begin(), row.end(), 0.0f);
    for (int k = 0; k < n; ++k) {
      for (int j = 0; j < n; ++j) row[j] += in.a[i * n + k] * in.b[k * n + j];
    }
    for (int j = 0; j < n; ++j) expect[i * n + j] = alpha * row[j] + beta * in.c[i * n + j];
  }
  return expect;
}

}  // namespace warpsim::workloads
