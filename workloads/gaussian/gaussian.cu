// nvcc-flags: -arch=compute_80 -O3
// Gaussian elimination without pivoting on an n x (n + 1) augmented row-major matrix [A | b],
// two kernels per elimination step k:
//  * gauss_multipliers: m_ik = a_ik / a_kk for the rows below k, stored in place of a_ik;
//  * gauss_eliminate: a_ij -= m_ik a_kj for the rows below k and the columns right of k,
//    the right-hand side included (one thread per element, 16 x 16 blocks).
// What is left is L (multipliers) below the diagonal and the upper triangular system [U | c].

extern "C" __global__ void gauss_multipliers(float* __restrict__ m, int n, int k) {
  int stride = n + 1;
  int i = k + 1 + blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) m[i * stride + k] /= m[k * stride + k];
}

extern "C" __global__ void gauss_eliminate(float* __restrict__ m, int n, int k) {
  int stride = n + 1;
  int j = k + 1 + blockIdx.x * blockDim.x + threadIdx.x;  // up to n: the right-hand side
  int i = k + 1 + blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j <= n) m[i * stride + j] -= m[i * stride + k] * m[k * stride + j];
}
