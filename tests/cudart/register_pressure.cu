// A kernel that needs more registers than the GTX 480 gives a thread (63): a register-blocked
// SGEMM, C = alpha * A * B + beta * C, where each thread keeps an 8x8 tile of C in registers
// (64 accumulators, plus a column of A and a row of B per step of k) and the block stages
// 8-deep slices of A and B through shared memory. ptxas needs 98 registers for it on sm_75
// (nvcc 13.0's default target); run_cli.sh's register-pressure case requires 64..110. On gtx480
// warpsim must re-allocate it within 63 registers with spill code; on a GPU with 255 registers
// it runs as ptxas allocated it. The result is checked against a CPU reference: prints PASS, or
// FAIL and exits 1.
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <vector>

#include "check.h"

constexpr int kTile = 8;                // C elements per thread in each dimension
constexpr int kThreads = 16;            // threads per block in each dimension
constexpr int kBlock = kTile * kThreads;  // C elements per block in each dimension (128)
constexpr int kDepth = 8;               // k per shared-memory stage

// A is m x k, B is k x n, C is m x n, all row-major; m and n are multiples of kBlock and k of
// kDepth (the host checks), so there are no edge tiles.
__global__ void __launch_bounds__(kThreads * kThreads)
    sgemm8x8(int m, int n, int k, float alpha, const float* __restrict__ a,
             const float* __restrict__ b, float beta, float* __restrict__ c) {
  // A's slice is stored transposed (as[kk][row]): both slices are then read along rows.
  __shared__ float as[kDepth][kBlock];
  __shared__ float bs[kDepth][kBlock];
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * kThreads + tx;
  const int row0 = blockIdx.y * kBlock, col0 = blockIdx.x * kBlock;

  float acc[kTile][kTile] = {};
  for (int k0 = 0; k0 < k; k0 += kDepth) {
    // 256 threads load the 128x8 slice of A and the 8x128 slice of B, 4 elements each.
    for (int e = tid; e < kBlock * kDepth; e += kThreads * kThreads) {
      const int r = e / kDepth, kk = e % kDepth;
      as[kk][r] = a[(row0 + r) * k + k0 + kk];
      const int br = e / kBlock, bc = e % kBlock;
      bs[br][bc] = b[(k0 + br) * n + col0 + bc];
    }
    __syncthreads();
    // Kept rolled: unrolled, ptxas hoists later steps' shared loads and needs 120-127
    // registers (sm_75) instead of 98.
#pragma unroll 1
    for (int kk = 0; kk < kDepth; ++kk) {
      float ra[kTile], rb[kTile];
      // Rows ty, ty+16, ... and columns tx, tx+16, ...: a warp (two rows of 16 threads) reads
      // two words of as and 16 consecutive words of bs, all broadcasts: no bank conflicts.
#pragma unroll
      for (int i = 0; i < kTile; ++i) ra[i] = as[kk][ty + i * kThreads];
#pragma unroll
      for (int j = 0; j < kTile; ++j) rb[j] = bs[kk][tx + j * kThreads];
#pragma unroll
      for (int i = 0; i < kTile; ++i)
#pragma unroll
        for (int j = 0; j < kTile; ++j) acc[i][j] += ra[i] * rb[j];
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < kTile; ++i)
#pragma unroll
    for (int j = 0; j < kTile; ++j) {
      float* p = &c[(row0 + ty + i * kThreads) * n + col0 + tx + j * kThreads];
      *p = alpha * acc[i][j] + beta * *p;
    }
}

// Deterministic inputs in [-1, 1) with a spread of magnitudes (a 32-bit LCG).
static void fillRandom(std::vector<float>& v, uint32_t seed) {
  for (float& x : v) {
    seed = seed * 1664525u + 1013904223u;
    x = static_cast<float>(seed >> 8) / 8388608.0f - 1.0f;
  }
}

int main() {
  // 256x256 output from 256x96 by 96x256: 4 blocks of 256 threads, 96 steps of k each.
  const int m = 256, n = 256, k = 96;
  const float alpha = 1.5f, beta = -0.75f;
  if (m % kBlock || n % kBlock || k % kDepth) return 1;
  std::vector<float> a(m * k), b(k * n), c(m * n);
  fillRandom(a, 1);
  fillRandom(b, 2);
  fillRandom(c, 3);

  float *da, *db, *dc;
  CHECK(cudaMalloc(&da, a.size() * sizeof(float)));
  CHECK(cudaMalloc(&db, b.size() * sizeof(float)));
  CHECK(cudaMalloc(&dc, c.size() * sizeof(float)));
  CHECK(cudaMemcpy(da, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b.data(), b.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dc, c.data(), c.size() * sizeof(float), cudaMemcpyHostToDevice));
  sgemm8x8<<<dim3(n / kBlock, m / kBlock), dim3(kThreads, kThreads)>>>(m, n, k, alpha, da, db,
                                                                       beta, dc);
  CHECK(cudaGetLastError());
  std::vector<float> got(m * n);
  CHECK(cudaMemcpy(got.data(), dc, got.size() * sizeof(float), cudaMemcpyDeviceToHost));

  // Reference in double. The device sums k products in float, in its own order of roundings
  // (nvcc contracts a * b + acc into one FMA; a host build may not), so the results are not
  // bit-equal. The standard bound for a float dot product of length k is about
  // k * FLT_EPSILON * sum |a_i b_i|; allow twice that, scaled by the magnitudes that enter
  // each element. A wrong value (a lost or misplaced spill) is off by O(1), far outside it.
  int bad = 0;
  double worst = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double dot = 0, mag = 0;
      for (int p = 0; p < k; ++p) {
        dot += double(a[i * k + p]) * b[p * n + j];
        mag += std::fabs(double(a[i * k + p]) * b[p * n + j]);
      }
      const double want = alpha * dot + beta * double(c[i * n + j]);
      const double scale = std::fabs(alpha) * mag + std::fabs(beta) * std::fabs(c[i * n + j]);
      const double err = std::fabs(got[i * n + j] - want) / scale;
      worst = std::fmax(worst, err);
      if (!(err <= 2.0 * k * FLT_EPSILON) && bad++ < 5)
        std::printf("C[%d][%d] = %.8g, expected %.8g\n", i, j, got[i * n + j], want);
    }
  std::printf("sgemm %dx%dx%d, %dx%d tile per thread: %d of %d elements outside the tolerance "
              "(largest scaled error %.2g, tolerance %.2g)\n",
              m, n, k, kTile, kTile, bad, m * n, worst, 2.0 * k * FLT_EPSILON);
  CHECK(cudaFree(da));
  CHECK(cudaFree(db));
  CHECK(cudaFree(dc));
  if (bad) {
    std::printf("FAIL\n");
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
