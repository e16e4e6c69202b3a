// nvcc-flags: -arch=compute_80 -O3
// One launch of a symmetric rank-2k update tiled for the last-level cache (PolyBench's syr2k,
// row-major floats): the block of C's lower triangle at a panel's rows and a column block's 32
// columns. The host program (driver.cpp) walks the row panels and, for each, the column blocks
// up to the diagonal, one launch each, so that a panel is read again by every column block
// while it is (meant to be) in the L2.
//
// C = alpha (A B^T + B A^T) + beta C, for A and B n x m, is one product of k2 = 2m steps:
// c[i][j] = alpha sum over q of w[i][q] vt[q][j] + beta c[i][j], where w = [A B] (row i of A then
// row i of B: n x 2m) and vt = [B A]^T (2m x n, the operand packed by columns, as BLAS packs the
// operand it walks down). Thread (r, j) of the launch computes element (row0 + r, j) when j is
// on or below the diagonal, a chain of k2 FMAs from zero in ascending q, then
// fma(alpha, sum, beta c); the others (j > i, the upper triangle) do nothing.
//
// A thread per element (CTAs of 32 x 8 threads: a warp on 32 neighbouring columns of one row),
// operands from global memory (no shared memory): the warp's lanes read the same four words of
// the panel's row i (one broadcast 16-byte load per four steps) and 32 neighbouring floats of
// row q of vt (one coalesced 128-byte line per step, walking the column block down).
// w: the whole of [A B] (rows k2 floats apart, k2 a multiple of 4); vt: the column block's first
// column (rows n floats apart); c: the whole of C (rows n floats apart).

extern "C" __global__ void syr2k_l2tiled(int n, int k2, int row0, int rows, int col0, float alpha, float beta,
                                         const float* __restrict__ w, const float* __restrict__ vt,
                                         float* __restrict__ c) {
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  const int i = row0 + r;
  const int j = col0 + blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows || j > i) return;
  const float4* row = reinterpret_cast<const float4*>(w + static_cast<size_t>(i) * k2);
  const float* column = vt + (j - col0);
  const size_t pitch = n;
  float sum = 0.0f;
  int q = 0;
  // Batches of kBatch steps: every load of a batch (two 16-byte loads of the row, eight of the
  // column) is issued before the first FMA, which waits for its operands (issue is in order: a
  // load after a waiting FMA waits too, and nvcc would otherwise put each load beside its FMA;
  // the empty asm keeps the loads above it), as in gemv-l2tiled. The FMAs then add the batch in
  // ascending q, as the tail does: the same chain as one FMA per step.
  constexpr int kBatch = 8;
  for (; q + kBatch <= k2; q += kBatch) {
    const float4 a0 = row[q / 4], a1 = row[q / 4 + 1];
    float v[kBatch];
#pragma unroll
    for (int s = 0; s < kBatch; ++s) v[s] = column[s * pitch];
    asm volatile("" ::: "memory");
    sum = fmaf(a0.x, v[0], sum);
    sum = fmaf(a0.y, v[1], sum);
    sum = fmaf(a0.z, v[2], sum);
    sum = fmaf(a0.w, v[3], sum);
    sum = fmaf(a1.x, v[4], sum);
    sum = fmaf(a1.y, v[5], sum);
    sum = fmaf(a1.z, v[6], sum);
    sum = fmaf(a1.w, v[7], sum);
    column += kBatch * pitch;
  }
  for (; q < k2; q += 4) {  // k2 is a multiple of 4
    const float4 a = row[q / 4];
    sum = fmaf(a.x, column[0], sum);
    sum = fmaf(a.y, column[pitch], sum);
    sum = fmaf(a.z, column[2 * pitch], sum);
    sum = fmaf(a.w, column[3 * pitch], sum);
    column += 4 * pitch;
  }
  float* out = c + static_cast<size_t>(i) * n + j;
  *out = fmaf(alpha, sum, beta * *out);
}
