// nvcc-flags: -arch=compute_80 -O3
// Two sum reductions producing one partial sum per block:
//  * reduce_shared: tree reduction in shared memory with __syncthreads between levels;
//  * reduce_shuffle: __shfl_down_sync inside each warp, then one warp combines the warp sums.

extern "C" __global__ void reduce_shared(const unsigned* in, unsigned* blockSums, int n) {
  __shared__ unsigned partial[256];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x * 2 + threadIdx.x;
  unsigned v = 0;
  if (i < n) v = in[i];
  if (i + blockDim.x < n) v += in[i + blockDim.x];
  partial[tid] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid == 0) blockSums[blockIdx.x] = partial[0];
}

__device__ __forceinline__ int warpSum(int v) {
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

extern "C" __global__ void reduce_shuffle(const int* in, int* blockSums, int n) {
  __shared__ int warpSums[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  v = warpSum(v);
  int lane = threadIdx.x & 31;
  int warp = threadIdx.x >> 5;
  if (lane == 0) warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int nWarps = (blockDim.x + 31) >> 5;
    v = lane < nWarps ? warpSums[lane] : 0;
    v = warpSum(v);
    if (lane == 0) blockSums[blockIdx.x] = v;
  }
}
