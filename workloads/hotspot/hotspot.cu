// nvcc-flags: -arch=compute_80 -O3
// HotSpot-style transient thermal simulation of a chip: a rows x cols grid of cell temperatures
// and a power map. One explicit time step gives every cell
//   t' = t + stepDivCap * (power + (north + south - 2t) / Ry + (east + west - 2t) / Rx
//                          + (ambient - t) / Rz),
// where a neighbour missing at the grid edge is the cell itself.
//
// Ghost zones (a "pyramid"): each 16 x 16 CTA stages a tile in shared memory that reaches
// `border` cells beyond the block of cells it owns, then runs `steps` <= border time steps in
// shared memory without touching global memory. After step i (from 1) only cells at least i
// cells inside the tile have seen correct neighbours, so the computed region shrinks by one
// cell per side per step; the owned (16 - 2 border)^2 cells are correct at the end. Tiles
// overlap, trading redundant arithmetic for fewer launches.

#define BLOCK 16

extern "C" __global__ void hotspot_pyramid(const float* __restrict__ power,
                                           const float* __restrict__ tempIn,
                                           float* __restrict__ tempOut, int rows, int cols,
                                           int border, int steps, float stepDivCap, float rx1,
                                           float ry1, float rz1, float ambient) {
  __shared__ float temp[BLOCK][BLOCK];
  __shared__ float heat[BLOCK][BLOCK];
  __shared__ float next[BLOCK][BLOCK];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int owned = BLOCK - 2 * border;
  // The tile's top-left cell in the grid: it starts `border` cells before the owned block, so
  // it can lie outside the grid.
  const int row0 = blockIdx.y * owned - border, col0 = blockIdx.x * owned - border;
  const int row = row0 + ty, col = col0 + tx;
  const bool inGrid = row >= 0 && row < rows && col >= 0 && col < cols;
  if (inGrid) {
    temp[ty][tx] = tempIn[row * cols + col];
    heat[ty][tx] = power[row * cols + col];
  }
  __syncthreads();

  // The part of the tile inside the grid. Clamping the neighbour indices to it makes a cell on
  // the grid edge its own missing neighbour; cells outside the grid are never read.
  const int top = max(0, -row0), bottom = min(BLOCK - 1, rows - 1 - row0);
  const int left = max(0, -col0), right = min(BLOCK - 1, cols - 1 - col0);
  const int n = max(ty - 1, top), s = min(ty + 1, bottom);
  const int w = max(tx - 1, left), e = min(tx + 1, right);
  const bool inside = ty >= top && ty <= bottom && tx >= left && tx <= right;

  bool computed = false;
  for (int i = 0; i < steps; ++i) {
    computed = inside && ty >= i + 1 && ty <= BLOCK - 2 - i && tx >= i + 1 && tx <= BLOCK - 2 - i;
    if (computed) {
      float t = temp[ty][tx];
      next[ty][tx] =
          t + stepDivCap * (heat[ty][tx] + (temp[s][tx] + temp[n][tx] - 2.0f * t) * ry1 +
                            (temp[ty][e] + temp[ty][w] - 2.0f * t) * rx1 + (ambient - t) * rz1);
    }
    __syncthreads();
    if (i == steps - 1) break;
    if (computed) temp[ty][tx] = next[ty][tx];
    __syncthreads();
  }
  // The last step computed every owned cell that lies in the grid.
  const bool ownedCell = ty >= border && ty < BLOCK - border && tx >= border && tx < BLOCK - border;
  if (computed && ownedCell) tempOut[row * cols + col] = next[ty][tx];
}
