// nvcc-flags: -arch=compute_80 -O3
// Parallel cyclic reduction (PCR): many independent tridiagonal systems
//   a[i] x[i-1] + b[i] x[i] + c[i] x[i+1] = d[i],   i = 0 .. n-1,  a[0] = c[n-1] = 0,
// solved a few systems per CTA, all in shared memory. Each PCR step with stride s replaces
// every equation i by itself minus k1 times equation i-s and k2 times equation i+s, with
// k1 = a[i] / b[i-s] and k2 = c[i] / b[i+s], chosen so that x[i-s] and x[i+s] drop out: the
// new equation couples x[i] to x[i-2s] and x[i+2s]. A neighbour outside the system is the
// identity equation (0, 1, 0, 0), so it contributes nothing. After log2(n) steps (strides 1, 2,
// ..., n/2) every equation holds x[i] alone and x[i] = d[i] / b[i].
//
// Layout: the CTA's systems are consecutive, `eqs` = systems per CTA x n equations, stored as
// four arrays (a, b, c, d) of `eqs` floats, so that consecutive lanes touch consecutive words
// (no bank conflicts, also for the neighbours at i +- s). Two such buffers: each step reads one
// and writes the other, so a step needs one barrier, and a thread may own several equations
// (equations tid, tid + blockDim.x, ...): shared memory per CTA is 32 bytes per equation.
// n is a power of two; a CTA past the last system (a partly filled last CTA) solves identity
// equations and writes nothing.

extern "C" __global__ void pcr_solve(const float* __restrict__ a, const float* __restrict__ b,
                                     const float* __restrict__ c, const float* __restrict__ d,
                                     float* __restrict__ x, int totalEquations, int n,
                                     int eqs) {
  extern __shared__ float buffers[];  // [2][4][eqs]: a, b, c, d of the two ping-pong buffers
  const int first = blockIdx.x * eqs;  // the CTA's first equation in the global arrays

  // The CTA's equations into buffer 0.
  for (int q = threadIdx.x; q < eqs; q += blockDim.x) {
    const int g = first + q;
    const bool real = g < totalEquations;
    buffers[q] = real ? a[g] : 0.0f;
    buffers[eqs + q] = real ? b[g] : 1.0f;
    buffers[2 * eqs + q] = real ? c[g] : 0.0f;
    buffers[3 * eqs + q] = real ? d[g] : 0.0f;
  }
  __syncthreads();

  // log2(n) reduction steps, ping-ponging between the two buffers.
  int from = 0;
  for (int stride = 1; stride < n; stride <<= 1) {
    const float* src = buffers + from * 4 * eqs;
    float* dst = buffers + (from ^ 1) * 4 * eqs;
    for (int q = threadIdx.x; q < eqs; q += blockDim.x) {
      const int row = q & (n - 1);
      const float ai = src[q], bi = src[eqs + q], ci = src[2 * eqs + q], di = src[3 * eqs + q];
      float am = 0.0f, bm = 1.0f, cm = 0.0f, dm = 0.0f;  // equation i - stride
      if (row >= stride) {
        const int m = q - stride;
        am = src[m];
        bm = src[eqs + m];
        cm = src[2 * eqs + m];
        dm = src[3 * eqs + m];
      }
      float ap = 0.0f, bp = 1.0f, cp = 0.0f, dp = 0.0f;  // equation i + stride
      if (row + stride < n) {
        const int p = q + stride;
        ap = src[p];
        bp = src[eqs + p];
        cp = src[2 * eqs + p];
        dp = src[3 * eqs + p];
      }
      const float k1 = ai / bm;
      const float k2 = ci / bp;
      dst[q] = -am * k1;
      dst[eqs + q] = bi - cm * k1 - ap * k2;
      dst[2 * eqs + q] = -cp * k2;
      dst[3 * eqs + q] = di - dm * k1 - dp * k2;
    }
    __syncthreads();
    from ^= 1;
  }

  // Every equation is now b[i] x[i] = d[i].
  const float* last = buffers + from * 4 * eqs;
  for (int q = threadIdx.x; q < eqs; q += blockDim.x) {
    const int g = first + q;
    if (g < totalEquations) x[g] = last[3 * eqs + q] / last[eqs + q];
  }
}
