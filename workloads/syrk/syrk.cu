// nvcc-flags: -arch=compute_80 -O3
// Symmetric rank-k update C = alpha * A * A^T + beta * C, for a row-major n x m matrix A and an
// n x n matrix C, one thread per element of C (the whole of C, both triangles).
//
// CTAs are 2-D (32 x 8 threads: a warp is 32 neighbouring columns of one row of C). Thread
// (i, j) walks row i and row j of A together, one fused multiply-add per k. Across a warp, row
// i is the same for every lane (one broadcast line per step) and the 32 rows j are m floats
// apart (32 lines per load, each line then reused for the next 31 steps of k if it stays in
// the L1). Every CTA of a grid row reads the same 8 rows i, every CTA of a grid column the same
// 32 rows j: the reuse is between CTAs, through the L1 when they share an SM and the L2 when
// they do not.

extern "C" __global__ void syrk(int n, int m, float alpha, float beta,
                                const float* __restrict__ a, float* __restrict__ c) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n || j >= n) return;
  const float* rowI = a + static_cast<size_t>(i) * m;
  const float* rowJ = a + static_cast<size_t>(j) * m;
  float sum = 0.0f;
  for (int k = 0; k < m; ++k) sum = fmaf(rowI[k], rowJ[k], sum);
  float* out = c + static_cast<size_t>(i) * n + j;
  *out = alpha * sum + beta * *out;
}
