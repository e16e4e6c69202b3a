// nvcc-flags: -arch=compute_80 -O3
// Two matrix-vector products with one row-major n x n matrix A and its transpose:
// x1 = x1 + A y1 and x2 = x2 + A^T y2, one kernel each, a thread per output element.
//
// mvt_rows: thread i walks row i of A (x1[i] += A[i][j] y1[j] for every j): across a warp the
// 32 rows are n floats apart, so every load touches 32 lines (uncoalesced), each line serving
// its thread for the next 31 elements only if it stays in the L1.
// mvt_cols: thread i walks column i of A (x2[i] += A[j][i] y2[j]): a warp reads 32 neighbouring
// floats of one row per step (coalesced).
// In both, the vector (y1, y2) is read by every thread at the same index: one broadcast line
// per step, shared by every warp and CTA. The accumulation stays in a register, starting from
// the old x and stored once.

extern "C" __global__ void mvt_rows(int n, const float* __restrict__ a,
                                    const float* __restrict__ y1, float* __restrict__ x1) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float* row = a + static_cast<size_t>(i) * n;
  float sum = x1[i];
  for (int j = 0; j < n; ++j) sum = fmaf(row[j], y1[j], sum);
  x1[i] = sum;
}

extern "C" __global__ void mvt_cols(int n, const float* __restrict__ a,
                                    const float* __restrict__ y2, float* __restrict__ x2) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float* column = a + i;
  float sum = x2[i];
  for (int j = 0; j < n; ++j) sum = fmaf(column[static_cast<size_t>(j) * n], y2[j], sum);
  x2[i] = sum;
}
