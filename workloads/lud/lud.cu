// nvcc-flags: -arch=compute_80 -O3
// Blocked LU decomposition without pivoting of an n x n row-major float matrix (n a multiple
// of 16), in place: L (unit lower, diagonal not stored) below the diagonal, U on and above it.
// Step k of the host loop runs three kernels on the trailing matrix:
//  * lud_diagonal: factors the 16 x 16 diagonal block A_kk = L_kk U_kk in shared memory;
//  * lud_perimeter: solves the blocks right of it (U_kj = L_kk^-1 A_kj, forward substitution
//    down each column) and below it (L_ik = A_ik U_kk^-1, one row per thread);
//  * lud_internal: A_ij -= L_ik U_kj for every trailing block, tiles in shared memory.

#define B 16

extern "C" __global__ void lud_diagonal(float* __restrict__ a, int n, int k) {
  __shared__ float t[B][B];
  int tx = threadIdx.x, ty = threadIdx.y;
  int base = k * B;
  t[ty][tx] = a[(base + ty) * n + base + tx];
  __syncthreads();
  for (int i = 0; i < B - 1; ++i) {
    if (tx == i && ty > i) t[ty][i] /= t[i][i];
    __syncthreads();
    if (ty > i && tx > i) t[ty][tx] -= t[ty][i] * t[i][tx];
    __syncthreads();
  }
  a[(base + ty) * n + base + tx] = t[ty][tx];
}

// gridDim.x = 2 * (trailing blocks): the first half handles the blocks right of the diagonal
// block, the second half those below it.
extern "C" __global__ void lud_perimeter(float* __restrict__ a, int n, int k) {
  __shared__ float diag[B][B];
  __shared__ float tile[B][B];
  int tx = threadIdx.x, ty = threadIdx.y;
  int base = k * B;
  int trailing = gridDim.x / 2;
  bool right = blockIdx.x < trailing;
  int other = base + B + (right ? blockIdx.x : blockIdx.x - trailing) * B;
  int row = right ? base + ty : other + ty;
  int col = right ? other + tx : base + tx;
  diag[ty][tx] = a[(base + ty) * n + base + tx];
  tile[ty][tx] = a[row * n + col];
  __syncthreads();
  if (ty == 0) {
    if (right) {
      // Column tx of U_kj: forward substitution with the unit lower L_kk.
      for (int i = 1; i < B; ++i) {
        float v = tile[i][tx];
        for (int m = 0; m < i; ++m) v -= diag[i][m] * tile[m][tx];
        tile[i][tx] = v;
      }
    } else {
      // Row tx of L_ik: solve x U_kk = a along the columns.
      for (int j = 0; j < B; ++j) {
        float v = tile[tx][j];
        for (int m = 0; m < j; ++m) v -= tile[tx][m] * diag[m][j];
        tile[tx][j] = v / diag[j][j];
      }
    }
  }
  __syncthreads();
  a[row * n + col] = tile[ty][tx];
}

// gridDim = (trailing blocks, trailing blocks).
extern "C" __global__ void lud_internal(float* __restrict__ a, int n, int k) {
  __shared__ float left[B][B];
  __shared__ float up[B][B];
  int tx = threadIdx.x, ty = threadIdx.y;
  int base = k * B;
  int row = base + B + blockIdx.y * B + ty;
  int col = base + B + blockIdx.x * B + tx;
  left[ty][tx] = a[row * n + base + tx];
  up[ty][tx] = a[(base + ty) * n + col];
  __syncthreads();
  float sum = 0.0f;
#pragma unroll
  for (int m = 0; m < B; ++m) sum += left[ty][m] * up[m][tx];
  a[row * n + col] -= sum;
}
