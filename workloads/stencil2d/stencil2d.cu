// nvcc-flags: -arch=compute_80 -O3
// One explicit time step of a 2-D heat equation on an n x n chip temperature grid with a power
// source per cell (the thermal model of chip-temperature simulators): each 16 x 16 block
// stages its tile plus a one-cell halo in shared memory and computes
//   t' = t + cap * (power + (north + south - 2t) * ry + (east + west - 2t) * rx
//                   + (ambient - t) * rz),
// with a missing neighbour at the grid edge replaced by the cell itself. The host runs several
// steps, swapping the input and output grids.

#define TILE 16

struct HeatParams {
  float cap, rx, ry, rz, ambient;
};

extern "C" __global__ void heat_step(const float* __restrict__ temp,
                                     const float* __restrict__ power, float* __restrict__ next,
                                     int n, HeatParams p) {
  __shared__ float tile[TILE + 2][TILE + 2];
  int tx = threadIdx.x, ty = threadIdx.y;
  int col = blockIdx.x * TILE + tx;
  int row = blockIdx.y * TILE + ty;
  // Clamped coordinates: cells beyond the grid repeat the nearest edge cell.
  int c = min(col, n - 1), r = min(row, n - 1);
  tile[ty + 1][tx + 1] = temp[r * n + c];
  if (tx == 0) tile[ty + 1][0] = temp[r * n + max(c - 1, 0)];
  if (tx == TILE - 1) tile[ty + 1][TILE + 1] = temp[r * n + min(c + 1, n - 1)];
  if (ty == 0) tile[0][tx + 1] = temp[max(r - 1, 0) * n + c];
  if (ty == TILE - 1) tile[TILE + 1][tx + 1] = temp[min(r + 1, n - 1) * n + c];
  __syncthreads();
  if (row >= n || col >= n) return;
  // Thanks to the clamping, every neighbour slot holds the right value, the cell itself at the
  // grid edge included.
  float t = tile[ty + 1][tx + 1];
  float north = tile[ty][tx + 1], south = tile[ty + 2][tx + 1];
  float west = tile[ty + 1][tx], east = tile[ty + 1][tx + 2];
  next[row * n + col] = t + p.cap * (power[row * n + col] + (north + south - 2.0f * t) * p.ry +
                                     (east + west - 2.0f * t) * p.rx + (p.ambient - t) * p.rz);
}
