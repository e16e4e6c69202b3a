// nvcc-flags: -arch=compute_80 -O3
// C = alpha * A * B + beta * C for row-major n x n double-precision matrices with 16 x 16
// shared-memory tiles. Each thread computes a 1 x 2 strip of C (block 16 x 8 threads covers a
// 16 x 16 tile), so one staged element of B serves two accumulators.

#define TILE 16

extern "C" __global__ void dgemm_tiled(int n, double alpha, const double* __restrict__ a,
                                       const double* __restrict__ b, double beta,
                                       double* __restrict__ c) {
  __shared__ double tileA[TILE][TILE];
  __shared__ double tileB[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;  // blockDim = (16, 8)
  int col = blockIdx.x * TILE + tx;
  int row0 = blockIdx.y * TILE + ty;
  int row1 = row0 + TILE / 2;
  double sum0 = 0.0, sum1 = 0.0;
  for (int k0 = 0; k0 < n; k0 += TILE) {
    for (int r = ty; r < TILE; r += TILE / 2) {
      int rowA = blockIdx.y * TILE + r;
      tileA[r][tx] = (rowA < n && k0 + tx < n) ? a[rowA * n + k0 + tx] : 0.0;
      tileB[r][tx] = (k0 + r < n && col < n) ? b[(k0 + r) * n + col] : 0.0;
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k) {
      double bk = tileB[k][tx];
      sum0 += tileA[ty][k] * bk;
      sum1 += tileA[ty + TILE / 2][k] * bk;
    }
    __syncthreads();
  }
  if (col < n) {
    if (row0 < n) c[row0 * n + col] = alpha * sum0 + beta * c[row0 * n + col];
    if (row1 < n) c[row1 * n + col] = alpha * sum1 + beta * c[row1 * n + col];
  }
}

// dgemm_blocked_t256: the register-blocked variant that a resource specification of 256 threads
// per CTA selects, in the style of Volkov & Demmel's GEMM and of the MAGMA DGEMM tuned for Fermi
// that the unified-storage study runs (Gebhart, ch. 7: 64 registers per thread without spills,
// two shared-memory tiles, more than 16 KB of shared memory per CTA). n must be a multiple of 64
// (the driver pads the matrices with zeros).
//
// A CTA of 16 x 16 threads computes a 64 x 64 tile of C, each thread a 4 x 4 block of doubles
// held in registers (16 accumulators: 32 of the 32-bit registers) at rows ty + 16 i and columns
// tx + 16 j, so that the B reads and the C stores are consecutive across tx. The k dimension
// advances in slices of 16: the CTA stages A's slice (64 x 16, transposed) and B's (16 x 64) in
// shared memory, each row padded by one double (2 x 16 x 65 x 8 = 16640 bytes), and each thread
// reads four A and four B values per k into registers for its 16 FMAs (two FMAs per shared load;
// dgemm_tiled does two per three). Every accumulator adds its products in ascending k with
// FMAs, as dgemm_tiled does, so the results are the same to the bit.
#define BLK_DIM 16                // threads per CTA edge
#define BLK_EDGE (4 * BLK_DIM)    // edge of the CTA's tile of C
#define BLK_K 16                  // k per slice
#define BLK_LOADS 4               // elements of each slice a thread stages: 64 x 16 / 256

extern "C" __global__ void dgemm_blocked_t256(int n, double alpha, const double* __restrict__ a,
                                              const double* __restrict__ b, double beta,
                                              double* __restrict__ c) {
  __shared__ double sliceA[BLK_K][BLK_EDGE + 1];  // sliceA[k][r] = A(row0 + r, k0 + k)
  __shared__ double sliceB[BLK_K][BLK_EDGE + 1];  // sliceB[k][c] = B(k0 + k, col0 + c)
  const int tx = threadIdx.x, ty = threadIdx.y;   // blockDim = (16, 16)
  const int t = ty * BLK_DIM + tx;
  const int row0 = blockIdx.y * BLK_EDGE, col0 = blockIdx.x * BLK_EDGE;
  double acc[4][4];
#pragma unroll
  for (int i = 0; i < 4; ++i) {
#pragma unroll
    for (int j = 0; j < 4; ++j) acc[i][j] = 0.0;
  }
  // What this thread stages of each slice: four elements of one row of A's (row t / 4, k = t % 4
  // + 4 l) and four of one row of B's (k = t / 16, columns t % 16 + 16 l), so that one pointer
  // into each matrix serves all four loads. A warp's loads take whole 32-byte sectors: eight
  // rows' sector l of A, two rows' 128 consecutive bytes of B.
  constexpr int PER_ROW_A = BLK_K / BLK_LOADS, PER_ROW_B = BLK_EDGE / BLK_LOADS;
  const int kA = t % PER_ROW_A, rA = t / PER_ROW_A;
  const int cB = t % PER_ROW_B, kB = t / PER_ROW_B;
  const double* aAt = a + (row0 + rA) * n + kA;  // A(row0 + rA, k0 + kA)
  const double* bAt = b + kB * n + col0 + cB;    // B(k0 + kB, col0 + cB)
  for (int k0 = 0; k0 < n; k0 += BLK_K) {
#pragma unroll
    for (int l = 0; l < BLK_LOADS; ++l) sliceA[kA + l * PER_ROW_A][rA] = aAt[l * PER_ROW_A];
#pragma unroll
    for (int l = 0; l < BLK_LOADS; ++l) sliceB[kB][cB + l * PER_ROW_B] = bAt[l * PER_ROW_B];
    aAt += BLK_K;
    bAt += BLK_K * n;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BLK_K; ++k) {
      double fa[4], fb[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) fa[i] = sliceA[k][ty + BLK_DIM * i];
#pragma unroll
      for (int j = 0; j < 4; ++j) fb[j] = sliceB[k][tx + BLK_DIM * j];
#pragma unroll
      for (int i = 0; i < 4; ++i) {
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] += fa[i] * fb[j];
      }
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const int row = row0 + ty + BLK_DIM * i;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int col = col0 + tx + BLK_DIM * j;
      c[row * n + col] = alpha * acc[i][j] + beta * c[row * n + col];
    }
  }
}
