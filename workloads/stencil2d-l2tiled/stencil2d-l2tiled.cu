// nvcc-flags: -arch=compute_80 -O3
// One launch of a Jacobi 2-D 5-point stencil tiled for the last-level cache (PolyBench's
// jacobi-2d, row-major floats): one sweep of the rows of one band. The host program (driver.cpp)
// walks the bands of the grid and, for each, the time steps, one launch per (band, sweep), so that
// a band's rows are read again by every sweep of the band while they are (meant to be) in the L2.
//
// A sweep reads one buffer (src) and writes the other (dst), as PolyBench's A -> B and B -> A:
//   dst[i][j] = 0.2 (src[i][j] + src[i][j - 1] + src[i][j + 1] + src[i + 1][j] + src[i - 1][j])
// for the rows [row0, row0 + rows) of the launch (interior rows: the host keeps them in
// [1, n - 1)) and the interior columns 1 <= j < n - 1; the border is held fixed.
//
// A thread per element (CTAs of 32 x 8 threads: a warp on 32 neighbouring columns of one row),
// operands from global memory (no shared memory): a warp reads its row in three overlapping
// coalesced loads and the rows above and below in one each; the rows of a CTA and of the
// neighbouring CTAs overlap (each input row is read by three output rows), through the L1.

extern "C" __global__ void stencil2d_l2tiled(int n, int row0, int rows, const float* __restrict__ src,
                                             float* __restrict__ dst) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r >= rows || j < 1 || j >= n - 1) return;
  const size_t at = static_cast<size_t>(row0 + r) * n + j;
  // The five loads are issued before the first addition, which waits for its operands (issue is
  // in order: a load after a waiting addition waits too, and nvcc would otherwise put each load
  // beside its addition; the empty asm keeps the loads above it), as ptxas schedules them on a
  // GPU. The additions then run in PolyBench's order.
  const float centre = src[at], left = src[at - 1], right = src[at + 1], below = src[at + n], above = src[at - n];
  asm volatile("" ::: "memory");
  dst[at] = 0.2f * ((((centre + left) + right) + below) + above);
}
