// nvcc-flags: -arch=compute_80 -O3
// Speckle-reducing anisotropic diffusion (Yu and Acton, 2002) of a rows x cols image, one
// iteration as two kernels:
//  * srad_coefficient: per pixel, the four directional differences to the neighbours (edge
//    pixels use themselves) and the diffusion coefficient c from the instantaneous coefficient
//    of variation q against the speckle scale q0;
//  * srad_update: J += lambda / 4 * divergence, where the flux through each face uses the
//    coefficient of the pixel on its south/east side.
// q0^2 shrinks with the diffusion time and is passed in by the host.

extern "C" __global__ void srad_coefficient(const float* __restrict__ image, int rows, int cols,
                                            float q0sqr, float* __restrict__ dNorth,
                                            float* __restrict__ dSouth, float* __restrict__ dWest,
                                            float* __restrict__ dEast, float* __restrict__ coeff) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= rows || col >= cols) return;
  int at = row * cols + col;
  float j = image[at];
  float n = image[max(row - 1, 0) * cols + col] - j;
  float s = image[min(row + 1, rows - 1) * cols + col] - j;
  float w = image[row * cols + max(col - 1, 0)] - j;
  float e = image[row * cols + min(col + 1, cols - 1)] - j;
  float gradient2 = (n * n + s * s + w * w + e * e) / (j * j);
  float laplacian = (n + s + w + e) / j;
  float num = 0.5f * gradient2 - 0.0625f * laplacian * laplacian;
  float den = 1.0f + 0.25f * laplacian;
  float qsqr = num / (den * den);
  float c = 1.0f / (1.0f + (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr)));
  c = fminf(fmaxf(c, 0.0f), 1.0f);
  dNorth[at] = n;
  dSouth[at] = s;
  dWest[at] = w;
  dEast[at] = e;
  coeff[at] = c;
}

extern "C" __global__ void srad_update(float* __restrict__ image, int rows, int cols,
                                       float lambda, const float* __restrict__ dNorth,
                                       const float* __restrict__ dSouth,
                                       const float* __restrict__ dWest,
                                       const float* __restrict__ dEast,
                                       const float* __restrict__ coeff) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= rows || col >= cols) return;
  int at = row * cols + col;
  float cHere = coeff[at];
  float cSouth = coeff[min(row + 1, rows - 1) * cols + col];
  float cEast = coeff[row * cols + min(col + 1, cols - 1)];
  float divergence = cHere * dNorth[at] + cSouth * dSouth[at] + cHere * dWest[at] +
                     cEast * dEast[at];
  image[at] += 0.25f * lambda * divergence;
}
