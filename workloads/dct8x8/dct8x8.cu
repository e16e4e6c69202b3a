// nvcc-flags: -arch=compute_80 -O3
// Forward and inverse 2-D DCT-II of the 8 x 8 blocks of a grayscale image, as in a JPEG codec
// before and after quantisation.
//
// With the orthonormal basis C[u][x] = a(u) cos((2x + 1) u pi / 16), a(0) = sqrt(1/8) and
// a(u) = sqrt(2/8) otherwise, the forward transform of a block p (level-shifted by -128) is
//   F[v][u] = sum_y C[v][y] sum_x C[u][x] p[y][x]
// and the inverse is its transpose, p[y][x] = sum_v C[v][y] sum_u C[u][x] F[v][u].
//
// A TILE_W x 8 CTA owns TILE_W / 8 side-by-side blocks, one pixel per thread (TILE_W = 32,
// four blocks, unless a resource specification asks for another block size). Each 2-D transform
// is two passes of 8-term dot products through shared memory: along rows (thread (tx, ty)
// computes entry tx % 8 of its block's row ty), then along columns. The basis is in constant
// memory. In the column pass every lane of a warp (one image row) needs the same basis row,
// which the constant cache broadcasts; in the row pass the lanes need eight different entries,
// so the CTA first copies the basis to shared memory, laid out so that those eight are in eight
// banks.
//
// The tile width is a template parameter so that each block size gets kernels compiled for it,
// with shared tiles of its size, as a programmer would write them; dct8x8_forward and
// dct8x8_inverse are the 32-wide ones, dct8x8_{forward,inverse}_t<threads> the others.

#define BLOCK 8

__constant__ float c_basis[BLOCK * BLOCK];  // C[u][x] at u * 8 + x

// blockDim = (TILE_W, BLOCK), TILE_W a multiple of 8 (at least 64 threads copy the basis).
template <int TILE_W>
__device__ __forceinline__ void forward(const float* __restrict__ image,
                                        float* __restrict__ coeffs, int width) {
  __shared__ float basisT[BLOCK][BLOCK];  // basisT[x][u] = C[u][x]
  __shared__ float pixels[BLOCK][TILE_W];
  __shared__ float rows[BLOCK][TILE_W];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x = blockIdx.x * TILE_W + tx, y = blockIdx.y * BLOCK + ty;
  // The width and height are multiples of 8 and the grid covers the height exactly, so a block
  // is wholly inside the image or wholly to the right of it.
  const bool inside = x < width;
  const int first = tx & ~(BLOCK - 1), u = tx & (BLOCK - 1);
  if (ty * TILE_W + tx < BLOCK * BLOCK) {
    const int k = ty * TILE_W + tx;
    basisT[k % BLOCK][k / BLOCK] = c_basis[k];
  }
  // Blocks outside the image transform zeros (and store nothing).
  pixels[ty][tx] = inside ? image[static_cast<size_t>(y) * width + x] - 128.0f : 0.0f;
  __syncthreads();

  // Row pass: entry u of row ty of this thread's block.
  float sum = 0.0f;
#pragma unroll
  for (int k = 0; k < BLOCK; ++k) sum = fmaf(basisT[k][u], pixels[ty][first + k], sum);
  rows[ty][tx] = sum;
  __syncthreads();

  // Column pass: F[v][u] with v = ty, from the eight row results of column tx.
  sum = 0.0f;
#pragma unroll
  for (int k = 0; k < BLOCK; ++k) sum = fmaf(c_basis[ty * BLOCK + k], rows[k][tx], sum);
  if (inside) coeffs[static_cast<size_t>(y) * width + x] = sum;
}

template <int TILE_W>
__device__ __forceinline__ void inverse(const float* __restrict__ coeffs,
                                        float* __restrict__ image, int width) {
  __shared__ float basis[BLOCK][BLOCK];  // basis[u][x] = C[u][x]
  __shared__ float freq[BLOCK][TILE_W];
  __shared__ float rows[BLOCK][TILE_W];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x = blockIdx.x * TILE_W + tx, y = blockIdx.y * BLOCK + ty;
  const bool inside = x < width;
  const int first = tx & ~(BLOCK - 1), px = tx & (BLOCK - 1);
  if (ty * TILE_W + tx < BLOCK * BLOCK) {
    const int k = ty * TILE_W + tx;
    basis[k / BLOCK][k % BLOCK] = c_basis[k];
  }
  freq[ty][tx] = inside ? coeffs[static_cast<size_t>(y) * width + x] : 0.0f;
  __syncthreads();

  // Row pass: sum over u of C[u][px] F[ty][u].
  float sum = 0.0f;
#pragma unroll
  for (int k = 0; k < BLOCK; ++k) sum = fmaf(basis[k][px], freq[ty][first + k], sum);
  rows[ty][tx] = sum;
  __syncthreads();

  // Column pass: sum over v of C[v][ty] rows[v][tx], then undo the level shift.
  sum = 0.0f;
#pragma unroll
  for (int k = 0; k < BLOCK; ++k) sum = fmaf(c_basis[k * BLOCK + ty], rows[k][tx], sum);
  if (inside) image[static_cast<size_t>(y) * width + x] = sum + 128.0f;
}

#define DCT8X8_KERNELS(SUFFIX, TILE_W)                                                        \
  extern "C" __global__ void dct8x8_forward##SUFFIX(const float* __restrict__ image,         \
                                                    float* __restrict__ coeffs, int width) { \
    forward<TILE_W>(image, coeffs, width);                                                   \
  }                                                                                          \
  extern "C" __global__ void dct8x8_inverse##SUFFIX(const float* __restrict__ coeffs,        \
                                                    float* __restrict__ image, int width) {  \
    inverse<TILE_W>(coeffs, image, width);                                                   \
  }

DCT8X8_KERNELS(, 32)  // the default: 256 threads
DCT8X8_KERNELS(_t64, 8)
DCT8X8_KERNELS(_t128, 16)
DCT8X8_KERNELS(_t512, 64)
DCT8X8_KERNELS(_t1024, 128)
