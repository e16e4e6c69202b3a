// nvcc-flags: -arch=compute_80 -O3
// C = alpha * A * B + beta * C for row-major n x n single-precision matrices, one thread per
// element of C reading its row of A and column of B straight from global memory (no reuse
// through shared memory: the baseline the tiled version improves on).

extern "C" __global__ void sgemm_naive(int n, float alpha, const float* __restrict__ a,
                                       const float* __restrict__ b, float beta,
                                       float* __restrict__ c) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= n || col >= n) return;
  float sum = 0.0f;
  for (int k = 0; k < n; ++k) sum += a[row * n + k] * b[k * n + col];
  c[row * n + col] = alpha * sum + beta * c[row * n + col];
}
