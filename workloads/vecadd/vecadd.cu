// nvcc-flags: -arch=compute_80 -O3
// Element-wise vector sum c = a + b, one element per thread: the simplest streaming kernel
// (every load and store touched once, fully coalesced).

extern "C" __global__ void vecadd(const float* __restrict__ a, const float* __restrict__ b,
                                  float* __restrict__ c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
