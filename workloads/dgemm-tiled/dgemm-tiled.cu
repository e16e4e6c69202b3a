// nvcc-flags: -arch=compute_80 -O3
// C = alpha * A * B + beta * C for row-major n x n double-precision matrices with 16 x 16
// shared-memory tiles. Each thread computes a 1 x 2 strip of C (block 16 x 8 threads covers a
// 16 x 16 tile), so one staged element of B serves two accumulators.

#define TILE 16

extern "C" __global__ void dgemm_tiled(int n, double alpha, const double* __restrict__ a,
                                       const double* __restrict__ b, double beta,
                                       double* __restrict__ c) {
  __shared__ double tileA[TILE][TILE];
  __shared__ double tileB[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;  // blockDim = (16, 8)
  int col = blockIdx.x * TILE + tx;
  int row0 = blockIdx.y * TILE + ty;
  int row1 = row0 + TILE / 2;
  double sum0 = 0.0, sum1 = 0.0;
  for (int k0 = 0; k0 < n; k0 += TILE) {
    for (int r = ty; r < TILE; r += TILE / 2) {
      int rowA = blockIdx.y * TILE + r;
      tileA[r][tx] = (rowA < n && k0 + tx < n) ? a[rowA * n + k0 + tx] : 0.0;
      tileB[r][tx] = (k0 + r < n && col < n) ? b[(k0 + r) * n + col] : 0.0;
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k) {
      double bk = tileB[k][tx];
      sum0 += tileA[ty][k] * bk;
      sum1 += tileA[ty + TILE / 2][k] * bk;
    }
    __syncthreads();
  }
  if (col < n) {
    if (row0 < n) c[row0 * n + col] = alpha * sum0 + beta * c[row0 * n + col];
    if (row1 < n) c[row1 * n + col] = alpha * sum1 + beta * c[row1 * n + col];
  }
}
