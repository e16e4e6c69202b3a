// nvcc-flags: -arch=compute_80 -O3
// Separable 2-D convolution of a width x height float image with a 17-tap filter held in
// constant memory (every thread of a warp reads the same tap at the same time: the broadcast
// case constant caches are built for). A row pass and a column pass, each staging its input
// tile plus an 8-pixel apron in shared memory; pixels outside the image count as zero.

#define RADIUS 8
#define TAPS (2 * RADIUS + 1)

__constant__ float c_filter[TAPS];

// Row pass: blockDim = (32, 8); a block produces 8 rows x 128 columns (4 pixels per thread).
#define ROW_TILE_W 128
#define ROW_TILE_H 8

extern "C" __global__ void conv_rows(const float* __restrict__ in, float* __restrict__ out,
                                     int width, int height) {
  __shared__ float tile[ROW_TILE_H][ROW_TILE_W + 2 * RADIUS];
  int x0 = blockIdx.x * ROW_TILE_W;
  int y = blockIdx.y * ROW_TILE_H + threadIdx.y;
  for (int i = threadIdx.x; i < ROW_TILE_W + 2 * RADIUS; i += blockDim.x) {
    int x = x0 - RADIUS + i;
    tile[threadIdx.y][i] = (y < height && x >= 0 && x < width) ? in[y * width + x] : 0.0f;
  }
  __syncthreads();
  if (y >= height) return;
  for (int p = threadIdx.x; p < ROW_TILE_W; p += blockDim.x) {
    int x = x0 + p;
    if (x >= width) break;
    float sum = 0.0f;
#pragma unroll
    for (int k = 0; k < TAPS; ++k) sum += c_filter[k] * tile[threadIdx.y][p + k];
    out[y * width + x] = sum;
  }
}

// Column pass: blockDim = (32, 8); a block produces 32 rows x 32 columns (4 pixels per
// thread).
#define COL_TILE_W 32
#define COL_TILE_H 32

extern "C" __global__ void conv_columns(const float* __restrict__ in, float* __restrict__ out,
                                        int width, int height) {
  __shared__ float tile[COL_TILE_H + 2 * RADIUS][COL_TILE_W];
  int x = blockIdx.x * COL_TILE_W + threadIdx.x;
  int y0 = blockIdx.y * COL_TILE_H;
  for (int i = threadIdx.y; i < COL_TILE_H + 2 * RADIUS; i += blockDim.y) {
    int y = y0 - RADIUS + i;
    tile[i][threadIdx.x] = (x < width && y >= 0 && y < height) ? in[y * width + x] : 0.0f;
  }
  __syncthreads();
  if (x >= width) return;
  for (int p = threadIdx.y; p < COL_TILE_H; p += blockDim.y) {
    int y = y0 + p;
    if (y >= height) break;
    float sum = 0.0f;
#pragma unroll
    for (int k = 0; k < TAPS; ++k) sum += c_filter[k] * tile[p + k][threadIdx.x];
    out[y * width + x] = sum;
  }
}
