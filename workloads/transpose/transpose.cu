// nvcc-flags: -arch=compute_80 -O3
// Matrix transpose of a rows x cols float matrix, two ways:
//  * transpose_tiled: a 32 x 32 tile goes through shared memory so that both the global reads
//    and the global writes are coalesced; the tile has one padding column so that reading a
//    column of it touches 32 different banks.
//  * transpose_naive: reads rows, writes columns directly (uncoalesced writes).

#define TILE 32
#define ROWS_PER_PASS 8  // blockDim = (32, 8): each thread moves 4 elements of a tile

extern "C" __global__ void transpose_tiled(const float* __restrict__ in, float* __restrict__ out,
                                           int rows, int cols) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;  // column in `in`
  int y = blockIdx.y * TILE + threadIdx.y;  // row in `in`
  for (int j = 0; j < TILE; j += ROWS_PER_PASS) {
    if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
  }
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;  // column in `out` (a row of `in`)
  y = blockIdx.x * TILE + threadIdx.y;  // row in `out`
  for (int j = 0; j < TILE; j += ROWS_PER_PASS) {
    if (x < rows && y + j < cols) out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
  }
}

extern "C" __global__ void transpose_naive(const float* __restrict__ in, float* __restrict__ out,
                                           int rows, int cols) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < cols && y < rows) out[x * rows + y] = in[y * cols + x];
}
