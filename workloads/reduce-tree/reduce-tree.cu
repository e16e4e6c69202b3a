// nvcc-flags: -arch=compute_80 -O3
// Sum of a vector of 32-bit unsigned integers (modulo 2^32) by a tree in shared memory: each
// block sums 2 * blockDim.x inputs into one partial sum, halving the active threads at each
// level with a barrier between levels. The host launches it again on the partial sums until one
// value is left. The shared array is dynamic: blockDim.x words.

extern "C" __global__ void reduce_tree(const unsigned* __restrict__ in, unsigned* __restrict__ out,
                                       int n) {
  extern __shared__ unsigned partial[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x * 2 + tid;
  unsigned v = 0;
  if (i < n) v = in[i];
  if (i + blockDim.x < n) v += in[i + blockDim.x];
  partial[tid] = v;
  __syncthreads();
  for (unsigned half = blockDim.x / 2; half > 0; half >>= 1) {
    if (tid < half) partial[tid] += partial[tid + half];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}
