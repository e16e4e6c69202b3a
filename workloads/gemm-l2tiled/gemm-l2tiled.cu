// nvcc-flags: -arch=compute_80 -O3
// One launch of a GEMM tiled for the last-level cache (C = A B, row-major floats): the block of
// C at a panel's rows and a column block's columns. The host program (driver.cpp) walks the
// panels of A and, for each, the column blocks of B, one launch each, so that a panel is read
// again by every column block while it is (meant to be) in the L2.
//
// A thread per element of the block (CTAs of 32 x 8 threads: a warp on 32 neighbouring columns
// of one row). Thread (r, j) computes c[r][j] = sum over q of a[r][q] b[q][j], a chain of k FMAs
// from zero in ascending q, operands from global memory (no shared memory): the warp's lanes read
// the same a[r][q] (one broadcast word per step, walking the panel's row r) and 32 neighbouring
// floats of row q of B (one coalesced 128-byte line per step, walking the column block down).
// a: the panel's first row (rows x k, rows k floats apart); b: the block's first column (rows of
// B m floats apart); c: the block's first element (rows m floats apart).

extern "C" __global__ void gemm_l2tiled(int k, int m, int rows, const float* __restrict__ a,
                                        const float* __restrict__ b, float* __restrict__ c) {
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float* row = a + static_cast<size_t>(r) * k;
  const float* column = b + j;
  float sum = 0.0f;
  for (int q = 0; q < k; ++q) sum = fmaf(row[q], column[static_cast<size_t>(q) * m], sum);
  c[static_cast<size_t>(r) * m + j] = sum;
}
