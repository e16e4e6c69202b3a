// nvcc-flags: -arch=compute_80 -O3
// Forward 2-D discrete wavelet transform with the reversible CDF 5/3 wavelet of JPEG 2000 (as
// Rodinia's dwt2d does in its integer mode), by lifting: a row pass then a column pass per
// level, each level transforming the low-pass (LL) quadrant the previous one left in the
// top-left corner of the image (row pitch `pitch` ints throughout).
//
// Lifting on a line x[0..n) (n even), with whole-sample symmetric extension at both ends
// (x[n] = x[n - 2], d[-1] = d[0]):
//   d[i] = x[2i + 1] - floor((x[2i] + x[2i + 2]) / 2)        (predict: high-pass)
//   s[i] = x[2i] + floor((d[i - 1] + d[i] + 2) / 4)          (update: low-pass)
// and the line becomes s[0..n/2) followed by d[0..n/2).
//
// One thread per (s[i], d[i]) pair: it reads x[2i - 2 .. 2i + 2] and computes d[i - 1] itself,
// so neighbouring threads read overlapping neighbouring elements, through the L1 (no shared
// memory): in the row pass a warp's 32 pairs cover 66 ints of a row; in the column pass each
// thread reads five rows of its column, two of them also read by the thread below.
// CTAs are 32 x 8 threads.

__device__ __forceinline__ void liftPair(const int* line, int step, int i, int n, int* out) {
  const int x0 = line[(2 * i) * step], x1 = line[(2 * i + 1) * step];
  const int x2 = 2 * i + 2 < n ? line[(2 * i + 2) * step] : x0;
  const int d = x1 - ((x0 + x2) >> 1);
  int before = d;  // d[-1] = d[0]
  if (i > 0) {
    const int xm2 = line[(2 * i - 2) * step], xm1 = line[(2 * i - 1) * step];
    before = xm1 - ((xm2 + x0) >> 1);
  }
  out[i * step] = x0 + ((before + d + 2) >> 2);
  out[(n / 2 + i) * step] = d;
}

// The rows of the width x height region of `in` into `out`: thread (i, y) for pair i of row y.
extern "C" __global__ void dwt53_rows(const int* __restrict__ in, int* __restrict__ out, int width,
                                      int height, int pitch) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= width / 2 || y >= height) return;
  const size_t row = static_cast<size_t>(y) * pitch;
  liftPair(in + row, 1, i, width, out + row);
}

// The columns of the region of `in` into `out`: thread (x, i) for pair i of column x.
extern "C" __global__ void dwt53_cols(const int* __restrict__ in, int* __restrict__ out, int width,
                                      int height, int pitch) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || i >= height / 2) return;
  liftPair(in + x, pitch, i, height, out + x);
}
