// nvcc-flags: -arch=compute_80 -O3
// One Jacobi sweep of a 7-point stencil on an nx x ny x nz float grid:
//   out = c0 * centre + c1 * (sum of the six face neighbours)
// on interior cells; boundary cells are copied (fixed boundary values). A 32 x 8 block covers
// an x-y tile and marches along z, keeping the cells below and above in registers and the
// current plane (with a one-cell halo) in shared memory. The host runs several sweeps,
// swapping the grids.

#define BX 32
#define BY 8

extern "C" __global__ void stencil7_sweep(const float* __restrict__ in, float* __restrict__ out,
                                          int nx, int ny, int nz, float c0, float c1) {
  __shared__ float plane[BY + 2][BX + 2];
  int x = blockIdx.x * BX + threadIdx.x;
  int y = blockIdx.y * BY + threadIdx.y;
  int sx = threadIdx.x + 1, sy = threadIdx.y + 1;
  bool inside = x < nx && y < ny;
  size_t planeSize = static_cast<size_t>(nx) * ny;
  size_t at = static_cast<size_t>(y) * nx + x;
  float below = 0.0f;
  float centre = inside ? in[at] : 0.0f;
  float above = (inside && nz > 1) ? in[planeSize + at] : 0.0f;
  for (int z = 0; z < nz; ++z) {
    __syncthreads();  // everyone is done reading the previous plane
    plane[sy][sx] = centre;
    // Halo cells; those outside the grid are never read (only interior cells use neighbours).
    size_t zAt = z * planeSize + at;
    if (inside) {
      if (threadIdx.x == 0 && x > 0) plane[sy][0] = in[zAt - 1];
      if (threadIdx.x == BX - 1 && x + 1 < nx) plane[sy][BX + 1] = in[zAt + 1];
      if (threadIdx.y == 0 && y > 0) plane[0][sx] = in[zAt - nx];
      if (threadIdx.y == BY - 1 && y + 1 < ny) plane[BY + 1][sx] = in[zAt + nx];
    }
    __syncthreads();
    if (inside) {
      bool interior = x > 0 && x < nx - 1 && y > 0 && y < ny - 1 && z > 0 && z < nz - 1;
      float v = centre;
      if (interior) {
        v = c0 * centre + c1 * (plane[sy][sx - 1] + plane[sy][sx + 1] + plane[sy - 1][sx] +
                                plane[sy + 1][sx] + below + above);
      }
      out[zAt] = v;
    }
    below = centre;
    centre = above;
    above = (inside && z + 2 < nz) ? in[zAt + 2 * planeSize] : 0.0f;
  }
}
