// nvcc-flags: -arch=compute_80 -O3
// Needleman-Wunsch global alignment scores of two sequences of length n (a multiple of the tile
// edge): score[i][j] = max(score[i-1][j-1] + substitution(a_i, b_j), score[i-1][j] - gap,
// score[i][j-1] - gap) on an (n + 1) x (n + 1) matrix whose first row and column are set by
// the host. The matrix is cut into TILE x TILE tiles; the host launches one kernel per
// anti-diagonal of tiles, and inside a tile a CTA of TILE threads, one per tile row, sweeps the
// 2 TILE - 1 anti-diagonals of cells in shared memory. The substitution table is in constant
// memory (indexed by data: lanes read different entries).
//
// The tile edge is the blocking factor of Rodinia's needle, which the unified-storage study
// varies (a bigger tile: fewer launches and fewer tile borders through global memory, but
// (TILE + 1)^2 + 2 TILE words of shared memory per CTA). It is a template parameter so that each
// edge gets a kernel compiled for it, as a programmer would write it: nw_tile_diagonal is the
// 32-wide one (the default), nw_tile_diagonal_b16 and nw_tile_diagonal_b64 the others.

#define SYMBOLS 24

__constant__ int c_substitution[SYMBOLS * SYMBOLS];

// blockDim = (TILE, 1, 1); tile (firstTileRow + blockIdx.x, diagonal - that) of the matrix.
template <int TILE>
__device__ __forceinline__ void tileDiagonal(int* __restrict__ score, const int* __restrict__ a,
                                             const int* __restrict__ b, int n, int diagonal,
                                             int firstTileRow, int gap) {
  __shared__ int s[TILE + 1][TILE + 1];
  __shared__ int symbolA[TILE];
  __shared__ int symbolB[TILE];
  int t = threadIdx.x;
  int tileRow = firstTileRow + blockIdx.x;
  int tileCol = diagonal - tileRow;
  int row0 = tileRow * TILE, col0 = tileCol * TILE;  // cell (row0, col0) is above-left of the tile
  int stride = n + 1;
  // The tile's top row and left column come from the tiles above and to the left.
  s[0][t + 1] = score[row0 * stride + col0 + 1 + t];
  s[t + 1][0] = score[(row0 + 1 + t) * stride + col0];
  if (t == 0) s[0][0] = score[row0 * stride + col0];
  symbolA[t] = a[row0 + t];
  symbolB[t] = b[col0 + t];
  __syncthreads();
  for (int d = 0; d < 2 * TILE - 1; ++d) {
    int i = t, j = d - t;  // cell (i + 1, j + 1) of the tile
    if (j >= 0 && j < TILE) {
      int match = s[i][j] + c_substitution[symbolA[i] * SYMBOLS + symbolB[j]];
      int up = s[i][j + 1] - gap, left = s[i + 1][j] - gap;
      s[i + 1][j + 1] = max(match, max(up, left));
    }
    __syncthreads();
  }
  for (int i = 0; i < TILE; ++i) score[(row0 + 1 + i) * stride + col0 + 1 + t] = s[i + 1][t + 1];
}

#define NW_KERNEL(SUFFIX, TILE)                                                                   \
  extern "C" __global__ void nw_tile_diagonal##SUFFIX(                                            \
      int* __restrict__ score, const int* __restrict__ a, const int* __restrict__ b, int n,       \
      int diagonal, int firstTileRow, int gap) {                                                  \
    tileDiagonal<TILE>(score, a, b, n, diagonal, firstTileRow, gap);                              \
  }

NW_KERNEL(_b16, 16)
NW_KERNEL(, 32)
NW_KERNEL(_b64, 64)
