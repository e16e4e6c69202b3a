// nvcc-flags: -arch=compute_80 -O3
// Jacobi iterations for the 3-D Laplace equation on an nx x ny x nz grid with fixed (Dirichlet)
// boundary values: every interior point becomes the mean of its six neighbours,
//   u'(i,j,k) = (u(i-1,j,k) + u(i+1,j,k) + u(i,j-1,k) + u(i,j+1,k) + u(i,j,k-1) + u(i,j,k+1)) / 6,
// and boundary points are copied, so that both grids of the ping-pong pair keep the boundary.
// One launch per iteration; a 2-D thread block covers an x-y tile and every thread marches
// along z with the points below, at and above it in registers. The in-plane neighbours come
// straight from global memory (no shared memory: neighbouring threads' loads meet in L1).

#define SIXTH (1.0f / 6.0f)

extern "C" __global__ void laplace3d_jacobi(const float* __restrict__ u, float* __restrict__ next,
                                            int nx, int ny, int nz) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= nx || j >= ny) return;
  const size_t plane = static_cast<size_t>(nx) * ny;
  size_t at = static_cast<size_t>(j) * nx + i;
  const bool side = i == 0 || i == nx - 1 || j == 0 || j == ny - 1;
  float below = u[at], here = u[at + plane];
  next[at] = below;  // the bottom face
  for (int k = 1; k < nz - 1; ++k) {
    at += plane;
    const float above = u[at + plane];
    if (side) {
      next[at] = here;
    } else {
      next[at] = (u[at - 1] + u[at + 1] + u[at - nx] + u[at + nx] + below + above) * SIXTH;
    }
    below = here;
    here = above;
  }
  next[at + plane] = here;  // the top face
}
