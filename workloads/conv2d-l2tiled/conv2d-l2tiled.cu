// nvcc-flags: -arch=compute_80 -O3
// One launch of a multi-filter 2-D convolution tiled for the last-level cache (row-major
// floats): one 3 x 3 filter over one band of image rows. The host program (driver.cpp) walks the
// bands of the image and, for each, the filters, one launch per (band, filter), so that a band is
// read again by every filter's launch while it is (meant to be) in the L2.
//
//   out[i][j] = sum over di, dj in {-1, 0, 1} of w[di + 1][dj + 1] image[i + di][j + dj]
// for the launch's rows [row0, row0 + rows) (interior rows: the host keeps them in [1, n - 1))
// and the interior columns 1 <= j < n - 1 (the output's border is never written).
//
// A thread per output pixel (CTAs of 32 x 8 threads: a warp on 32 neighbouring columns of one
// row), operands from global memory (no shared memory): a chain of nine FMAs from zero, row by
// row, left to right. The warp reads each of its three input rows in three overlapping coalesced
// loads (34 floats), the rows shared with the neighbouring output rows through the L1, and the
// filter's nine weights as broadcast words (the same address in every lane).

extern "C" __global__ void conv2d_l2tiled(int n, int row0, int rows, const float* __restrict__ image,
                                          const float* __restrict__ w, float* __restrict__ out) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r >= rows || j < 1 || j >= n - 1) return;
  const size_t at = static_cast<size_t>(row0 + r) * n + j;
  const float* p = image + at - n - 1;  // the neighbourhood's upper left pixel
  // The eighteen loads (nine weights, nine pixels) are issued before the first FMA, which waits
  // for its operands (issue is in order: a load after a waiting FMA waits too, and nvcc would
  // otherwise put each pair of loads beside its FMA; the empty asm keeps the loads above it), as
  // ptxas schedules them on a GPU. The FMAs then run row by row, left to right.
  float wv[9], pv[9];
#pragma unroll
  for (int di = 0; di < 3; ++di) {
#pragma unroll
    for (int dj = 0; dj < 3; ++dj) {
      wv[3 * di + dj] = w[3 * di + dj];
      pv[3 * di + dj] = p[static_cast<size_t>(di) * n + dj];
    }
  }
  asm volatile("" ::: "memory");
  float sum = 0.0f;
#pragma unroll
  for (int k = 0; k < 9; ++k) sum = fmaf(wv[k], pv[k], sum);
  out[at] = sum;
}
