// Atomics on global and shared memory of several types and operations.
__device__ unsigned long long g_counter;

__global__ void histogram(const unsigned char* data, int n, unsigned* bins, float* fsum,
                          double* dsum) {
  __shared__ unsigned local[16];
  if (threadIdx.x < 16) local[threadIdx.x] = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(&local[data[i] & 15], 1u);
    atomicAdd(fsum, 1.5f);
    atomicAdd(dsum, 2.0);
    atomicMax(&bins[16], (unsigned)data[i]);
    atomicCAS(&bins[17], 0u, (unsigned)i);
    atomicExch(&bins[18], 7u);
    atomicInc(&bins[19], 100u);
    atomicOr(&bins[20], 1u << (i & 31));
    atomicAdd(&g_counter, 1ull);
  }
  __syncthreads();
  if (threadIdx.x < 16) atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}
