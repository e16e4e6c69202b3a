// nvcc-flags: -arch=compute_80 -O3
// y = A^T (A x) for a row-major rows x cols matrix A, in two kernels of one thread per output.
//
// atax_rows: tmp = A x, a thread per row. Each thread streams its own row of A with one fused
// multiply-add per element: across a warp the 32 rows are cols floats apart, so every load
// touches 32 lines (uncoalesced), and each line serves its thread for the next 31 elements only
// if it stays in the L1. x is read by every thread at the same index: one broadcast line per
// step, shared by every warp and CTA.
// atax_cols: y = A^T tmp, a thread per column. Each thread walks down its column: a warp reads
// 32 neighbouring floats of one row per step (coalesced, no reuse of A), and tmp is read by
// every thread at the same index.

extern "C" __global__ void atax_rows(int rows, int cols, const float* __restrict__ a,
                                     const float* __restrict__ x, float* __restrict__ tmp) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  const float* row = a + static_cast<size_t>(i) * cols;
  float sum = 0.0f;
  for (int j = 0; j < cols; ++j) sum = fmaf(row[j], x[j], sum);
  tmp[i] = sum;
}

extern "C" __global__ void atax_cols(int rows, int cols, const float* __restrict__ a,
                                     const float* __restrict__ tmp, float* __restrict__ y) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= cols) return;
  const float* column = a + j;
  float sum = 0.0f;
  for (int i = 0; i < rows; ++i) sum = fmaf(column[static_cast<size_t>(i) * cols], tmp[i], sum);
  y[j] = sum;
}
