// nvcc-flags: -arch=compute_80 -O3
// PolyBench's doitgen (the multi-resolution analysis kernel of MADNESS): for every r and q,
// sum[r][q][p] = sum_s A[r][q][s] * C4[s][p], then A[r][q][p] = sum[r][q][p]. A is nr x nq x np,
// C4 is np x np, all row-major. As in the GPU version, the host walks r and launches two kernels
// per r over a 2-D grid of (p, q), 32 x 8 threads per CTA (a warp is 32 neighbouring p of one q).
//
// doitgen_sum: thread (q, p) walks row q of the slice A[r] (the same element for every lane: one
// broadcast line per step, shared by the CTAs of a grid row) and column p of C4 (a warp reads 32
// neighbouring floats of one row of C4 per step, coalesced; the CTAs of a grid column read the
// same 32 columns of all of C4, so C4 is reused between CTAs through the L1 and the L2).
// doitgen_copy: A[r] = sum[r], streamed once.

extern "C" __global__ void doitgen_sum(int nq, int np, int r, const float* __restrict__ a,
                                       const float* __restrict__ c4, float* __restrict__ sum) {
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  const int q = blockIdx.y * blockDim.y + threadIdx.y;
  if (p >= np || q >= nq) return;
  const size_t row = (static_cast<size_t>(r) * nq + q) * np;
  const float* aRow = a + row;
  float acc = 0.0f;
  for (int s = 0; s < np; ++s) acc = fmaf(aRow[s], c4[static_cast<size_t>(s) * np + p], acc);
  sum[row + p] = acc;
}

extern "C" __global__ void doitgen_copy(int nq, int np, int r, const float* __restrict__ sum,
                                        float* __restrict__ a) {
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  const int q = blockIdx.y * blockDim.y + threadIdx.y;
  if (p >= np || q >= nq) return;
  const size_t at = (static_cast<size_t>(r) * nq + q) * np + p;
  a[at] = sum[at];
}
