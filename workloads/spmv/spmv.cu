// nvcc-flags: -arch=compute_80 -O3
// y = A x for a sparse matrix in compressed sparse row form, two ways:
//  * spmv_csr_scalar: one thread per row (neighbouring threads read far-apart rows: poorly
//    coalesced, and long rows keep a whole warp waiting);
//  * spmv_csr_vector: one warp per row, lanes striding over the row (coalesced), the 32
//    partial sums combined by shuffles.

extern "C" __global__ void spmv_csr_scalar(int rows, const int* __restrict__ rowStart,
                                           const int* __restrict__ columns,
                                           const float* __restrict__ values,
                                           const float* __restrict__ x, float* __restrict__ y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  float sum = 0.0f;
  for (int e = rowStart[row]; e < rowStart[row + 1]; ++e) sum += values[e] * x[columns[e]];
  y[row] = sum;
}

extern "C" __global__ void spmv_csr_vector(int rows, const int* __restrict__ rowStart,
                                           const int* __restrict__ columns,
                                           const float* __restrict__ values,
                                           const float* __restrict__ x, float* __restrict__ y) {
  int lane = threadIdx.x & 31;
  int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  if (row >= rows) return;  // whole warps leave together
  float sum = 0.0f;
  for (int e = rowStart[row] + lane; e < rowStart[row + 1]; e += 32) {
    sum += values[e] * x[columns[e]];
  }
  for (int offset = 16; offset > 0; offset >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, offset);
  if (lane == 0) y[row] = sum;
}
