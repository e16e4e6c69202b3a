// nvcc-flags: -arch=compute_80 -O3
// 64-bin histograms of bytes: privatised in shared memory (shared atomics, then one global
// atomic per bin and block) and directly in global memory (all threads contend on few bins).
#define BINS 64

extern "C" __global__ void histogram_shared(const unsigned char* data, int n, unsigned* bins) {
  __shared__ unsigned local[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&local[data[i] % BINS], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    if (local[b] != 0) atomicAdd(&bins[b], local[b]);
}

extern "C" __global__ void histogram_global(const unsigned char* data, int n, unsigned* bins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&bins[data[i] % BINS], 1u);
}
