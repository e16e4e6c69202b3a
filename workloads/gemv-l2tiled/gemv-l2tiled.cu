// nvcc-flags: -arch=compute_80 -O3
// One launch of a batched GEMV tiled for the last-level cache (Y = A X, row-major floats): one
// vector of X at a panel's rows of A. The host program (driver.cpp) walks the panels of A and,
// for each, the vectors of X, one launch each, so that a panel is read again by every vector's
// launch while it is (meant to be) in the L2. The companion of gemm-l2tiled with one FMA per
// element of A a launch: bandwidth-bound where gemm-l2tiled is compute-bound.
//
// A warp per row of the panel (CTAs of 32 x 8 threads: eight rows). Lane l of row r walks the
// row from column l in steps of 32, a chain of FMAs from zero in ascending column, so that the
// warp reads the row in coalesced 128-byte lines, eight lines (and the vector's eight) in flight
// at a time; the 32 partial sums are then added by shfl.down in five steps and lane 0 writes
// y[r]. a: the panel's first row (rows x n, rows n floats apart); x: the vector (n contiguous
// floats, a row of X^T); y: the vector's element at the panel's first row (rows of Y m floats
// apart).

extern "C" __global__ void gemv_l2tiled(int n, int m, int rows, const float* __restrict__ a,
                                        const float* __restrict__ x, float* __restrict__ y) {
  const int r = blockIdx.x * blockDim.y + threadIdx.y;
  const int lane = threadIdx.x;
  if (r >= rows) return;  // a whole warp: the shuffles below have all 32 lanes
  const float* row = a + static_cast<size_t>(r) * n;
  float sum = 0.0f;
  int q = lane;
  // Batches of kBatch lines: every load of a batch is issued before the first FMA, which waits
  // for its operands, so that a warp has kBatch lines of the row in flight (issue is in order: a
  // load after a waiting FMA waits too, and nvcc would otherwise put each pair of loads beside
  // its FMA; the empty asm keeps the loads above it). The FMAs then add the batch in ascending q,
  // as the tail does: the same chain as one FMA per step.
  constexpr int kBatch = 8;
  for (; q + 32 * (kBatch - 1) < n; q += 32 * kBatch) {
    float av[kBatch], xv[kBatch];
#pragma unroll
    for (int j = 0; j < kBatch; ++j) {
      av[j] = row[q + 32 * j];
      xv[j] = x[q + 32 * j];
    }
    asm volatile("" ::: "memory");
#pragma unroll
    for (int j = 0; j < kBatch; ++j) sum = fmaf(av[j], xv[j], sum);
  }
  for (; q < n; q += 32) sum = fmaf(row[q], x[q], sum);
  for (int offset = 16; offset > 0; offset >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, offset);
  if (lane == 0) y[static_cast<size_t>(r) * m] = sum;
}
