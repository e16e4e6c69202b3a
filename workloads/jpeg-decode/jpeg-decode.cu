// nvcc-flags: -arch=compute_80 -O3
// The decoding of a baseline JPEG image after the entropy decoder: for every 8 x 8 block, the 64
// quantised DCT coefficients (16-bit, in zigzag order, as the entropy decoder produces them) are
// multiplied by the quantisation table (also in zigzag order, as in the file's DQT segment),
// put in natural order, transformed back by a separable fixed-point inverse DCT, shifted up by
// 128 and clamped to 8-bit pixels.
//
// Fixed point: the basis C[u][x] = a(u) cos((2x + 1) u pi / 16) (a(0) = sqrt(1/8), else 1/2) is
// used as round(C * 2^13). The row pass keeps 3 fraction bits (its sums are shifted right by
// 10 with rounding), the column pass removes the rest (shift by 16 with rounding); the shifts
// are arithmetic, so every step is exact integer arithmetic a CPU can repeat.
//
// A CTA of 256 threads decodes four consecutive blocks (raster order), a thread per coefficient
// and then per pixel: thread t works on block t / 64 of the four, in the dequantisation on
// zigzag position t % 64, in the passes on row (t / 8) % 8 and column t % 8.

#define BLOCKS_PER_CTA 4
#define ROW_BITS 10  // 13 - 3
#define COL_BITS 16  // 13 + 3

extern "C" __global__ void jpeg_idct(const short* __restrict__ coeffs,
                                     const int* __restrict__ quant, const int* __restrict__ zigzag,
                                     const int* __restrict__ basis, int blocksAcross, int blocks,
                                     unsigned char* __restrict__ image) {
  __shared__ int c[64];                     // c[u * 8 + x] = round(C[u][x] * 2^13)
  __shared__ int freq[BLOCKS_PER_CTA][64];  // dequantised, natural order
  __shared__ int rows[BLOCKS_PER_CTA][64];  // after the row pass, 3 fraction bits
  const int t = threadIdx.x, local = t >> 6;
  const int block = blockIdx.x * BLOCKS_PER_CTA + local;
  const bool inside = block < blocks;
  if (t < 64) c[t] = basis[t];
  const int k = t & 63;
  freq[local][zigzag[k]] = inside ? coeffs[static_cast<size_t>(block) * 64 + k] * quant[k] : 0;
  __syncthreads();

  const int y = (t >> 3) & 7, x = t & 7;
  int sum = 0;
#pragma unroll
  for (int u = 0; u < 8; ++u) sum += c[u * 8 + x] * freq[local][y * 8 + u];
  rows[local][y * 8 + x] = (sum + (1 << (ROW_BITS - 1))) >> ROW_BITS;
  __syncthreads();

  sum = 0;
#pragma unroll
  for (int v = 0; v < 8; ++v) sum += c[v * 8 + y] * rows[local][v * 8 + x];
  const int pixel = ((sum + (1 << (COL_BITS - 1))) >> COL_BITS) + 128;
  if (inside) {
    const int bx = block % blocksAcross, by = block / blocksAcross;
    image[static_cast<size_t>(by * 8 + y) * (blocksAcross * 8) + bx * 8 + x] =
        static_cast<unsigned char>(min(255, max(0, pixel)));
  }
}
