// nvcc-flags: -arch=compute_80 -O3
// C = alpha * A * B + beta * C for row-major n x n single-precision matrices. Each 16 x 16
// thread block stages one 16 x 16 tile of A and one of B in shared memory per step along k, so
// every element loaded from global memory is reused 16 times from shared memory.

#define TILE 16

extern "C" __global__ void sgemm_tiled(int n, float alpha, const float* __restrict__ a,
                                       const float* __restrict__ b, float beta,
                                       float* __restrict__ c) {
  __shared__ float tileA[TILE][TILE];
  __shared__ float tileB[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float sum = 0.0f;
  for (int k0 = 0; k0 < n; k0 += TILE) {
    // Out-of-range elements load as zero so partial tiles need no special case below.
    tileA[ty][tx] = (row < n && k0 + tx < n) ? a[row * n + k0 + tx] : 0.0f;
    tileB[ty][tx] = (k0 + ty < n && col < n) ? b[(k0 + ty) * n + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k) sum += tileA[ty][k] * tileB[k][tx];
    __syncthreads();
  }
  if (row < n && col < n) c[row * n + col] = alpha * sum + beta * c[row * n + col];
}
