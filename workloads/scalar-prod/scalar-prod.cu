// nvcc-flags: -arch=compute_80 -O3
// Dot products of many pairs of float vectors, one CTA per pair.
//
// Each thread walks its pair's two vectors with a stride of the CTA's width, keeping a partial
// sum that every element updates with one fused multiply-add: the loop is a pair of global
// loads, an FMA and the address and counter increments (nvcc unrolls it four times, so the
// increments are shared by four elements). The CTA's partial sums then meet in a tree in
// shared memory, halving the active threads at each level, and thread 0 writes the pair's dot
// product.

#define THREADS 256

extern "C" __global__ void scalar_prod(const float* __restrict__ a, const float* __restrict__ b,
                                       float* __restrict__ dot, int length) {
  __shared__ float partial[THREADS];
  const int tid = threadIdx.x;
  const size_t base = static_cast<size_t>(blockIdx.x) * length;
  const float* x = a + base;
  const float* y = b + base;

  float sum = 0.0f;
  for (int i = tid; i < length; i += THREADS) sum = fmaf(x[i], y[i], sum);
  partial[tid] = sum;
  __syncthreads();

  for (int half = THREADS / 2; half > 0; half >>= 1) {
    if (tid < half) partial[tid] += partial[tid + half];
    __syncthreads();
  }
  if (tid == 0) dot[blockIdx.x] = partial[0];
}
