// nvcc-flags: -arch=compute_80 -O3
// y = A x for a row-major n x n single-precision matrix, one thread per row walking its row
// straight from global memory: the textbook first version of a matrix-vector product.
//
// Across a warp the 32 rows are n floats apart, so every load of A touches 32 lines
// (uncoalesced); each 32-byte sector serves its thread for 8 steps only if it stays in the L1.
// x is read by every thread at the same index (one broadcast line per step).

extern "C" __global__ void sgemv_naive(int n, const float* __restrict__ a,
                                       const float* __restrict__ x, float* __restrict__ y) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= n) return;
  const float* r = a + static_cast<size_t>(row) * n;
  float sum = 0.0f;
  for (int j = 0; j < n; ++j) sum += r[j] * x[j];
  y[row] = sum;
}
