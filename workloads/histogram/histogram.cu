// nvcc-flags: -arch=compute_80 -O3
// 256-bin histogram of bytes. histogram_blocks gives every block a private histogram in shared
// memory, filled with shared-memory atomics over a grid-stride slice of the input (four bytes
// per load), and writes it out as one row of a blocks x 256 table; histogram_merge adds the
// rows up, one thread per bin.

#define BINS 256

extern "C" __global__ void histogram_blocks(const unsigned* __restrict__ words, int numWords,
                                            unsigned* __restrict__ partial) {
  __shared__ unsigned bins[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) bins[b] = 0;
  __syncthreads();
  int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < numWords; i += stride) {
    unsigned w = words[i];
    atomicAdd(&bins[w & 0xff], 1u);
    atomicAdd(&bins[(w >> 8) & 0xff], 1u);
    atomicAdd(&bins[(w >> 16) & 0xff], 1u);
    atomicAdd(&bins[w >> 24], 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) partial[blockIdx.x * BINS + b] = bins[b];
}

extern "C" __global__ void histogram_merge(const unsigned* __restrict__ partial, int rows,
                                           unsigned* __restrict__ histogram) {
  int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= BINS) return;
  unsigned total = 0;
  for (int r = 0; r < rows; ++r) total += partial[r * BINS + b];
  histogram[b] = total;
}
