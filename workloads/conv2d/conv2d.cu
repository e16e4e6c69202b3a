// nvcc-flags: -arch=compute_80 -O3
// PolyBench's 2DConvolution: a 3 x 3 filter with fixed coefficients over a row-major ni x nj
// image, B[i][j] = sum over di, dj in {-1, 0, 1} of w[di][dj] A[i + di][j + dj], for the
// interior pixels (1 <= i < ni - 1, 1 <= j < nj - 1; the border of B is left as it was).
//
// One thread per output pixel in 32 x 8 CTAs (a warp is 32 neighbouring pixels of one row).
// Each thread reads a 3 x 3 neighbourhood: a warp's three loads along a row cover 34 floats,
// so the lines at a warp's ends are shared with the neighbouring warps and CTAs along x, and
// each input row is read by the threads of three output rows (along y, across the CTA edge
// for the first and last of a CTA's rows): NEARBY sharing between threads, warps and CTAs.

// PolyBench's coefficients, by row offset (-1, 0, +1) then column offset (-1, 0, +1).
#define W_UL 0.2f
#define W_UC 0.5f
#define W_UR (-0.8f)
#define W_ML (-0.3f)
#define W_MC 0.6f
#define W_MR (-0.9f)
#define W_LL 0.4f
#define W_LC 0.7f
#define W_LR 0.10f

extern "C" __global__ void conv2d(int ni, int nj, const float* __restrict__ a,
                                  float* __restrict__ b) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 1 || i >= ni - 1 || j < 1 || j >= nj - 1) return;
  const float* up = a + static_cast<size_t>(i - 1) * nj + j;
  const float* mid = up + nj;
  const float* down = mid + nj;
  b[static_cast<size_t>(i) * nj + j] = W_UL * up[-1] + W_UC * up[0] + W_UR * up[1] +
                                       W_ML * mid[-1] + W_MC * mid[0] + W_MR * mid[1] +
                                       W_LL * down[-1] + W_LC * down[0] + W_LR * down[1];
}
